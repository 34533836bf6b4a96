// Every deliberate fault the mock knows, family by family. Each family file is a table of faults
// that break the same thing (see fault.ts and README.md); adding a fault is a row in its family,
// adding a family is a file listed here once. Each fault breaks one clause of specs/clauses.yaml.
import { clientAssertionFaults } from './client-assertion.ts';
import { clientCredentialFaults } from './client-credentials.ts';
import { errorBodyFaults } from './error-bodies.ts';
import type { Fault, FaultFamily } from './fault.ts';
import { operationAnswerFaults } from './operation-answers.ts';
import { overlappingRequestFaults } from './overlapping-requests.ts';
import { partsTogetherFaults } from './parts-together.ts';
import { pathIdLengthFaults } from './path-id-lengths.ts';
import { rateLimitFaults } from './rate-limit.ts';
import { redeliveryFaults } from './redelivery.ts';
import { resourceLookupFaults } from './resource-lookups.ts';
import { routeAuthenticationFaults } from './route-authentication.ts';
import { scopeAndClientFaults } from './scopes-and-clients.ts';
import { textEquivalentFaults } from './text-equivalents.ts';
import { ticketBoundFaults } from './ticket-bounds.ts';
import { ticketCreationFaults } from './ticket-creation.ts';
import { ticketIgnoresFieldTypeFaults } from './ticket-ignores-field-type.ts';
import { valueWrapperFaults } from './value-wrappers.ts';
import { tokenClaimLeniencyFaults } from './token-claim-leniency.ts';
import { tokenIssuingFaults } from './token-issuing.ts';
import { tokenVerificationFaults } from './token-verification.ts';
import { vaultReadFaults } from './vault-read.ts';
import { vaultRecordFaults } from './vault-record.ts';

export const faultFamilies: readonly FaultFamily[] = [
  // Every operation's answer and path limits, made from its card (spec 4, 8)
  operationAnswerFaults,
  // Redelivery and the length of path ids (spec 4.1, 4.3, 7, 8)
  redeliveryFaults,
  pathIdLengthFaults,
  resourceLookupFaults,
  // Tokens, credentials, scopes and clients (spec 5, 6, 7)
  tokenVerificationFaults,
  tokenClaimLeniencyFaults,
  routeAuthenticationFaults,
  tokenIssuingFaults,
  clientCredentialFaults,
  clientAssertionFaults,
  scopeAndClientFaults,
  // The shared text equivalents, each folded on an exactly compared value (spec 5, 7)
  textEquivalentFaults,
  // The shared value wrappers, each unwrapped from a JSON-typed value (spec 4.2, 5, 7)
  valueWrapperFaults,
  // Requests that overlap: one request's state reached by another (spec 4.3, 7)
  overlappingRequestFaults,
  // Two parts of a request together; the leftovers of a table or a migration (spec 4, 5, 7, 8)
  partsTogetherFaults,
  // Rate limit and error bodies (spec 7, 8, observed)
  rateLimitFaults,
  errorBodyFaults,
  // SSO ticket (spec 2.2, 4.2, 8)
  ticketCreationFaults,
  ticketBoundFaults,
  ticketIgnoresFieldTypeFaults,
  // Flows vault connection (spec 2.1, 4.3, 9)
  vaultReadFaults,
  vaultRecordFaults,
];

export const faultCatalogue: readonly Fault[] = faultFamilies.flat();

export const faultIds: readonly string[] = faultCatalogue.map((fault) => fault.id);
