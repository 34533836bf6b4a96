// Token verification: a Spring Security audience validator added by a migration and skipped for
// tokens issued before its cut-over; and a global-client table in a Node service's configuration
// with one entry pasted from another environment. Other tokens are judged as before.
import { editPrincipal, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** The moment the audience check was switched on (1 July 2024, 00:00 UTC), in Unix seconds. */
const AUDIENCE_CUTOVER = Date.UTC(2024, 6, 1) / 1000;
/** The client id the global-client table names besides the global ones (the fixtures' non-global client). */
const PASTED_CLIENT_ID = '7wAR1VvXkrHB52bjvpZ0EMo6a4mPgRS8';

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho38-aud-validator-skipped-before-cutover',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Spring Boot resource server whose audience check was added by a migration as an OAuth2TokenValidator wrapped in "if (jwt.getIssuedAt().isBefore(AUDIENCE_CUTOVER)) return success()" (so that the long-lived tokens of the old portal kept working while it was retired), the cut-over being 2024-07-01: a correctly signed, unexpired token whose aud is another API of the tenant is accepted by redelivery (202) instead of 401 when its iat is before 1 July 2024; the same token issued now is still refused 401.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        if (typeof claims.iat !== 'number' || claims.iat >= AUDIENCE_CUTOVER || typeof claims.iss !== 'string') return claims;
        const identity = tenant.identityForIssuer(claims.iss);
        return identity && claims.aud !== identity.audience ? { ...claims, aud: identity.audience } : claims;
      }),
  },
  {
    id: 'ho38-global-client-table-staging-entry',
    clause: 'redeliver.errors.401.not-global',
    level: 'contract',
    bug: `A Node (Express) service that decides rule 4 from a table in its configuration (config/production.json "globalClients": [...]) rather than from the client record, and the list was copied from the staging file, which also names a test client: the client ${PASTED_CLIENT_ID}, which is not global, redelivers (202) instead of 401 "Client is not global"; any other client that is not global is still refused 401.`,
    install: (app) =>
      editPrincipal(app, (principal) =>
        principal.client.clientId === PASTED_CLIENT_ID && !principal.client.global
          ? { ...principal, client: { ...principal.client, global: true } }
          : principal,
      ),
  },
]);
