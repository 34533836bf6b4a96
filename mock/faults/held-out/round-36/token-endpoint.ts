// The token endpoint: a PHP front controller reading $_POST, where PHP turns the dots and spaces of
// a form field's name into underscores; and the observed rule: a Go service answering with the
// golang.org/x/oauth2 Token struct of before v0.13. Other requests are answered as before.
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { isFormMediaType } from '../../../stages/json-body.ts';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
/** The characters PHP replaces with "_" in the names of request variables. */
const PHP_MANGLED = /[. ]/g;
const HAS_MANGLED = /[. ]/;

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho36-grant-type-php-dot-underscore',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: "A PHP token endpoint that reads the form through $_POST, and PHP rewrites the dots and spaces of a variable's name to underscores when it builds $_POST: a form request with grant.type=client_credentials and no grant_type is read as grant_type and issued a token instead of refused; grant-type=client_credentials (a hyphen, which PHP keeps) is still refused.",
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
        const form = new URLSearchParams(exchange.body.toString('utf8'));
        if (![...form.keys()].some((name) => HAS_MANGLED.test(name))) return exchange;
        const rewritten = new URLSearchParams();
        for (const [name, value] of form) {
          const php = name.replace(PHP_MANGLED, '_');
          if (php !== name && form.has(php)) continue;
          rewritten.append(php, value);
        }
        return { ...exchange, body: Buffer.from(rewritten.toString(), 'utf8') };
      }),
  },
  {
    id: 'ho36-token-answer-go-oauth2-token-struct',
    clause: 'token.observed.response',
    level: 'observed',
    bug: 'A Go token service that answers with json.Marshal of a golang.org/x/oauth2 Token (a version before v0.13, which has no ExpiresIn), whose fields are access_token, token_type, refresh_token and expiry, the last two omitempty: the answer is {access_token, token_type, expiry: "<RFC 3339 time>"} without expires_in and without scope; the token itself is as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        if (reply.status !== 200 || !isObject(reply.body) || typeof reply.body.expires_in !== 'number') return reply;
        const { access_token, token_type, expires_in } = reply.body;
        const expiry = new Date(Date.now() + expires_in * 1000).toISOString();
        return { ...reply, body: { access_token, token_type, expiry } };
      }),
  },
]);
