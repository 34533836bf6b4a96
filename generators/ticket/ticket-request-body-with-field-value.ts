// A ticket request body valid in every respect but one field, which holds the given value. The
// field's parents are valid (a non-empty array when the path goes into an item), and the field
// that cannot come with it (connection_id or connection_config) is left out.
import fc from 'fast-check';
import type { JsonObject } from '../../specs/index.ts';
import { placeValue } from './place-value.ts';
import { ticketRequestBody } from './ticket-request-body.ts';
import type { TicketRequestBodyConstraints } from './ticket-request-body-constraints.ts';
import { parseFieldPath } from './ticket-schema.ts';
import { validTicketField } from './valid-ticket-field.ts';

/** Fields that exclude each other in a body (see ticketRequestBody). */
const EXCLUDED_BY: Record<string, readonly string[]> = {
  connection_id: ['connection_config'],
  connection_config: ['connection_id', 'enabled_features'],
};

interface Parts {
  body: JsonObject;
  parent: unknown;
  value: unknown;
  position: number;
}

export function ticketRequestBodyWithFieldValue(
  field: string,
  value: fc.Arbitrary<unknown>,
  constraints: TicketRequestBodyConstraints = {},
): fc.Arbitrary<JsonObject> {
  const path = parseFieldPath(field);
  const [top, ...inside] = path;
  if (top === undefined) throw new Error('ticketRequestBodyWithFieldValue needs a field');
  let parent: fc.Arbitrary<unknown> = fc.constant(undefined);
  if (inside.length > 0) {
    const valid = validTicketField(top, constraints, { nonEmpty: true });
    if (!valid) throw new RangeError(`the constraints leave no valid ${top} to place ${field} in`);
    parent = valid;
  }
  const parts = fc.record(
    { body: ticketRequestBody(constraints) as fc.Arbitrary<JsonObject>, parent, value, position: fc.nat() },
    { noNullPrototype: true },
  );
  return parts.map(bodyWithValueAt(top, inside));
}

function bodyWithValueAt(top: string, inside: readonly string[]): (parts: Parts) => JsonObject {
  return function bodyWithValue({ body, parent, value, position }) {
    const result: JsonObject = { ...body };
    for (const excluded of EXCLUDED_BY[top] ?? []) delete result[excluded];
    result[top] = inside.length === 0 ? value : placeValue(parent, inside, value, position);
    return result;
  };
}
