// The token endpoint: a form whose bracketed client_id[] a qs-style parser turns into a list, a
// secret compared after NFKC normalisation, an audience whose dot segments a URI normaliser
// removed; and the observed rules: errors wrapped in Phoenix's fallback envelope, and expires_in
// written as an ISO 8601 duration. Each changes the answer to one near miss; other requests are
// answered as before.
import { reasonPhrase } from '../../../errors.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParams } from '../round-17/support/token-params.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const FORM = 'application/x-www-form-urlencoded';
const DOT_SEGMENT = /\/\.{1,2}(?=\/|$)/;

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho20-client-id-qs-brackets',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: 'The form parsed with Express\'s extended parser (qs), which reads "client_id[]=<id>" as a list, and the client found by String(list): a request that names its client only as client_id[]=<client id> is granted a token instead of being refused for a missing client_id; client_id[]=<id>&client_id[]=<other> ("<id>,<other>") is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const type = String(exchange.headers['content-type'] ?? '').toLowerCase();
        if (!type.startsWith(FORM)) return exchange;
        const form = new URLSearchParams(exchange.body.toString('utf8'));
        const listed = form.getAll('client_id[]');
        if (listed.length === 0 || form.has('client_id')) return exchange;
        form.delete('client_id[]');
        form.set('client_id', String(listed));
        return { ...exchange, body: Buffer.from(form.toString(), 'utf8') };
      }),
  },
  {
    id: 'ho20-secret-nfkc-compared',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'The client secret normalised with NFKC before it is compared (a password-hashing recipe, SASLprep-like, applied to client secrets): the secret with one letter written as its fullwidth form ("Ａ" for "A") is granted a token instead of 401; the secret with that letter changed to another is still refused.',
    install: (app) =>
      editTokenParams(app, (params) =>
        typeof params.client_secret === 'string' && params.client_secret.normalize('NFKC') !== params.client_secret
          ? { ...params, client_secret: params.client_secret.normalize('NFKC') }
          : params,
      ),
  },
  {
    id: 'ho20-audience-dot-segments-removed',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'The audience compared after java.net.URI.normalize(), which removes "." and ".." path segments: "https://<host>/api/v2/./" is granted a management token instead of refused; "https://<host>/api/v2/../" (which normalises to /api/) is still refused.',
    install: (app) =>
      editTokenParams(app, (params) => {
        if (typeof params.audience !== 'string' || !DOT_SEGMENT.test(params.audience)) return params;
        try {
          return { ...params, audience: new URL(params.audience).href };
        } catch {
          return params;
        }
      }),
  },
  {
    id: 'ho20-token-error-phoenix-envelope',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: 'Token errors answered by a Phoenix FallbackController\'s ErrorJSON: {"errors": {"detail": "Unauthorized"}} instead of {"error": "invalid_client", "error_description": ...} on a bad secret (and the other errors the same); the status is as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) =>
        reply.status >= 400 && isObject(reply.body) && typeof reply.body.error === 'string'
          ? { ...reply, body: { errors: { detail: reasonPhrase(reply.status) } } }
          : reply,
      ),
  },
  {
    id: 'ho20-expires-in-iso-duration',
    clause: 'token.observed.response',
    level: 'observed',
    bug: 'expires_in serialised from a java.time.Duration with WRITE_DURATIONS_AS_TIMESTAMPS off: "expires_in": "PT24H" instead of 86400; access_token, token_type and scope are as before.',
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        if (reply.status !== 200 || !isObject(reply.body) || typeof reply.body.expires_in !== 'number') return reply;
        const seconds = reply.body.expires_in;
        const hours = Math.floor(seconds / 3600);
        const rest = seconds % 3600;
        const duration = `PT${hours > 0 ? `${hours}H` : ''}${rest > 0 || hours === 0 ? `${rest}S` : ''}`;
        return { ...reply, body: { ...reply.body, expires_in: duration } };
      }),
  },
]);
