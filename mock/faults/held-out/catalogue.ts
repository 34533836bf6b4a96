// The held-out catalogue: faults written apart from the gate's catalogue (mock/faults/catalogue.ts)
// to measure the suite the way an outside reviewer would. They are never installed by the gate,
// by --fault or by the faults option; bench/held-out-faults.ts installs them through the mock's
// customize hook. The families are interleaved, one fault of each in turn, so that a run cut short
// or a reader skimming the list meets every kind early and no kind comes in one block.
import { errorAnswerFaults } from './error-answers.ts';
import type { HeldOutFault } from './held-out-fault.ts';
import { interleaved } from './support/interleaved.ts';
import { idAndStateFaults } from './ids-and-state.ts';
import { rateLimitHeaderFaults } from './rate-limit-headers.ts';
import { requestFaults } from './requests.ts';
import { scopeFaults } from './scopes.ts';
import { successAnswerFaults } from './success-answers.ts';
import { ticketBodyFaults } from './ticket-body.ts';
import { tokenClaimFaults } from './token-claims.ts';
import { tokenEndpointFaults } from './token-endpoint.ts';
import { tokenHeaderFaults } from './token-header.ts';

export const heldOutFamilies: ReadonlyArray<readonly HeldOutFault[]> = [
  tokenHeaderFaults,
  ticketBodyFaults,
  tokenClaimFaults,
  requestFaults,
  scopeFaults,
  idAndStateFaults,
  tokenEndpointFaults,
  rateLimitHeaderFaults,
  errorAnswerFaults,
  successAnswerFaults,
];

export const heldOutFaults: readonly HeldOutFault[] = interleaved(heldOutFamilies);
