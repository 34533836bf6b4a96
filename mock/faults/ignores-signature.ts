// A verifier that decodes the token and checks its header and claims but never verifies the
// signature bytes: a token with a tampered signature or payload, or one signed with a foreign key
// under the tenant's kid, is accepted. alg none, other algorithms and unknown kids are still refused.
import { observed } from '../../specs/index.ts';
import { decodeJws } from '../auth/bearer.ts';
import type { Fault } from './fault.ts';
import { alsoAccept } from './support/verifier-edits.ts';

export const ignoresSignature: Fault = {
  id: 'ignores-signature',
  clause: 'redeliver.errors.401.signature',
  description: 'The token verifier checks alg RS256, the kid and the claims but not the signature, so a tampered or foreign-signed token is accepted by every operation.',
  install(app) {
    alsoAccept(app, async (token, { keys }) => {
      const decoded = decodeJws(token);
      if (!decoded || decoded.header.alg !== observed.tokens.alg) return undefined;
      const { kid } = decoded.header;
      return kid === undefined || (typeof kid === 'string' && keys.publicKeyFor(kid)) ? decoded.payload : undefined;
    });
  },
};
