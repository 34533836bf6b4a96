// Who may see what, and the errors: a CDN that caches the vault read without Vary: Authorization
// and serves it to a caller without credentials, Envoy's jwt_authn filter answering a token for
// another audience 403; and the observed rule: ktor's message for a body that does not deserialise
// in place of the service's validation message. Each changes the answer to its near miss; the
// common answers are as before.
import type { Reply } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES, withoutHeaders, withStatus } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** How long the CDN keeps an answer the origin sent without Cache-Control (its default edge TTL). */
const EDGE_TTL_MS = 60_000;
const BAD_AUDIENCE = 'Bad audience: ';
const ENVOY_AUDIENCE_DENIED = 'Audiences in Jwt are not allowed';
const KTOR_CONVERSION = 'Failed to convert request body to class SsoTicketRequest';
/** A validation message of a value of the wrong JSON type, which a typed decoder meets first. */
const TYPE_PROBLEM = /^Payload validation error: 'Expected type /;

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho22-anonymous-read-served-from-cdn',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'A CDN in front of the API that caches GET answers the origin sends without Cache-Control, keyed by the URL alone (no Vary: Authorization), forwarding credentialed requests and serving the rest from its cache: once a connection has been read with a token, a read of the same URL without any Authorization is answered that record (200) for a minute instead of 401; a connection nobody read is still refused 401.',
    install: (app) => {
      const clock = capture(app, 'clock');
      const cached = new Map<string, { reply: Reply; at: number }>();
      app.wrapRoute('vault', (next) => async (exchange) => {
        const hit = cached.get(exchange.path);
        if (exchange.headers.authorization === undefined && hit && clock().now() - hit.at < EDGE_TTL_MS) return hit.reply;
        const reply = await next(exchange);
        if (exchange.method === 'GET' && reply.status === 200) cached.set(exchange.path, { reply, at: clock().now() });
        return reply;
      });
    },
  },
  {
    id: 'ho22-wrong-audience-envoy-403',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: `The audience checked by Envoy's jwt_authn filter in front of the service, which answers a token whose aud is not allowed with 403 "${ENVOY_AUDIENCE_DENIED}": a validly signed token of the tenant for another API (its reports API) is refused 403 by redelivery (and every operation) instead of 401; an expired token is still 401.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (reply.status !== 401 || !isErrorBody(reply.body) || typeof reply.body.message !== 'string') return reply;
        if (!reply.body.message.startsWith(BAD_AUDIENCE)) return reply;
        const denied = withStatus(withoutHeaders(reply, ['www-authenticate']), 403);
        const { attributes: _attributes, ...body } = denied.body as Record<string, unknown>;
        return { ...denied, body: { ...body, message: ENVOY_AUDIENCE_DENIED } };
      }),
  },
  {
    id: 'ho22-body-type-error-ktor-message',
    clause: 'errors.400.body',
    level: 'observed',
    bug: `The ticket body received with ktor's call.receive<SsoTicketRequest>(), whose BadRequestException the service's StatusPages writes with its own message: a body whose field has the wrong JSON type (ttl_sec "3600") is answered 400 "${KTOR_CONVERSION}" without errorCode instead of "Payload validation error: ..." with invalid_body; a value out of range (checked after decoding) keeps the service's message.`,
    install: (app) =>
      editReplies(app, ['sso-ticket'], (reply) =>
        reply.status === 400 && isErrorBody(reply.body) && typeof reply.body.message === 'string' && TYPE_PROBLEM.test(reply.body.message)
          ? { ...reply, body: { statusCode: 400, error: reply.body.error, message: KTOR_CONVERSION } }
          : reply,
      ),
  },
]);
