// A ticket request body valid in every respect but one field, which holds a value of a JSON type
// the field does not accept at either level (so never null for a field the real service allows
// to be null; numbers with a fraction, within the field's range, for integer fields). `field` is a
// rule's field. The closest wrong type is the one deterministic case of a rule.
import type fc from 'fast-check';
import type { JsonObject } from '../../specs/index.ts';
import { jsonValueOfClosestWrongType } from '../json/json-value-of-closest-wrong-type.ts';
import { typesOfNode } from '../json/json-type.ts';
import { jsonValueOfWrongType } from '../json/json-value-of-wrong-type.ts';
import { ticketBodyTypeRules, type TicketBodyTypeRule } from './ticket-body-type-rules.ts';
import { ticketRequestBodyWithFieldValue } from './ticket-request-body-with-field-value.ts';
import type { TicketRequestBodyConstraints } from './ticket-request-body-constraints.ts';
import { acceptedTypesAt, numericRangeAt, ticketSchemaAt } from './ticket-schema.ts';

export function ticketRequestBodyWithWrongType(field: string, constraints: TicketRequestBodyConstraints = {}): fc.Arbitrary<JsonObject> {
  const rule = typeRuleOf(field);
  const value = jsonValueOfWrongType(acceptedTypesAt(rule.path), { range: numericRangeAt(rule.path) });
  return ticketRequestBodyWithFieldValue(field, value, constraints);
}

/** The same body with the one wrong value a lenient server most likely takes (the deterministic case). */
export function ticketRequestBodyWithClosestWrongType(
  field: string,
  constraints: TicketRequestBodyConstraints = {},
): fc.Arbitrary<JsonObject> {
  const rule = typeRuleOf(field);
  const items = ticketSchemaAt('contract', rule.path).items;
  const itemTypes = items !== undefined && typeof items === 'object' ? typesOfNode(items as JsonObject) : [];
  const value = jsonValueOfClosestWrongType(acceptedTypesAt(rule.path), { range: numericRangeAt(rule.path), itemTypes });
  return ticketRequestBodyWithFieldValue(field, value, constraints);
}

function typeRuleOf(field: string): TicketBodyTypeRule {
  const rule = ticketBodyTypeRules.find(function isRuleOf(candidate) {
    return candidate.field === field;
  });
  if (!rule) {
    const known = ticketBodyTypeRules.map((candidate) => candidate.field).join(', ');
    throw new Error(`no type rule for ${field}; the rules are ${known}`);
  }
  return rule;
}
