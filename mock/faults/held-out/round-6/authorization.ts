// What a verified caller may do: scopes tokenised on the colon as well as the space, write actions
// grouped for ticket creation, an actor claim taken for the caller, the first scope of the claim
// missed by an indexOf test, and a scope claim split on "+" as a form field is. Each changes the
// decision for one near miss of a permitted caller; callers plainly without the permission are
// refused as before.
import { cards } from '../../../../specs/cards/index.ts';
import { observed } from '../../../../specs/index.ts';
import { editVerifier } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
const WRITE_ACTIONS = ['create', 'update', 'delete'];
const SUFFIX = observed.tokens.subject_suffix;

/** Every action of one held scope paired with every resource of another ("read:a update:b" gives "read:b" and "update:a"). */
function crossed(scopes: readonly string[]): string[] {
  const pairs = scopes.map((s) => s.split(':')).filter((p): p is [string, string] => p.length === 2);
  const all = pairs.flatMap(([action]) => pairs.map(([, resource]) => `${action}:${resource}`));
  return [...new Set([...scopes, ...all])];
}

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho6-scope-tokens-split-on-colon',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `The permission check tokenises the scope claim on spaces and colons and then asks for the action and the resource of ${REDELIVER_SCOPE} each somewhere among the tokens: a token holding read:event_deliveries and update:event_streams, but not ${REDELIVER_SCOPE}, is let redeliver instead of 403; a token holding only read:event_deliveries is still refused.`,
    install: (app) => readScopesAt(app, 'redeliver', (scopes) => crossed(scopes)),
  },
  {
    id: 'ho6-scope-split-on-plus',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `Redelivery's permission check splits the scope claim on "+" as well as spaces (the form encoding of a space, decoded once too often): a token whose one scope is "read:event_streams+${REDELIVER_SCOPE}", which grants no scope of the catalogue, is let redeliver instead of 403; "read:event_streams+read:event_deliveries" is still refused.`,
    install: (app) => readScopesAt(app, 'redeliver', (scopes) => scopes.flatMap((s) => s.split('+'))),
  },
  {
    id: 'ho6-first-scope-missed-by-indexof',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Redelivery tests the scope list with scopes.indexOf("${REDELIVER_SCOPE}") > 0 where >= 0 was meant: a token whose scope claim holds ${REDELIVER_SCOPE} first (the only scope a client asking for just that scope gets) is refused 403 instead of let redeliver; a token holding it after another scope is still let through.`,
    install: (app) => readScopesAt(app, 'redeliver', (scopes) => (scopes[0] === REDELIVER_SCOPE ? scopes.slice(1) : [...scopes])),
  },
  {
    id: 'ho6-actor-claim-taken-for-caller',
    clause: 'redeliver.errors.401.not-global',
    level: 'contract',
    bug: `The global-client rule reads the caller from the RFC 8693 actor claim when there is one (act.sub), for delegated tokens: a non-global client's token carrying act: {sub: "<global client>${SUFFIX}"} is let redeliver instead of 401; an act naming another non-global client is still refused.`,
    install: (app) =>
      editVerifier(app, (verifier, { store }) => {
        const viaActor = <V extends Awaited<ReturnType<typeof verifier.verify>>>(verification: V): V => {
          if (!verification.ok || verification.principal.client.global) return verification;
          const act = verification.principal.claims.act as { sub?: unknown } | undefined;
          const sub = typeof act?.sub === 'string' && act.sub.endsWith(SUFFIX) ? act.sub.slice(0, -SUFFIX.length) : undefined;
          const actor = sub === undefined ? undefined : store.client(sub);
          if (!actor?.global) return verification;
          return { ...verification, principal: { ...verification.principal, client: { ...verification.principal.client, global: true } } };
        };
        return {
          async verify(authorization, host) {
            return viaActor(await verifier.verify(authorization, host));
          },
          checkClaims(claims, host) {
            return viaActor(verifier.checkClaims(claims, host));
          },
        };
      }),
  },
  {
    id: 'ho6-ticket-write-actions-grouped',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `Ticket creation's permission check groups create, update and delete as "write" on a resource: a token holding delete:sso_access_tickets, but not ${TICKET_SCOPE}, is given a ticket instead of 403; a token holding only read:flows_vault_connections is still refused.`,
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes) => {
        const writes = scopes.filter((s) => WRITE_ACTIONS.includes(s.split(':')[0]!)).map((s) => s.split(':')[1]!);
        const granted = writes.flatMap((resource) => WRITE_ACTIONS.map((action) => `${action}:${resource}`));
        return [...new Set([...scopes, ...granted])];
      }),
  },
]);
