// The 401 matrix for near misses: every operation against every almost-right credential of
// near-miss-credentials.ts, with the clauses of the 401 matrix (bearer.test.ts). One request per
// operation and credential, read by each clause it bears on.
import { operationKeys } from '../../specs/index.ts';
import { withBadCredential } from './credentials.ts';
import { nearMissCredentials } from './near-miss-credentials.ts';
import { refusedAsUnauthenticated } from './unauthenticated.ts';

for (const bad of nearMissCredentials) {
  for (const op of operationKeys) refusedAsUnauthenticated(op, bad.name, withBadCredential(op, bad), bad.signature);
}
