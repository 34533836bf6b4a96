// State and the errors: a redelivery guard written as status != "delivered" by an Oban worker's
// author (a pending event redelivered), a Ktor service finding the caller from RFC 9068's client_id
// claim before azp; and the observed rules: errors typed application/problem+json by ASP.NET Core's
// ProblemDetails, statusCode written as text by a Perl error renderer, and the redelivery's 202
// answered with the Oban job. Each changes the answer to its near miss; the common answers are as
// before.
import { capture } from '../../support/captured.ts';
import { editReplies, editSuccessReplies, isErrorBody, MANAGEMENT_ROUTES, withContentType } from '../../support/route-edits.ts';
import { editStore } from '../../support/store-view.ts';
import { editPrincipal } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho26-redeliver-pending-oban-guard',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: 'An Elixir service whose redelivery guard is `when event.status != "delivered"` (the author thought of a delivered event as the only one not to send again) before it enqueues an Oban job: a pending event is redelivered (202) instead of 409; a delivered event is still 409.',
    install: (app) =>
      editStore(app, (store) => ({
        event: (streamId, eventId) => {
          const event = store.event(streamId, eventId);
          return event && event.status === 'pending' ? { ...event, status: 'failed' } : event;
        },
      })),
  },
  {
    id: 'ho26-client-id-claim-ktor',
    clause: 'redeliver.global-client',
    level: 'contract',
    bug: 'A Kotlin (Ktor) service that finds the calling client with claims["client_id"] ?: claims["azp"] (client_id, the claim of RFC 9068\'s access-token profile, read first so that another issuer\'s tokens would do), before the client\'s global flag is checked: a non-global client\'s token, signed with the tenant key, that also carries client_id naming the global client redelivers (202) instead of 401 "Client is not global"; client_id naming no client is still 401.',
    install: (app) => {
      const store = capture(app, 'store');
      editPrincipal(app, (principal) => {
        const named = principal.claims.client_id;
        if (principal.client.global || typeof named !== 'string' || named === principal.client.clientId) return principal;
        const found = store().client(named);
        return found ? { ...principal, client: found } : principal;
      });
    },
  },
  {
    id: 'ho26-errors-aspnet-problem-json',
    clause: 'errors.body.content-type',
    level: 'observed',
    bug: 'An ASP.NET Core service whose errors go through ProblemDetails (AddProblemDetails), which types them application/problem+json while the body is the service\'s own error object: every error is answered with Content-Type "application/problem+json; charset=utf-8" instead of application/json; the status and the body are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status >= 400 && isErrorBody(reply.body) ? withContentType(reply, 'application/problem+json; charset=utf-8') : reply,
      ),
  },
  {
    id: 'ho26-error-status-code-perl-string',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'A Perl error renderer that builds the body as { statusCode => $c->res->code, ... } where the code is read back from the response line as text, and JSON::PP writes a scalar last used as a string with quotes: errors are answered with "statusCode": "404" (a string) instead of 404; the other members are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status >= 400 && isErrorBody(reply.body)
          ? { ...reply, body: { ...reply.body, statusCode: String(reply.body.statusCode) } }
          : reply,
      ),
  },
  {
    id: 'ho26-redeliver-body-oban-job',
    clause: 'redeliver.response.body',
    level: 'observed',
    bug: 'An Elixir controller that answers the redelivery with json(conn, job), the Oban job its insert returned passed through a Jason encoder derived for the job\'s public fields: the 202 is answered {"id": ..., "queue": "redeliveries", "state": "available"} instead of {}; the status is as before.',
    install: (app) => {
      let next = 1;
      editSuccessReplies(app, 'redeliver', (reply) => {
        const id = next;
        next += 1;
        return { ...reply, body: { id, queue: 'redeliveries', state: 'available' } };
      });
    },
  },
]);
