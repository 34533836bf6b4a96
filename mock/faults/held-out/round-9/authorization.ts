// What a verified caller may do: scopes compared once NFKC-normalised, a scope claim split with a
// limit of two, and a global-client verdict cache that the vault read fills with its default; and
// the observed rule: the ticket scope matched as a SQL LIKE pattern. Each grants (or, for the
// split, refuses) exactly that near miss; other tokens are judged as before.
import type { OperationKey } from '../../../../specs/index.ts';
import { cards } from '../../../../specs/cards/index.ts';
import { bearerToken, decodeJws } from '../../../auth/bearer.ts';
import { editReplies } from '../../support/route-edits.ts';
import { editPrincipal } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const OPERATIONS: readonly OperationKey[] = ['redeliver', 'sso-ticket', 'vault'];
const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;

/** Whether `value` matches `pattern` as SQL LIKE does: "_" any one character, "%" any run of them. */
function likeMatches(value: string, pattern: string): boolean {
  const source = [...pattern].map((c) => (c === '_' ? '.' : c === '%' ? '.*' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`, 's').test(value);
}

/** The azp of the request's (already verified) token, read without verifying again. */
function callerOf(authorization: string | undefined): string | undefined {
  const token = bearerToken(authorization);
  const azp = token === undefined ? undefined : decodeJws(token)?.payload.azp;
  return typeof azp === 'string' ? azp : undefined;
}

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho9-scope-nfkc-normalised',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Held scopes NFKC-normalised before they are compared (a Unicode-hygiene step applied to every claim): a token whose scope is "${REDELIVER_SCOPE.replace(':', '\uff1a')}", with a fullwidth colon, is let redeliver instead of 403; "${REDELIVER_SCOPE.replace(':', '\uff1a').replace('deliveries', 'streams')}" is still refused.`,
    install: (app) => {
      for (const key of OPERATIONS) readScopesAt(app, key, (scopes) => scopes.map((scope) => scope.normalize('NFKC')));
    },
  },
  {
    id: 'ho9-scope-split-limit',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `The scope claim read with scope.split(" ", 2), the limit copied from a split of "Bearer <token>": only the first two scopes count, so a token holding ${REDELIVER_SCOPE} as its third scope is refused 403 instead of let redeliver; a token whose first or second scope it is still redelivers.`,
    install: (app) =>
      editPrincipal(app, (principal) => {
        const { scope } = principal.claims;
        return typeof scope === 'string' ? { ...principal, scopes: new Set(scope.split(' ', 2).filter((s) => s.length > 0)) } : principal;
      }),
  },
  {
    id: 'ho9-global-verdict-filled-by-vault',
    clause: 'redeliver.global-client',
    level: 'contract',
    bug: 'Whether a client is global kept in a cache shared by the routes, which the vault read fills with the default true (it never needs the verdict, so it never works it out): once a non-global client has read a vault connection, its redeliveries are accepted (202) instead of 401; a non-global client that has not is still refused.',
    install: (app) => {
      const cached = new Map<string, boolean>();
      editReplies(app, ['vault'], (reply, exchange) => {
        const caller = callerOf(exchange.headers.authorization);
        if (reply.status === 200 && caller !== undefined && !cached.has(caller)) cached.set(caller, true);
        return reply;
      });
      editPrincipal(app, (principal) => {
        const verdict = cached.get(principal.client.clientId);
        return verdict === undefined || verdict === principal.client.global
          ? principal
          : { ...principal, client: { ...principal.client, global: verdict } };
      });
    },
  },
  {
    id: 'ho9-ticket-scope-sql-like',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `The ticket permission looked up in the database with held_scope LIKE '${TICKET_SCOPE}', where "_" matches any one character: a token holding "${TICKET_SCOPE.replace(/_/g, '-')}" gets a ticket instead of 403; "${TICKET_SCOPE.slice(0, -1)}" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes) =>
        !scopes.includes(TICKET_SCOPE) && scopes.some((scope) => likeMatches(scope, TICKET_SCOPE))
          ? [...scopes, TICKET_SCOPE]
          : [...scopes],
      ),
  },
]);
