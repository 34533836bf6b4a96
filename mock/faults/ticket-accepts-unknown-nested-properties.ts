// A validator that refuses unknown properties at the top of the ticket request but not inside its
// nested objects (enabled_organizations items, domain_aliases_config, provisioning_config,
// enabled_features), where the real service refuses them too.
import type { JsonObject } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import { editBodySchema } from './support/check-edits.ts';

function allowUnknownBelow(node: JsonObject): void {
  for (const child of Object.values((node.properties as Record<string, JsonObject> | undefined) ?? {})) {
    const target = child.items !== undefined && typeof child.items === 'object' ? (child.items as JsonObject) : child;
    delete target.additionalProperties;
    allowUnknownBelow(target);
  }
}

export const ticketAcceptsUnknownNestedProperties: Fault = {
  id: 'ticket-accepts-unknown-nested-properties',
  clause: 'sso-ticket.body.nested-rules',
  description: 'Ticket creation accepts unknown properties inside the nested request objects (still refused at the top level).',
  install(app) {
    editBodySchema(app, 'sso-ticket', allowUnknownBelow);
  },
};
