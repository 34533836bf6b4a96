// What a verified caller may do: the RBAC "permissions" claim merged into the scopes, the
// global-client rule written as a filter on the scopes (403 for 401), and the scopes picked out of
// the claim by a word pattern; and the observed rules: the vault read's scopes taken from a header
// a gateway adds, ticket creation let through for organization tokens, and the scope
// judged from the unverified claims before the signature. Each grants (or files) its near miss; other
// tokens are judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import type { OperationKey } from '../../../../specs/index.ts';
import { bearerToken } from '../../../auth/bearer.ts';
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { signedPayload } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';
import { readScopesAt } from '../support/scope-claims.ts';
import { unverifiedParts } from '../support/signatures.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const VAULT_SCOPE = cards.vault.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
/** The header an API gateway adds with the scopes of the token it verified. */
const SCOPES_HEADER = 'X-Scopes';
/** action:resource, as a pattern that picks scopes out of any text. */
const SCOPE_WORDS = /\w+:\w+/g;
const OPERATIONS: readonly OperationKey[] = ['redeliver', 'sso-ticket', 'vault'];

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho12-permissions-claim-merged',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `The scopes a token holds read as the union of its scope claim and its "permissions" claim (the RBAC claim some tenants add, which a shared middleware reads for user tokens): a token whose scope lacks ${REDELIVER_SCOPE} but whose permissions list holds it is let redeliver (202) instead of 403; permissions ["read:event_streams"] is still refused 403.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes, claims) => {
        const permissions = Array.isArray(claims.permissions) ? claims.permissions.filter((p): p is string => typeof p === 'string') : [];
        return [...scopes, ...permissions.filter((p) => !scopes.includes(p))];
      }),
  },
  {
    id: 'ho12-not-global-as-scope-filter',
    clause: 'redeliver.errors.401.not-global',
    level: 'contract',
    bug: `The global-client rule written as a filter on the token's scopes (a non-global client's ${REDELIVER_SCOPE} dropped before the scope check): a non-global client's token is refused 403 insufficient_scope instead of 401 "Client is not global"; a global client's token still redelivers (202).`,
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 401 && isErrorBody(reply.body) && reply.body.message === errors().message('client_not_global')
          ? answeredInstead(reply, errors().reply('insufficient_scope', REDELIVER_SCOPE))
          : reply,
      );
    },
  },
  {
    id: 'ho12-scopes-matched-by-word-pattern',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `The held scopes picked out of the scope claim with claim.match(/\\w+:\\w+/g) instead of split on spaces: a token holding "${REDELIVER_SCOPE}-test" (or "${REDELIVER_SCOPE}.readonly") is read as holding ${REDELIVER_SCOPE} and let redeliver (202) instead of 403; a token holding read:event_deliveries is still refused 403.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes, claims) =>
        typeof claims.scope === 'string' ? (claims.scope.match(SCOPE_WORDS) ?? []) : [...scopes],
      ),
  },
  {
    id: 'ho12-vault-scopes-from-gateway-header',
    clause: 'vault.scope',
    level: 'observed',
    bug: `The vault read's permission check reads the scopes from the ${SCOPES_HEADER} header that the API gateway adds after it has verified the token, trusting it whenever it is present, and the gateway does not strip it from what clients send: a valid token without ${VAULT_SCOPE} sent with "${SCOPES_HEADER}: ${VAULT_SCOPE}" reads the connection (200) instead of 403; the same token without the header is still refused 403.`,
    install: (app) => {
      const keys = capture(app, 'keys');
      editRequests(app, 'vault', async (exchange) => {
        const header = exchange.headers[SCOPES_HEADER.toLowerCase()];
        const token = bearerToken(exchange.headers.authorization);
        if (typeof header !== 'string' || token === undefined) return exchange;
        const claims = await signedPayload(token, keys());
        if (!claims) return exchange;
        const resigned = await new SignJWT({ ...claims, scope: header })
          .setProtectedHeader(decodeProtectedHeader(token) as JWTHeaderParameters)
          .sign(keys().privateKey);
        return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${resigned}` } };
      });
    },
  },
  {
    id: 'ho12-ticket-organization-token-bypass',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `Ticket creation's scope check skipped for tokens that carry an org_id claim, taken for an organization administrator's token (which may start its own SSO setup): a token without ${TICKET_SCOPE} but with "org_id": "org_..." gets a ticket (201) instead of 403; the same token without org_id is still refused 403.`,
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes, claims) =>
        typeof claims.org_id === 'string' && !scopes.includes(TICKET_SCOPE) ? [...scopes, TICKET_SCOPE] : [...scopes],
      ),
  },
  {
    id: 'ho12-scope-judged-before-signature',
    clause: 'auth.order',
    level: 'observed',
    bug: "A gateway that reads the scope claim of the token as it decodes (no verification) and refuses a missing scope before the service verifies the token: a token the service refuses 401 (its signature broken, say, or expired) whose claims lack the operation's scope is answered 403 instead of 401; such a token holding the scope is still answered 401.",
    install: (app) => {
      const errors = capture(app, 'errors');
      for (const key of OPERATIONS)
        editReplies(app, [key], (reply, exchange) => {
          if (reply.status !== 401) return reply;
          const token = bearerToken(exchange.headers.authorization);
          const claims = token === undefined ? undefined : unverifiedParts(token)?.claims;
          if (!claims || typeof claims.scope !== 'string') return reply;
          const needed = cards[key].scope.value;
          return claims.scope.split(' ').includes(needed) ? reply : answeredInstead(reply, errors().reply('insufficient_scope', needed));
        });
    },
  },
]);
