// The observed rules of the ticket request (openapi.yaml x-observed, clause
// sso-ticket.body.nested-rules) that a body can break while still passing the contract. Each
// reads after "a body with"; ticketRequestBodyBreakingObservedRule(rule) makes such bodies.
// connection_config has no unknown-property rule: the real service knows more fields there than
// the spec or the observed facts name.

export const ticketObservedRules = [
  'an unknown top-level property',
  'an unknown property in an enabled_organizations item',
  'an unknown property in domain_aliases_config',
  'an unknown property in provisioning_config',
  'an unknown property in enabled_features',
  'an enabled_organizations item without organization_id',
  'an organization_id over the maximum length',
  'empty provisioning_config.scopes',
  'a provisioning_config scope outside the allowed values',
  'a provisioning_config.token_lifetime under the minimum',
  'domain_aliases_config without domain_verification',
  'a domain_verification outside the allowed values',
  'a pending domain of a wrong length',
  'connection_config without a name',
  'a malformed connection_config name',
] as const;

export type TicketObservedRule = (typeof ticketObservedRules)[number];
