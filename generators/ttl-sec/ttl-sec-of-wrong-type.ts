// ttl_sec values of a JSON type other than number: numeric strings ("3600"), other strings,
// booleans, null, arrays and objects. Numbers with a fraction are ttlSecNonInteger().
import type fc from 'fast-check';
import { jsonValueOfWrongType } from '../json/json-value-of-wrong-type.ts';
import { acceptedTypesAt } from '../ticket/ticket-schema.ts';

export function ttlSecOfWrongType(): fc.Arbitrary<unknown> {
  return jsonValueOfWrongType(acceptedTypesAt(['ttl_sec']), { withFractions: false });
}
