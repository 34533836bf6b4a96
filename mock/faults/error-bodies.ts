// The errors of the management interface as the real service writes them (observed level): the
// body's fields, its content type, which message names which cause, which status a refusal has.
// The status-and-message faults change entries of the error catalogue, wherever they are answered.
import type { FaultHooks } from '../app.ts';
import type { Reply, RouteKey } from '../exchange.ts';
import { observed, operationKeys } from '../../specs/index.ts';
import { faultFamily } from './fault.ts';
import { capture } from './support/captured.ts';
import { editErrors } from './support/error-edits.ts';
import {
  editReplies,
  isErrorBody,
  MANAGEMENT_ROUTES,
  replaceStatus,
  withContentType,
  withoutBodyField,
  withStatus,
} from './support/route-edits.ts';

const UNAUTHORIZED = 401;
const FORBIDDEN = 403;
const UNPROCESSABLE = 422;
const METHOD_NOT_ALLOWED = 405;
const PAYLOAD_TOO_LARGE = 413;
const TOO_MANY_REQUESTS = 429;

/** Changes every error body the management interface answers, as its error serializer would. */
function editErrorBodies(app: FaultHooks, edit: (reply: Reply & { body: Record<string, unknown> }) => Reply): void {
  editReplies(app, MANAGEMENT_ROUTES, (reply) => (isErrorBody(reply.body) ? edit({ ...reply, body: reply.body }) : reply));
}

/** Error bodies of one status, on the given routes, with another error field (another reason-phrase table's). */
function phraseOf(app: FaultHooks, status: number, phrase: string, routes: readonly RouteKey[] = MANAGEMENT_ROUTES): void {
  editReplies(app, routes, (reply) =>
    reply.status === status && isErrorBody(reply.body) ? { ...reply, body: { ...reply.body, error: phrase } } : reply,
  );
}

export const errorBodyFaults = faultFamily([
  {
    id: 'error-body-without-status-code',
    clause: 'errors.body.shape',
    bug: 'An error serializer that leaves out statusCode (the status line has it anyway): error bodies of the management interface have no statusCode field.',
    install: (app) => editErrorBodies(app, (reply) => withoutBodyField(reply, 'statusCode')),
  },
  {
    id: 'error-body-framework-default-code',
    clause: 'errors.404.vault',
    bug: 'An exception handler that writes errorCode from the exception\'s own default code where the service gave none (Django REST framework\'s get_codes()): a 404 carries errorCode "not_found" where the service writes none; errors that have an errorCode keep it.',
    install: (app) =>
      editErrorBodies(app, (reply) =>
        reply.status === 404 && reply.body.errorCode === undefined ? { ...reply, body: { ...reply.body, errorCode: 'not_found' } } : reply,
      ),
  },
  {
    id: 'error-body-wrong-reason-phrase',
    clause: 'errors.body.shape',
    bug: 'An error serializer that writes a generic "Error": error bodies have error "Error" instead of the status\'s reason phrase.',
    install: (app) => editErrorBodies(app, (reply) => ({ ...reply, body: { ...reply.body, error: 'Error' } })),
  },
  {
    id: 'payload-too-large-phrase-from-rfc-9110',
    clause: 'errors.body.shape',
    bug: 'Reason phrases taken from a status table brought up to date with RFC 9110, which renamed 413: a body over the size limit is answered 413 with error "Content Too Large" instead of "Payload Too Large"; the other phrases are the same in both.',
    install: (app) => phraseOf(app, PAYLOAD_TOO_LARGE, 'Content Too Large'),
  },
  {
    id: 'method-not-allowed-phrase-from-the-proxy',
    clause: 'errors.body.shape',
    bug: 'A method an operation does not have refused by the reverse proxy\'s rule, whose JSON error page copies the proxy\'s own status line ("405 Not Allowed"): the 405 has error "Not Allowed" instead of "Method Not Allowed"; the operations\' own errors are as before.',
    install: (app) => phraseOf(app, METHOD_NOT_ALLOWED, 'Not Allowed', ['method-not-allowed']),
  },
  {
    id: 'rate-limited-phrase-from-the-gateway',
    clause: 'errors.body.shape',
    bug: 'The 429 written by an API gateway plugin that names the refusal, not the status: error "API rate limit exceeded" instead of "Too Many Requests" (message and errorCode as before).',
    install: (app) => phraseOf(app, TOO_MANY_REQUESTS, 'API rate limit exceeded'),
  },
  {
    id: 'method-not-allowed-as-html',
    clause: 'errors.body.content-type',
    bug: "A method the path does not take answered by the web server's own 405 page type (text/html) around the JSON error body: Content-Type text/html; charset=utf-8 instead of application/json; the status and body are as before.",
    install: (app) => editReplies(app, ['method-not-allowed'], (reply) => withContentType(reply, 'text/html; charset=utf-8')),
  },
  {
    id: 'not-found-messages-localised',
    clause: 'errors.404.vault',
    bug: 'Error messages translated by an i18n middleware that reads Accept-Language: a 404 asked for with German first says its message in German ("Verbindung nicht gefunden"); without the header it is the service\'s own text.',
    install: (app) =>
      editReplies(app, operationKeys, (reply, exchange) =>
        reply.status === 404 && /^de\b/i.test(String(exchange.headers['accept-language'] ?? '')) && isErrorBody(reply.body)
          ? { ...reply, body: { ...reply.body, message: 'Verbindung nicht gefunden' } }
          : reply,
      ),
  },
  {
    id: 'error-content-type-without-charset',
    clause: 'errors.body.content-type',
    bug: 'Errors written by another handler than successes: error responses have content type application/json without "; charset=utf-8".',
    install: (app) => editErrorBodies(app, (reply) => withContentType(reply, 'application/json')),
  },
  {
    id: 'unrouted-path-answered-by-catch-all',
    clause: 'errors.body.content-type',
    bug: 'A catch-all route registered before the interface\'s own not-found handler: a path under /api/v2 that no route takes is answered 404 with the text "Not Found" (text/plain) instead of the error body; the operations\' own 404s (an unknown id) are unchanged.',
    install: (app) =>
      editReplies(app, ['not-found'], (reply) =>
        reply.status === 404 ? { ...withContentType(reply, 'text/plain; charset=utf-8'), body: 'Not Found' } : reply,
      ),
  },
  {
    id: '401-messages-all-invalid-token',
    clause: 'errors.401.message',
    bug: 'One message for every token failure: a token with an invalid signature or an expired token is answered 401 "Invalid token" instead of a message naming the cause.',
    install: (app) => editErrors(app, ['invalid_signature', 'expired_token'], (_reply, errors) => errors.reply('invalid_token')),
  },
  {
    id: 'bad-audience-names-the-required-one',
    clause: 'errors.401.message',
    bug: 'A 401 for a token of another audience whose message is written from the audience the check required (the value the parser was given to expect) instead of the token\'s: "Bad audience: https://<tenant>/api/v2/" for a token of another API; the status and the other 401s are as before.',
    install: (app) => {
      const tenant = capture(app, 'tenant');
      editErrors(app, ['bad_audience'], (_reply, errors) => errors.reply('bad_audience', tenant().audience));
    },
  },
  {
    id: '403-without-scope-name',
    clause: 'errors.403.scope-named',
    bug: 'A 403 that keeps the wording but loses the list: a missing scope is answered "Insufficient scope, expected any of: " with nothing after, not naming the scope needed.',
    install: (app) => editErrors(app, ['insufficient_scope'], (_reply, errors) => errors.reply('insufficient_scope')),
  },
  {
    id: '403-scopes-quoted',
    clause: 'errors.403.scope-named',
    bug: 'A message template that quotes each scope for readability: a missing scope is answered \'Insufficient scope, expected any of: "update:event_deliveries"\', naming the scope but not as the comma-separated list the service writes.',
    install: (app) =>
      editErrors(app, ['insufficient_scope'], (reply) => {
        const body = reply.body as { message: string };
        const [prefix, scopes] = body.message.split(/(?<=: )/);
        const quoted = scopes!
          .split(',')
          .map((scope) => `"${scope}"`)
          .join(', ');
        return { ...reply, body: { ...body, message: `${prefix}${quoted}` } };
      }),
  },
  {
    id: '403-names-the-next-operations-scope',
    clause: 'errors.403.scope-named',
    bug: 'A 403 message built from a slice of the route table\'s scope list that runs one entry too far: a missing scope is answered "Insufficient scope, expected any of: <the scope needed>,<the next operation\'s scope>", naming a scope that grants nothing here beside the right one.',
    install: (app) =>
      editErrors(app, ['insufficient_scope'], (reply) => {
        const body = reply.body as { message: string };
        const scopes = [...new Set(Object.values(observed.operations).map((operation) => operation.scope.value))];
        const named = scopes.findIndex((scope) => body.message.endsWith(scope));
        const next = scopes[(named + 1) % scopes.length]!;
        return named === -1 ? reply : { ...reply, body: { ...body, message: `${body.message},${next}` } };
      }),
  },
  {
    id: 'error-body-with-trace-id',
    clause: 'errors.body.shape',
    bug: "An error serializer that adds the request's trace id for support: every error body of the management interface carries a traceId member the service does not send.",
    install: (app) => editErrorBodies(app, (reply) => ({ ...reply, body: { ...reply.body, traceId: '4bf92f3577b34da6a3ce929d0e0e4736' } })),
  },
  {
    id: 'missing-event-told-stream-missing',
    clause: 'errors.404.stream',
    bug: 'One "not found" message for both lookups of redelivery: an unknown event is answered with the unknown-stream message "The requested stream does not exist.".',
    install: (app) => editErrors(app, ['event_not_found'], (_reply, errors) => errors.reply('stream_not_found')),
  },
  {
    id: 'not-found-messages-follow-accept-language',
    clause: 'errors.404.vault',
    bug: 'Not-found messages translated by Accept-Language, with a French table: an unknown connection asked for in French is answered "Connexion introuvable" instead of "Connection not found".',
    install(app) {
      app.wrapRoute('vault', (next) => async (exchange) => {
        const reply = await next(exchange);
        const french = /^fr\b/i.test(String(exchange.headers['accept-language'] ?? ''));
        return french && reply.status === 404 && isErrorBody(reply.body)
          ? { ...reply, body: { ...reply.body, message: 'Connexion introuvable' } }
          : reply;
      });
    },
  },
  {
    id: 'vault-404-generic-message',
    clause: 'errors.404.vault',
    bug: 'An unknown connection answered by the framework\'s generic 404: the message is "Not Found" instead of "Connection not found".',
    install: (app) => editErrors(app, ['vault_connection_not_found'], (_reply, errors) => errors.reply('route_not_found')),
  },
  {
    id: 'path-error-prefix-twice',
    clause: 'errors.400.path',
    bug: 'The "Path validation error: " prefix written by the validator and again by the error handler that formats every invalid_uri: a malformed path id is answered 400 "Path validation error: Path validation error: ..." instead of one prefix; statusCode, error and errorCode are as before.',
    install: (app) =>
      editErrors(app, ['invalid_uri'], (reply) => {
        const body = reply.body as { message?: unknown };
        const prefix = observed.errors.invalid_uri!.prefix!;
        return typeof body.message === 'string' ? { ...reply, body: { ...body, message: `${prefix}${body.message}` } } : reply;
      }),
  },
  {
    id: 'path-errors-without-error-code',
    clause: 'errors.400.path',
    bug: 'A path validation error written without its code: a malformed path id is answered 400 "Path validation error: ..." without errorCode invalid_uri.',
    install: (app) => editErrors(app, ['invalid_uri'], (reply) => withoutBodyField(reply, 'errorCode')),
  },
  {
    id: 'body-errors-as-422',
    clause: 'errors.400.body',
    bug: 'A framework default for invalid bodies: an invalid ticket body is answered 422 instead of 400 invalid_body (still a refusal).',
    install: (app) => editErrors(app, ['invalid_body'], (reply) => withStatus(reply, UNPROCESSABLE)),
  },
  {
    id: '429-body-without-error-code',
    clause: 'errors.429.body',
    bug: 'A rate-limit answer written without its code: a 429 says "Global limit has been reached" without errorCode too_many_requests.',
    install: (app) => editErrors(app, ['too_many_requests'], (reply) => withoutBodyField(reply, 'errorCode')),
  },
  {
    id: 'ticket-403-for-invalid-token',
    clause: 'errors.401.all-operations',
    bug: 'Ticket creation filing a bad credential under authorization: a missing or invalid token is answered 403 instead of 401 (still a refusal).',
    install: (app) => replaceStatus(app, ['sso-ticket'], UNAUTHORIZED, FORBIDDEN),
  },
]);
