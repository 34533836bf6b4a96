// Authorization across requests: a Go redelivery handler whose held-scope set comes from a
// sync.Pool and goes back into it uncleared after an allowed request; an ASP.NET service whose
// 403 ProblemDetails are memoised by status code. A first request is judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const FORBIDDEN = 403;
const UNAUTHORIZED = 401;

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho42-go-sync-pool-scope-set-uncleared',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `A Go redelivery handler that takes a map[string]struct{} of held scopes from a sync.Pool, adds the token's scopes, and clears it before putting it back only on the 403 path (the clear sits in the refusal's branch, the success path's defer puts it back as it is): after an allowed redelivery, a token without ${REDELIVER_SCOPE} is judged with the scopes the pooled set still holds and redelivers (202) instead of 403; before any allowed redelivery it is refused 403, and after a 403 the set is empty again.`,
    install: (app) => {
      let pooled: string[] = [];
      let judged: string[] | undefined;
      readScopesAt(app, 'redeliver', (scopes) => {
        judged = [...new Set([...pooled, ...scopes])];
        return judged;
      });
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        judged = undefined;
        const reply = await next(exchange);
        if (judged === undefined || reply.status === UNAUTHORIZED) return reply;
        pooled = reply.status === FORBIDDEN ? [] : judged;
        return reply;
      });
    },
  },
  {
    id: 'ho42-aspnet-problem-details-memoised-by-status',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: 'An ASP.NET Core service whose IProblemDetailsService is wrapped in an IMemoryCache keyed by the status code (the team measured the factory under load), so the body of the first 403 is written for every later 403: after a vault read refused for read:flows_vault_connections, a ticket creation without create:sso_access_tickets is answered 403 "Insufficient scope, expected any of: read:flows_vault_connections" instead of naming create:sso_access_tickets; the first 403 names its own scope, and the status and the other errors are as before.',
    install: (app) => {
      let first: unknown;
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (reply.status !== FORBIDDEN || !isErrorBody(reply.body)) return reply;
        first ??= reply.body;
        return { ...reply, body: first };
      });
    },
  },
]);
