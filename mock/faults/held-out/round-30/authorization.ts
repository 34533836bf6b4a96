// Who may call, and in what order it is judged: a Phoenix service whose Guardian error handler
// answers every auth error 401, the insufficient permission of Guardian.Permissions included; and
// the observed rules: an Akka HTTP route whose validate directive on the path ids sits outside
// authenticateOAuth2, and a Spring Security chain with no authentication entry point, whose
// default Http403ForbiddenEntryPoint answers the unauthenticated ticket requests. Each changes the
// answer to its near miss; other requests are answered as before.
import { observed } from '../../../../specs/index.ts';
import type { Exchange } from '../../../exchange.ts';
import { jsonReply } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody, withStatus } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const INSUFFICIENT_SCOPE = 'insufficient_scope';
const ID_LENGTH = observed.identifiers.event_stream.length;
/** Spring Security's Http403ForbiddenEntryPoint answers sendError(403, "Access Denied"). */
const ACCESS_DENIED = 'Access Denied';

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};

/** The first path id of the redelivery whose length the Akka validate directive refuses. */
function badlySized(exchange: Exchange): string | undefined {
  for (const name of ['id', 'event_id']) {
    const raw = exchange.params[name];
    const value = raw === undefined ? undefined : decodedOnce(raw);
    if (value !== undefined && [...value].length !== ID_LENGTH) return name;
  }
  return undefined;
}

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho30-redeliver-guardian-permissions-401',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: 'A Phoenix redelivery pipeline with Guardian.Permissions (ensure: %{event_deliveries: [:update]}) whose ErrorHandler, written for Guardian.Plug.EnsureAuthenticated, answers every auth_error with 401, the {:unauthorized, :insufficient_permission} of the permissions plug included: a valid global token without update:event_deliveries is answered 401 instead of 403 (the body still says which scope is missing); a request without a token is still 401 and one with the scope 202.',
    install: (app) =>
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 403 && isErrorBody(reply.body) && reply.body.errorCode === INSUFFICIENT_SCOPE ? withStatus(reply, 401) : reply,
      ),
  },
  {
    id: 'ho30-redeliver-akka-validate-before-authenticate',
    clause: 'auth.order',
    level: 'observed',
    bug: `An Akka HTTP route written path("event-streams" / Segment / "redeliver" / Segment) { (id, eventId) => validate(id.length == ${ID_LENGTH} && eventId.length == ${ID_LENGTH}, ...) { authenticateOAuth2(...) { ... } } }, the validate directive outside the authentication: a redelivery without a token (or with an invalid one) whose stream or event id is not ${ID_LENGTH} characters long is answered 400 instead of 401; with ids of the right length it is still 401.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply, exchange) => {
        const name = reply.status === 401 ? badlySized(exchange) : undefined;
        return name === undefined
          ? reply
          : answeredInstead(
              reply,
              errors().reply('invalid_uri', `'requirement failed: ${name} must be ${ID_LENGTH} characters' on property ${name}`),
            );
      });
    },
  },
  {
    id: 'ho30-ticket-spring-403-entry-point',
    clause: 'errors.401.all-operations',
    level: 'observed',
    bug: `A Spring Boot ticket service whose SecurityFilterChain reads the token in a custom OncePerRequestFilter and configures no AuthenticationEntryPoint, so an unauthenticated request meets the default Http403ForbiddenEntryPoint: ticket creation without a token, or with an invalid one, is answered 403 "${ACCESS_DENIED}" instead of 401; the other operations, and a valid token without the scope (403), are as before.`,
    install: (app) =>
      editReplies(app, ['sso-ticket'], (reply) =>
        reply.status === 401
          ? answeredInstead(reply, jsonReply(403, { statusCode: 403, error: 'Forbidden', message: ACCESS_DENIED }))
          : reply,
      ),
  },
]);
