// The forty-third round of held-out faults: written, like the earlier ones (../catalogue.ts,
// ../round-2/catalogue.ts ... ../round-41/catalogue.ts), apart from the suite, to measure it the
// way an outside reviewer would. They are never installed by the gate, by --fault or by the faults
// option; a measurement installs them through the mock's customize hook. The families are
// interleaved, one fault of each in turn, so that a run cut short or a reader skimming the list
// meets every kind early and no kind comes in one block.
import type { HeldOutFault } from '../held-out-fault.ts';
import { interleaved } from '../support/interleaved.ts';
import { authorizationFaults } from './authorization.ts';
import { pathIdFaults } from './path-ids.ts';
import { rateLimitFaults } from './rate-limit.ts';
import { stateAndErrorFaults } from './state-and-errors.ts';
import { successAnswerFaults } from './success-answers.ts';
import { ticketBodyFaults } from './ticket-body.ts';
import { tokenEndpointFaults } from './token-endpoint.ts';
import { tokenVerificationFaults } from './token-verification.ts';

export const heldOutRound43Families: ReadonlyArray<readonly HeldOutFault[]> = [
  tokenVerificationFaults,
  ticketBodyFaults,
  authorizationFaults,
  pathIdFaults,
  tokenEndpointFaults,
  successAnswerFaults,
  stateAndErrorFaults,
  rateLimitFaults,
];

export const heldOutRound43Faults: readonly HeldOutFault[] = interleaved(heldOutRound43Families);
