// State and errors: a Bun service on bun:sqlite whose lookup guard was written for better-sqlite3;
// a Cloudflare D1 update whose success flag is read for "a row changed"; an Istio AuthorizationPolicy
// answering its own 403; Envoy's jwt_authn answering an expired token itself. Other answers are as
// before.
import { reasonPhrase } from '../../../errors.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES, withContentType } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const EVENT_NOT_FOUND = 'The requested event does not exist.';
const CONFLICT = 409;
const FORBIDDEN = 403;
const UNAUTHORIZED = 401;
const INTERNAL = 500;

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho41-bun-sqlite-get-null-unguarded',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: "A Bun redelivery service ported from better-sqlite3 to bun:sqlite, whose event guard reads if (event === undefined) return notFound(), while bun:sqlite's .get() answers null for no row: an unknown event of an existing stream reaches event.status and is answered 500 (TypeError: null is not an object) instead of 404; an unknown stream (its guard written if (!stream)) is still answered 404, and known events as before.",
    install: (app) =>
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === EVENT_NOT_FOUND
          ? {
              ...reply,
              status: INTERNAL,
              body: { statusCode: INTERNAL, error: reasonPhrase(INTERNAL), message: "null is not an object (evaluating 'event.status')" },
            }
          : reply,
      ),
  },
  {
    id: 'ho41-d1-update-success-flag-read-as-changed',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: "A Cloudflare Worker on D1 that redelivers with UPDATE events SET status = 'pending' WHERE id = ?1 AND stream_id = ?2 AND status = 'failed' and answers 409 when !result.success, where D1's success is true for a statement that ran and matched no row (result.meta.changes is 0): an event that is delivered or pending is answered 202 instead of 409; a failed event is redelivered as before, and an unknown event is still answered 404 by the lookup before it.",
    install: (app) =>
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === CONFLICT ? withContentType({ ...reply, status: 202, body: {} }, 'application/json; charset=utf-8') : reply,
      ),
  },
  {
    id: 'ho41-istio-rbac-access-denied',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: 'An Istio AuthorizationPolicy (action ALLOW, when request.auth.claims[scope] holds the operation\'s scope) that decides the scope in the sidecar, so the 403 is Envoy\'s RBAC filter\'s own: a token without the scope is answered 403 "RBAC: access denied" typed text/plain instead of the error object with insufficient_scope and "Insufficient scope, expected any of: ..."; the status, and every other error, are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === FORBIDDEN && isErrorBody(reply.body) && reply.body.errorCode === 'insufficient_scope'
          ? { ...withContentType(reply, 'text/plain'), body: 'RBAC: access denied' }
          : reply,
      ),
  },
  {
    id: 'ho41-envoy-jwt-authn-expired-plain',
    clause: 'errors.401.message',
    level: 'observed',
    bug: 'An Envoy front proxy whose jwt_authn filter checks the time claims and answers a failure itself, the service checking only the signature again: an expired token is answered 401 "Jwt is expired" typed text/plain instead of the error object naming an expired token; a token with a bad signature, which the service refuses first, and a token of a non-global client are answered as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === UNAUTHORIZED && isErrorBody(reply.body) && /expired/i.test(String(reply.body.message))
          ? { ...withContentType(reply, 'text/plain'), body: 'Jwt is expired' }
          : reply,
      ),
  },
]);
