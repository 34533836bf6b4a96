// Tokens that still carry a legacy scope name the catalogue does not have (update:event_redeliveries,
// the old name of update:event_deliveries), next to the real ones.
import type { Fault } from './fault.ts';
import { reissueTokens } from './support/issuer-edits.ts';

const LEGACY_SCOPE = 'update:event_redeliveries';

export const tokenCarriesScopeOutsideCatalogue: Fault = {
  id: 'token-carries-scope-outside-catalogue',
  clause: 'scopes.catalogue',
  description: 'Access tokens carry, besides their granted scopes, update:event_redeliveries, which is not in the scope catalogue.',
  install(app) {
    reissueTokens(app, { claims: (claims) => ({ ...claims, scope: `${String(claims.scope ?? '')} ${LEGACY_SCOPE}`.trim() }) });
  },
};
