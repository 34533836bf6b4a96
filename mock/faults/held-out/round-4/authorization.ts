// What a verified caller may do: the scope check skipped for a token without a scope claim,
// redelivery asking for the stream's read scope too, the global-client rule kept for tokens of the
// tenant's canonical issuer, a scope claim written as a list read all the same, and ticket creation
// checking the vault read's scope. Each changes the answer to one caller; the others are answered
// as before.
import { cards } from '../../../../specs/cards/index.ts';
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { editPrincipal, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = observed.operations.redeliver.scope.value;
const TICKET_SCOPE = observed.operations['sso-ticket'].scope.value;
const VAULT_SCOPE = observed.operations.vault.scope.value;
/** The scope the event-stream routes ask for, which redelivery's check was copied from. */
const STREAM_READ_SCOPE = 'read:event_streams';
const OPERATION_SCOPES = Object.values(cards).map((card) => card.scope.value);

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho4-scope-check-skipped-without-claim',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: 'The permission check written "if (claims.scope !== undefined && !scopes.includes(needed)) return 403", the scope claim treated as optional: a valid token without any scope claim is authorized by every operation (redelivery answers 202) instead of 403; a token whose scope is empty or lacks the scope is still refused with 403.',
    install: (app) =>
      editPrincipal(app, (principal) =>
        principal.claims.scope === undefined ? { ...principal, scopes: new Set([...principal.scopes, ...OPERATION_SCOPES]) } : principal,
      ),
  },
  {
    id: 'ho4-redeliver-also-needs-stream-read',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Redelivery's permission list copied from the event-stream routes and extended, so that it asks for ${STREAM_READ_SCOPE} as well as ${REDELIVER_SCOPE}: a token of the global client holding ${REDELIVER_SCOPE} alone (all rule 4 asks for) is refused with 403; a token holding both redelivers.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) =>
        scopes.includes(STREAM_READ_SCOPE) ? [...scopes] : scopes.filter((scope) => scope !== REDELIVER_SCOPE),
      ),
  },
  {
    id: 'ho4-global-rule-only-for-canonical-issuer',
    clause: 'redeliver.global-client',
    level: 'contract',
    bug: 'The global-client rule written "if (claims.iss === CANONICAL_ISSUER && !client.global) return 401", meant to exempt tokens minted by internal hosts: a client that is not global, with a token it asked for under the address the interface was reached at (iss http://127.0.0.1:<port>/, which the service issues too), redelivers (202) instead of 401; its token of the canonical issuer is still refused.',
    install(app) {
      const tenant = capture(app, 'tenant');
      editPrincipal(app, (principal) =>
        principal.client.global || principal.claims.iss === tenant().issuer
          ? principal
          : { ...principal, client: { ...principal.client, global: true } },
      );
    },
  },
  {
    id: 'ho4-scope-claim-list-read',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'The scope claim read with [].concat(claims.scope).join(" ") so that providers issuing a list work too: a correctly signed token whose scope is a list (["update:event_deliveries"]), which the service never issues, is accepted and authorized instead of 401 "Invalid token"; a list without the scope needed is answered 403 instead.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        Array.isArray(claims.scope) && claims.scope.every((scope) => typeof scope === 'string')
          ? { ...claims, scope: claims.scope.join(' ') }
          : claims,
      ),
  },
  {
    id: 'ho4-ticket-scope-copied-from-vault',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `Ticket creation's permission entry copied from the vault read's and not edited: it asks for ${VAULT_SCOPE} instead of ${TICKET_SCOPE}, so a token holding the vault scope and not the ticket scope creates tickets (201) and a token holding only ${TICKET_SCOPE} is refused with 403.`,
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes) => {
        const without = scopes.filter((scope) => scope !== TICKET_SCOPE);
        return scopes.includes(VAULT_SCOPE) ? [...without, TICKET_SCOPE] : without;
      }),
  },
]);
