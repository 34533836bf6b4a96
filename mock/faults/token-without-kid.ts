// Tokens signed without a kid in their header (a signer configured with the key but not its id).
// The tenant has one key, so they still verify.
import type { Fault } from './fault.ts';
import { reissueTokens } from './support/issuer-edits.ts';

export const tokenWithoutKid: Fault = {
  id: 'token-without-kid',
  clause: 'token.observed.claims',
  description: 'Access tokens have no kid in their JOSE header (they still verify with the tenant\'s one key).',
  install(app) {
    reissueTokens(app, { header: ({ kid: _dropped, ...header }) => header });
  },
};
