// What a verified caller may do: a permission table keyed by the URL as sent, a grant check
// written as equality where a subset was meant, the vault read's permission read from the client's
// stored grant instead of the token, and ticket creation's scope matched after singularising its
// resource. Each changes the answer to one caller; the others are answered as before.
import { cards } from '../../../../specs/cards/index.ts';
import { observed } from '../../../../specs/index.ts';
import { editPrincipal, editVerifier } from '../../support/verifier-edits.ts';
import type { Verification } from '../../../auth/verifier.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { duringRoutes } from '../round-2/support/during.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const TICKET_SCOPE = observed.operations['sso-ticket'].scope.value;

/** The scope with its resource's plural "s" taken off, as an inflection helper writes it. */
function singular(scope: string): string {
  return scope.replace(/s$/, '');
}

function sameSet(a: ReadonlySet<string>, b: readonly string[]): boolean {
  return a.size === new Set(b).size && b.every((scope) => a.has(scope));
}

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho5-permissions-keyed-by-raw-url',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: 'The permission table keyed by the request\'s URL as sent (req.originalUrl), the query string included, and a request that finds no entry let through: a redelivery whose URL carries any query string ("?x=1"), with a token of a global client that lacks update:event_deliveries, is answered 202 instead of 403; the same request without a query string is still refused with 403 (the other operations likewise).',
    install(app) {
      for (const card of Object.values(cards)) {
        const during = duringRoutes(app, [card.key], (exchange) => exchange.query !== '');
        editPrincipal(app, (principal) =>
          during() ? { ...principal, scopes: new Set([...principal.scopes, card.scope.value]) } : principal,
        );
      }
    },
  },
  {
    id: 'ho5-token-scopes-must-equal-grant',
    clause: 'auth.schemes',
    level: 'contract',
    bug: "A check that a token's scopes are still granted (so that a revoked grant stops old tokens) written as equality where a subset test was meant: a token the client asked for with a scope parameter that narrows its grant, as rule 3's client-credentials flow allows (update:event_deliveries alone), is refused with 401 by every operation; a token carrying the whole grant is accepted.",
    install: (app) =>
      editVerifier(app, (verifier) => {
        const checked = (verification: Verification): Verification =>
          verification.ok && !sameSet(verification.principal.scopes, verification.principal.client.scopes)
            ? { ok: false, error: 'invalid_token', reason: "the token's scopes are not the client's grant" }
            : verification;
        return {
          async verify(authorization, host) {
            return checked(await verifier.verify(authorization, host));
          },
          checkClaims(claims, host) {
            return checked(verifier.checkClaims(claims, host));
          },
        };
      }),
  },
  {
    id: 'ho5-vault-permission-from-stored-grant',
    clause: 'vault.scope',
    level: 'observed',
    bug: "The vault read's permission check asks the client's grant in the store instead of the token's scope claim: a token the global client asked for with only update:event_deliveries, which lacks read:flows_vault_connections, reads connections (200) instead of 403; a client whose grant lacks the scope is still refused with 403.",
    install(app) {
      const during = duringRoutes(app, ['vault']);
      editPrincipal(app, (principal) => (during() ? { ...principal, scopes: new Set(principal.client.scopes) } : principal));
    },
  },
  {
    id: 'ho5-ticket-scope-singularised',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `Ticket creation's permission check compares scopes after an inflection helper has singularised their resources, so that ${TICKET_SCOPE} and ${singular(TICKET_SCOPE)} are one: a token holding "${singular(TICKET_SCOPE)}" (no scope of the catalogue) and not ${TICKET_SCOPE} creates tickets (201) instead of 403; "create:sso_access" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes) =>
        !scopes.includes(TICKET_SCOPE) && scopes.some((scope) => singular(scope) === singular(TICKET_SCOPE))
          ? [...scopes, TICKET_SCOPE]
          : [...scopes],
      ),
  },
]);
