// An off-by-one in the code that writes the scope claim (a slice that starts at 1): the token
// lists every granted scope but the first, update:event_deliveries for the global client.
// Authorization reads the client's grants, not the claim, so requests still work.
import type { Fault } from './fault.ts';
import { reissueTokens } from './support/issuer-edits.ts';
import { editPrincipal } from './support/verifier-edits.ts';

export const tokenScopeClaimDropsFirstScope: Fault = {
  id: 'token-scope-claim-drops-first-scope',
  clause: 'token.scopes',
  description: 'The token\'s scope claim leaves out the first granted scope (update:event_deliveries for the global client); authorization still uses the client\'s grants.',
  install(app) {
    reissueTokens(app, { claims: (claims) => ({ ...claims, scope: String(claims.scope ?? '').split(' ').slice(1).join(' ') }) });
    editPrincipal(app, (principal) => ({ ...principal, scopes: new Set(principal.client.scopes) }));
  },
};
