// One fault per typed field of the ticket request (the contract's SsoTicketRequest): a validator
// that forgets that field's type, so a value of another JSON type is accepted there. Every other
// rule of the field (its range, its nested fields) still holds for values of the right type. The
// fields and their clauses (sso-ticket.body.<field>.type) come from specs/, so a field added there
// adds a fault here.
import { clause, schema, type JsonObject } from '../../specs/index.ts';
import { faultFamily, type FaultRow } from './fault.ts';
import { editBodySchema, fieldNode } from './support/check-edits.ts';

/** Dotted paths of the typed fields, array items walked through: "enabled_organizations.organization_id". */
function typedFields(node: JsonObject, prefix: string): string[] {
  const properties = (node.properties as Record<string, JsonObject> | undefined) ?? {};
  return Object.entries(properties).flatMap(([name, child]) => {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    const inner = child.items !== undefined && typeof child.items === 'object' ? (child.items as JsonObject) : child;
    return [...(child.type !== undefined ? [path] : []), ...typedFields(inner, path)];
  });
}

function rowFor(field: string): FaultRow {
  const clauseId = `sso-ticket.body.${field}.type`;
  clause(clauseId); // Throws for a field the registry has no type clause for.
  const type = fieldNode(schema('SsoTicketRequest', 'contract'), field).type;
  return {
    id: `ticket-ignores-${field.replace(/[._]/g, '-')}-type`,
    clause: clauseId,
    bug: `A validator that forgets the type of ${field} (${JSON.stringify(type)}): ticket creation accepts a value of another JSON type there.`,
    install(app) {
      editBodySchema(app, 'sso-ticket', (body) => {
        delete fieldNode(body, field).type;
      });
    },
  };
}

export const ticketIgnoresFieldTypeFaults = faultFamily(typedFields(schema('SsoTicketRequest', 'contract'), '').map(rowFor));
