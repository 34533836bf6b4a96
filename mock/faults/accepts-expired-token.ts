// A verifier that never compares exp with the clock: a correctly signed token is accepted long
// after it expired. Every other check still runs.
import type { Fault } from './fault.ts';
import { forgiveClaim } from './support/verifier-edits.ts';

export const acceptsExpiredToken: Fault = {
  id: 'accepts-expired-token',
  clause: 'redeliver.errors.401.invalid-token',
  description: 'The token verifier ignores exp, so an expired but correctly signed token is accepted by every operation.',
  install(app) {
    forgiveClaim(app, (claims) => ({ ...claims, exp: Number.MAX_SAFE_INTEGER }));
  },
};
