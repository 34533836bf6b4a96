// Token verification: a Go gateway (Envoy ext_authz in Go) that hands the claims to its policy
// service as a protobuf message whose exp field was declared float, 32 bits, where int64 was meant.
// Other tokens are judged as before.
import { forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho37-exp-protobuf-float32',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Go ext_authz service behind Envoy that copies the verified claims into a protobuf message (message Claims { float exp = 1; ... }, float where int64 was meant) for the policy check, which compares exp with the clock: a float holds 24 bits, so a Unix time near 1.7e9 is rounded to a multiple of 128 seconds: a correctly signed token that expired 60 seconds ago, past the 30 seconds of skew but within 64 seconds of such a multiple that is not past, is accepted instead of refused 401; one that expired 200 seconds ago is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => (typeof claims.exp === 'number' ? { ...claims, exp: Math.fround(claims.exp) } : claims)),
  },
]);
