// The well-formed request of each operation, built from the target's fixtures: the baseline the
// cross-cutting tables vary one thing of (the credential, the rate limit). Plumbing only.
import type { CallInput, TargetSession } from '../harness/session.ts';
import type { OperationKey } from '../specs/index.ts';

export function validRequest(target: TargetSession, key: OperationKey): CallInput {
  switch (key) {
    case 'redeliver':
      return { params: { id: target.fixture('eventStream'), event_id: target.fixture('failedEvent') } };
    case 'sso-ticket':
      return { params: { id: target.fixture('selfServiceProfile') }, body: {} };
    case 'vault':
      return { params: { id: target.fixture('vaultConnections')[0]! } };
  }
}
