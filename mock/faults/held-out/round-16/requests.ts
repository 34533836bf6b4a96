// How a request is read: path parameters deserialised as JSON when they are quoted (the OpenAPI
// "content" form of a parameter); and the observed rules: the custom-domain header's pattern
// compiled with the g flag and reused by test(), which keeps its lastIndex from one request to the
// next, and TRACE answered by a request-echo route. Each changes the answer to one near miss;
// requests without it are answered as before.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { JSON_CONTENT_TYPE } from '../../../exchange.ts';
import { HOST_NAME_PATTERN } from '../../../validators.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editHeaderCheck } from '../round-6/support/header-check.ts';

const CUSTOM_DOMAIN = 'tenant-custom-domain';

/** The raw (percent-encoded) path value, JSON.parse'd when it is a quoted string; else as it is. */
function unquoted(raw: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return raw;
  }
  if (!decoded.startsWith('"')) return raw;
  try {
    const value: unknown = JSON.parse(decoded);
    return typeof value === 'string' ? encodeURIComponent(value) : raw;
  } catch {
    return raw;
  }
}

export const requestFaults = heldOutFamily([
  {
    id: 'ho16-quoted-path-ids-json-parsed',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: 'Path parameters run through JSON.parse when they start with a quote, as an OpenAPI router does for parameters described with content: application/json (and for SDKs that serialise every parameter as JSON): a stream id "%22<valid id>%22", 28 characters, is redelivered (202) instead of 400 (a quoted event id likewise); a stream id with the opening quote only is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const params = Object.fromEntries(Object.entries(exchange.params).map(([name, raw]) => [name, unquoted(raw)]));
        return Object.entries(params).every(([name, value]) => value === exchange.params[name]) ? exchange : { ...exchange, params };
      }),
  },
  {
    id: 'ho16-custom-domain-pattern-global-flag',
    clause: 'sso-ticket.custom-domain.host',
    level: 'observed',
    bug: `${CUSTOM_DOMAIN}'s host-name pattern compiled once with the g flag (copied from a replace() call) and checked with test(), which starts at the lastIndex its last match left: after a request whose custom domain passes, the next request with a custom domain, however valid, is refused 400 invalid_headers instead of getting a ticket on that domain, and the one after passes again; a request without the header is answered as before.`,
    install: (app) => {
      const pattern = new RegExp(HOST_NAME_PATTERN, 'g');
      editHeaderCheck(app, 'sso-ticket', CUSTOM_DOMAIN, (current) => {
        let errors: ErrorObject[] | null | undefined = null;
        const check = (value: unknown): boolean => {
          if (typeof value === 'string' && !pattern.test(value)) {
            errors = [
              {
                instancePath: '',
                schemaPath: '#/pattern',
                keyword: 'pattern',
                params: { pattern: HOST_NAME_PATTERN },
                message: `must match pattern "${HOST_NAME_PATTERN}"`,
              },
            ];
            return false;
          }
          const valid = current(value);
          errors = current.errors;
          return valid;
        };
        Object.defineProperty(check, 'errors', { get: () => errors });
        return check as unknown as ValidateFunction;
      });
    },
  },
  {
    id: 'ho16-trace-echoes-request',
    clause: 'routes.method',
    level: 'observed',
    bug: "A request-echo route left mounted from a debugging session for TRACE on every path (app.trace('*', echo), the method's textbook behaviour): TRACE on an operation's path is answered 200 with the request it received, its Authorization header included, instead of being refused (405); PATCH on it is still refused.",
    install: (app) =>
      editReplies(app, ['method-not-allowed', 'not-found'], (reply, exchange) =>
        exchange.method === 'TRACE'
          ? {
              status: 200,
              headers: {
                ...Object.fromEntries(Object.entries(reply.headers).filter(([name]) => name.toLowerCase().startsWith('x-ratelimit'))),
                'content-type': JSON_CONTENT_TYPE,
              },
              body: { method: exchange.method, path: exchange.path, query: exchange.query, headers: exchange.headers },
            }
          : reply,
      ),
  },
]);
