// A validator that reads "enabled_features applies only when connection_id is given" backwards and
// requires enabled_features on every edit-connection ticket: a request with connection_id alone,
// which the spec allows, is refused.
import type { Fault } from './fault.ts';
import { editBodySchema } from './support/check-edits.ts';

export const ticketRequiresEnabledFeaturesWithConnectionId: Fault = {
  id: 'ticket-requires-enabled-features-with-connection-id',
  clause: 'sso-ticket.body.optional',
  description: 'Ticket creation refuses a body with connection_id but without enabled_features with 400, though every field is optional.',
  install(app) {
    editBodySchema(app, 'sso-ticket', (body) => {
      body.dependentRequired = { connection_id: ['enabled_features'] };
    });
  },
};
