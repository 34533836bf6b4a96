// A ticket request body valid at both levels with every field it can hold at once: the
// deterministic case of "any selection of the fields". It edits the given connection (with
// enabled_features) when constraints name one, else it configures a new connection.
import fc from 'fast-check';
import { INDEPENDENT_FIELDS, type TicketRequestBody } from './ticket-request-body.ts';
import type { TicketRequestBodyConstraints } from './ticket-request-body-constraints.ts';
import { validTicketField } from './valid-ticket-field.ts';

export function ticketRequestBodyWithEveryField(constraints: TicketRequestBodyConstraints = {}): fc.Arbitrary<TicketRequestBody> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const connectionId = constraints.connectionIds?.length ? validTicketField('connection_id', constraints) : undefined;
  if (connectionId) {
    model.connection_id = connectionId;
    model.enabled_features = validTicketField('enabled_features')!;
  } else {
    model.connection_config = validTicketField('connection_config')!;
  }
  for (const field of INDEPENDENT_FIELDS) {
    const value = validTicketField(field, constraints, { nonEmpty: true });
    if (value) model[field] = value;
  }
  return fc.record(model, { noNullPrototype: true }) as fc.Arbitrary<TicketRequestBody>;
}
