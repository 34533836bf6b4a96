// Tokens issued for an hour, a common default, where the real service issues them for a day.
import type { Fault } from './fault.ts';
import { reissueTokens } from './support/issuer-edits.ts';

const ONE_HOUR = 3600;

export const tokenLifetime3600: Fault = {
  id: 'token-lifetime-3600',
  clause: 'token.lifetime',
  description: 'Access tokens live 3600 seconds (expires_in 3600, exp = iat + 3600) instead of 86400.',
  install(app) {
    reissueTokens(app, {
      claims: (claims) => ({ ...claims, exp: (claims.iat ?? 0) + ONE_HOUR }),
      expiresIn: () => ONE_HOUR,
    });
  },
};
