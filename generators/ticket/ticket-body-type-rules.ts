// The type rules of the ticket request at the contract level, one per typed node of the schema
// (every field, and the items of typed arrays), each with the clause a wrong type breaks. Derived
// from specs/, so a field added to openapi.yaml adds a rule; the suite makes a test per rule.
import type { JsonObject } from '../../specs/index.ts';
import { typesOfNode, type JsonType } from '../json/json-type.ts';
import { ANY_ITEM, formatFieldPath, ticketSchemaAt } from './ticket-schema.ts';

export interface TicketBodyTypeRule {
  /** The field, "enabled_organizations[].organization_id" ("[]" is any item of the array). */
  field: string;
  /** The same, as segments: ["enabled_organizations", "[]", "organization_id"]. */
  path: readonly string[];
  /** The registry clause a value of another type breaks (items share their array's clause). */
  clause: string;
  /** The types the contract gives the field. */
  types: readonly JsonType[];
}

function rulesBelow(node: JsonObject, path: readonly string[]): TicketBodyTypeRule[] {
  const properties = (node.properties as Record<string, JsonObject> | undefined) ?? {};
  return Object.keys(properties).flatMap(function rulesOfProperty(name) {
    return rulesAt([...path, name]);
  });
}

function rulesAt(path: readonly string[]): TicketBodyTypeRule[] {
  const node = ticketSchemaAt('contract', path);
  const types = typesOfNode(node);
  const own = types.length > 0 ? [{ field: formatFieldPath(path), path, clause: clauseOf(path), types }] : [];
  const items = node.items === undefined ? [] : rulesAt([...path, ANY_ITEM]);
  return [...own, ...items, ...rulesBelow(node, path)];
}

function clauseOf(path: readonly string[]): string {
  const named = path.filter(function isName(segment) {
    return segment !== ANY_ITEM;
  });
  return `sso-ticket.body.${named.join('.')}.type`;
}

export const ticketBodyTypeRules: readonly TicketBodyTypeRule[] = rulesBelow(ticketSchemaAt('contract', []), []);
