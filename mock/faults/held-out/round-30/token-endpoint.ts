// The token endpoint: a Gleam (Wisp) handler that matches the form's media type as written, letter
// case included; and the observed rules: a Cowboy (Erlang) handler that reads the JSON request's
// parameters with re:run instead of a JSON decoder, a Java issuer on JJWT 0.12 whose
// audience().add(...) writes aud as a list, a Micronaut discovery document naming its own JWKS path,
// and a Mojolicious (Perl) JWKS whose modulus is written
// with MIME::Base64's encode_base64 and its line breaks. Each changes the answer to one near miss;
// other requests are answered as before.
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { jsonObjectOf } from '../../../auth/bearer.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The form media type exactly as Wisp's require_form matches it. */
const FORM = 'application/x-www-form-urlencoded';
/** The parameters the Cowboy handler reads. */
const NAMES = ['grant_type', 'client_id', 'client_secret', 'audience', 'scope'] as const;
/** Micronaut's default path of its JWKS endpoint. */
const KEYS_PATH = '/keys';
/** MIME::Base64::encode_base64 breaks its output every 76 characters. */
const MIME_LINE = 76;

/** What re:run(Body, <<"\"name\"\\s*:\\s*\"([^\"]*)\"">>) captures: the value's text, escapes and all. */
const capturedAsWritten = (text: string, name: string) => new RegExp(`"${name}"\\s*:\\s*"([^"]*)"`).exec(text)?.[1];

/** A base64url value with a line break after every 76 characters, as a Perl one-liner leaves it. */
const withLineBreaks = (value: string) => (value.match(new RegExp(`.{1,${MIME_LINE}}`, 'g')) ?? [value]).join('\n');

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho30-token-form-wisp-media-type-case',
    clause: 'token.endpoint',
    level: 'contract',
    bug: `A Gleam (Wisp) token handler that reads the body with wisp.require_form, whose guard matches the content-type header against "${FORM}" (or that followed by ";") as written, though media types are case-insensitive (RFC 9110 8.3.1): a form token request typed "Application/x-www-form-urlencoded" is refused 415 instead of getting a token; one typed in lower case is answered as before.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      app.wrapRoute('token', (next) => async (exchange) => {
        const original = await next(exchange);
        const type = exchange.headers['content-type'];
        if (typeof type !== 'string' || original.status === 429) return original;
        const media = type.split(';')[0]!.trim();
        if (media.toLowerCase() !== FORM || media === FORM) return original;
        return answeredInstead(original, errors().tokenReply('invalid_request', 'Unsupported Media Type', 415));
      });
    },
  },
  {
    id: 'ho30-token-json-cowboy-regex-escapes',
    clause: 'token.observed.json-request',
    level: 'observed',
    bug: 'A Cowboy (Erlang) token handler that reads each parameter of a JSON request with re:run(Body, <<"\\"audience\\"\\\\s*:\\\\s*\\"([^\\"]*)\\"">>, [{capture, all_but_first, binary}]) instead of a JSON decoder, so an escape stays as it was written: a JSON request whose audience is written with escaped slashes ("https:\\/\\/<tenant>\\/api\\/v2\\/", as PHP\'s json_encode writes it) is refused 403 access_denied instead of getting a token; the same request written without escapes is answered as before.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        const text = exchange.body.toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return exchange;
        }
        if (!isObject(parsed)) return exchange;
        const read: Fields = { ...parsed };
        let changed = false;
        for (const name of NAMES) {
          const captured = capturedAsWritten(text, name);
          if (captured !== undefined && typeof parsed[name] === 'string' && captured !== parsed[name]) {
            read[name] = captured;
            changed = true;
          }
        }
        return changed ? { ...exchange, body: Buffer.from(JSON.stringify(read), 'utf8') } : exchange;
      }),
  },
  {
    id: 'ho30-issued-aud-jjwt-list',
    clause: 'token.observed.claims',
    level: 'observed',
    bug: 'A Java issuer on JJWT 0.12 that writes Jwts.builder().audience().add(audience).and(), and JJWT writes an aud set with add as a JSON array even with one member (audience().single(...) writes the string): every issued token carries "aud": ["https://<tenant>/api/v2/"] instead of the string; the tokens still verify and are accepted.',
    install: (app) =>
      app.override('issuer', (issuer, built) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          const claims = jsonObjectOf(issued.accessToken.split('.')[1]);
          if (!claims || typeof claims.aud !== 'string') return issued;
          const accessToken = await new SignJWT({ ...claims, aud: [claims.aud] })
            .setProtectedHeader(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters)
            .sign(built.keys!.privateKey);
          return { ...issued, accessToken };
        },
      })),
  },
  {
    id: 'ho30-discovery-micronaut-keys-path',
    clause: 'token.observed.discovery',
    level: 'observed',
    bug: `A Micronaut Security service that writes its discovery document from its own endpoint configuration, where the JWKS is served at micronaut.security.endpoints.keys.path (by default ${KEYS_PATH}), while the tenant's gateway only routes /.well-known/jwks.json to it: the document's jwks_uri is "<issuer>${KEYS_PATH.slice(1)}", where nothing is served (404), instead of the JWKS at /.well-known/jwks.json; issuer and token_endpoint are as before.`,
    install: (app) =>
      editReplies(app, ['discovery'], (reply) => {
        if (reply.status !== 200 || !isObject(reply.body) || typeof reply.body.jwks_uri !== 'string') return reply;
        const jwks = new URL(reply.body.jwks_uri);
        return { ...reply, body: { ...reply.body, jwks_uri: `${jwks.origin}${KEYS_PATH}` } };
      }),
  },
  {
    id: 'ho30-jwks-mojo-encode-base64-lines',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: `A Mojolicious (Perl) app that writes its JWKS with encode_base64($modulus) and then tr{+/}{-_}d and s/=+$// for base64url, without encode_base64's second argument "" that turns off its line breaks: the key's n holds a line break after every ${MIME_LINE} characters (a 2048-bit modulus spans five lines), which base64url (RFC 7515 2, RFC 7518 6.3.1.1) does not allow; e and the other members are as before.`,
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.keys)) return reply;
        const keys = reply.body.keys.map((key: unknown) =>
          isObject(key) && typeof key.n === 'string' ? { ...key, n: withLineBreaks(key.n) } : key,
        );
        return { ...reply, body: { ...reply.body, keys } };
      }),
  },
]);
