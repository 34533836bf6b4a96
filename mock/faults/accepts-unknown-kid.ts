// A verifier whose "find the key for this kid" step falls through when there is none, and then
// skips the verification it had no key for: any RS256 token with an unknown kid is accepted.
import { observed } from '../../specs/index.ts';
import { decodeJws } from '../auth/bearer.ts';
import type { Fault } from './fault.ts';
import { alsoAccept } from './support/verifier-edits.ts';

export const acceptsUnknownKid: Fault = {
  id: 'accepts-unknown-kid',
  clause: 'redeliver.errors.401.signature',
  description: 'The token verifier does not verify a token whose kid names no published key, so a token signed with any key under an unknown kid is accepted by every operation.',
  install(app) {
    alsoAccept(app, async (token, { keys }) => {
      const decoded = decodeJws(token);
      const kid = decoded?.header.kid;
      const unknownKid = typeof kid === 'string' && keys.publicKeyFor(kid) === undefined;
      return decoded && decoded.header.alg === observed.tokens.alg && unknownKid ? decoded.payload : undefined;
    });
  },
};
