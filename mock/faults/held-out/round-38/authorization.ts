// Authorization: a permission table whose redelivery row was copied from the row above it (the
// list of deliveries); and the observed rule: a Koa service whose koa-jwt "unless" list holds a
// pattern that also matches the ticket route. Other requests are judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { capture } from '../../support/captured.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
/** The scope of the row above redelivery's in the table (GET .../deliveries), which its row repeats. */
const LIST_SCOPE = 'read:event_deliveries';

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho38-redeliver-permission-row-copied-from-list',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `A NestJS service whose permissions are a table of { method, path, scope } rows, the redelivery row pasted from the row above it (GET /event-streams/:id/deliveries) and its path changed but not its scope: redelivery requires ${LIST_SCOPE} instead of ${REDELIVER_SCOPE}, so a token holding ${LIST_SCOPE} alone redelivers (202) instead of 403, and a token holding ${REDELIVER_SCOPE} alone is refused 403; a token holding neither is still refused, one holding both served.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) => {
        const seen = scopes.filter((s) => s !== REDELIVER_SCOPE);
        return scopes.includes(LIST_SCOPE) ? [...seen, REDELIVER_SCOPE] : seen;
      }),
  },
  {
    id: 'ho38-ticket-koa-jwt-unless-pattern',
    clause: 'auth.order',
    level: 'observed',
    bug: `A Koa service that mounts koa-jwt with .unless({ path: [/^\\/\\.well-known\\//, /ticket/] }), the second pattern meant for the public ticket-redemption page (/self-service/connections-flow?ticket=...), and it also matches .../sso-ticket: ticket creation never authenticates, and its scope middleware, finding no ctx.state.user, answers 403 insufficient_scope, so a request without a token, or with an expired or badly signed one, is answered 403 instead of 401; the vault read and redelivery still answer such requests 401, and a valid token still gets its ticket.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['sso-ticket'], (reply) =>
        reply.status === 401 ? answeredInstead(reply, errors().reply('insufficient_scope', TICKET_SCOPE)) : reply,
      );
    },
  },
]);
