// Who may call: a client-id header that an Envoy ext_authz filter adds trusted when it comes from
// the client, DPoP's replay window applied to the bearer token itself (one token twice in a second
// refused), the RBAC dialect's permissions claim read beside scope; and the observed rule: a
// permission tree in which read:flows covers every read:flows_* scope. Each changes the answer to
// its near miss; other requests are answered as before.
import { cards } from '../../../../specs/cards/index.ts';
import { operationKeys } from '../../../../specs/index.ts';
import type { Verification } from '../../../auth/verifier.ts';
import { capture } from '../../support/captured.ts';
import { editRequests } from '../../support/route-edits.ts';
import { editPrincipal, editVerifier } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** The header ext_authz adds for the services behind the mesh once it has checked the token. */
const CLIENT_ID_HEADER = 'x-authenticated-client-id';
/** How long the replay cache remembers a token, as it does a DPoP proof. */
const REPLAY_WINDOW_MS = 1000;
/** The claim of the RBAC dialect (permissions as a list), read beside scope. */
const PERMISSIONS = 'permissions';
const OPERATION_SCOPES = operationKeys.map((key) => cards[key].scope.value);

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho25-client-id-header-trusted',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: `A service behind an Envoy mesh whose ext_authz filter checks the bearer token and adds ${CLIENT_ID_HEADER} for the services, which trust that header when there is no Authorization (the filter is meant to strip a client's own copy, but the route for this service was added without it): a request with no token and "${CLIENT_ID_HEADER}: <the global client's id>" is served as that client (a read answers the record) instead of 401; the header naming no client is still 401.`,
    install: (app) => {
      const store = capture(app, 'store');
      const issuer = capture(app, 'issuer');
      for (const key of operationKeys) {
        editRequests(app, key, async (exchange) => {
          const named = exchange.headers[CLIENT_ID_HEADER];
          if (exchange.headers.authorization !== undefined || typeof named !== 'string') return exchange;
          const client = store().client(named);
          if (!client) return exchange;
          const { accessToken } = await issuer().issue(client, client.scopes);
          return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${accessToken}` } };
        });
      }
    },
  },
  {
    id: 'ho25-bearer-replay-window-dpop',
    clause: 'auth.schemes',
    level: 'contract',
    bug: `DPoP's replay protection (a proof's jti remembered for ${REPLAY_WINDOW_MS} ms, RFC 9449 section 11.1) applied by a Rust middleware to the bearer access token itself, keyed by its hash: a valid token obtained through client credentials and used again within a second of its last use is refused 401 as a replay instead of being accepted, as real clients reuse their token for a day; the same token a second or more later is accepted.`,
    install: (app) =>
      editVerifier(app, (verifier, { clock }) => {
        const lastUse = new Map<string, number>();
        return {
          ...verifier,
          async verify(authorization, host): Promise<Verification> {
            const verification = await verifier.verify(authorization, host);
            if (!verification.ok || authorization === undefined) return verification;
            const now = clock.now();
            const last = lastUse.get(authorization);
            lastUse.set(authorization, now);
            return last !== undefined && now - last < REPLAY_WINDOW_MS
              ? { ok: false, error: 'invalid_token', reason: 'the token was seen within the replay window' }
              : verification;
          },
        };
      }),
  },
  {
    id: 'ho25-permissions-claim-read-beside-scope',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `A permission check written for the RBAC token dialect as well as for scopes (claims.scope split on spaces, plus claims.${PERMISSIONS}, the list that dialect adds): a token signed with the tenant key whose scope lacks update:event_deliveries but whose ${PERMISSIONS} list holds it redelivers (202) instead of 403; ${PERMISSIONS} ["delete:users"] is still refused.`,
    install: (app) =>
      editPrincipal(app, (principal) => {
        const listed = principal.claims[PERMISSIONS];
        if (!Array.isArray(listed)) return principal;
        const extra = listed.filter((value): value is string => typeof value === 'string');
        return extra.length === 0 ? principal : { ...principal, scopes: new Set([...principal.scopes, ...extra]) };
      }),
  },
  {
    id: 'ho25-scope-tree-covers-subresources',
    clause: 'vault.scope',
    level: 'observed',
    bug: 'A permission tree of the Flows product in which a scope covers the scopes of its sub-resources, the resource name read as a path split on "_" (read:flows covers read:flows_vault and read:flows_vault_connections): a token signed with the tenant key holding only "read:flows" reads a vault connection (200) instead of 403; "read:flo" is still refused.',
    install: (app) =>
      editPrincipal(app, (principal) => {
        const covered = OPERATION_SCOPES.filter(
          (needed) => !principal.scopes.has(needed) && [...principal.scopes].some((held) => needed.startsWith(`${held}_`)),
        );
        return covered.length === 0 ? principal : { ...principal, scopes: new Set([...principal.scopes, ...covered]) };
      }),
  },
]);
