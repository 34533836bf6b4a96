// A valid ticket request body around the given ttl_sec values: ticketRequestBodyWithTtlSec(
// ttlSecAboveMaximum()) is a body whose only flaw is its ttl_sec.
import type fc from 'fast-check';
import type { JsonObject } from '../../specs/index.ts';
import { ticketRequestBodyWithFieldValue } from './ticket-request-body-with-field-value.ts';
import type { TicketRequestBodyConstraints } from './ticket-request-body-constraints.ts';

export function ticketRequestBodyWithTtlSec(
  ttlSec: fc.Arbitrary<unknown>,
  constraints: TicketRequestBodyConstraints = {},
): fc.Arbitrary<JsonObject> {
  return ticketRequestBodyWithFieldValue('ttl_sec', ttlSec, constraints);
}
