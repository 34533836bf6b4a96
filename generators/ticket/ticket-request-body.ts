// A ticket request body valid at both levels: any selection of the fields, each well-formed.
// connection_id (with enabled_features, which applies only to it) and connection_config (which
// creates a connection instead) do not come together: what a service does with both is not known.
import fc from 'fast-check';
import type { ConnectionConfig } from './connection-config.ts';
import type { DomainAliasesConfig } from './domain-aliases-config.ts';
import type { EnabledFeatures } from './enabled-features.ts';
import type { EnabledOrganization } from './enabled-organization.ts';
import type { ProvisioningConfig } from './provisioning-config.ts';
import type { TicketRequestBodyConstraints } from './ticket-request-body-constraints.ts';
import { validTicketField } from './valid-ticket-field.ts';

export interface TicketRequestBody {
  connection_id?: string;
  connection_config?: ConnectionConfig;
  enabled_clients?: string[];
  enabled_organizations?: EnabledOrganization[];
  ttl_sec?: number;
  domain_aliases_config?: DomainAliasesConfig;
  provisioning_config?: ProvisioningConfig;
  use_for_organization_discovery?: boolean;
  enabled_features?: EnabledFeatures;
  third_party_client_access_config?: { allow_configuration: boolean };
}

/** The fields that come with any other. */
export const INDEPENDENT_FIELDS = [
  'enabled_clients',
  'enabled_organizations',
  'ttl_sec',
  'domain_aliases_config',
  'provisioning_config',
  'use_for_organization_discovery',
  'third_party_client_access_config',
] as const;

export function ticketRequestBody(constraints: TicketRequestBodyConstraints = {}): fc.Arbitrary<TicketRequestBody> {
  return fc.tuple(connectionPart(constraints), independentPart(constraints)).map(merged);
}

function connectionPart(constraints: TicketRequestBodyConstraints): fc.Arbitrary<TicketRequestBody> {
  const choices: fc.Arbitrary<TicketRequestBody>[] = [
    fc.constant({}),
    fc.record({ connection_config: validTicketField('connection_config')! }, { noNullPrototype: true }) as fc.Arbitrary<TicketRequestBody>,
  ];
  const connectionId = validTicketField('connection_id', constraints);
  if (connectionId) {
    const editing = fc.record(
      { connection_id: connectionId, enabled_features: validTicketField('enabled_features')! },
      { requiredKeys: ['connection_id'], noNullPrototype: true },
    );
    choices.push(editing as fc.Arbitrary<TicketRequestBody>);
  }
  return fc.oneof(...choices);
}

function independentPart(constraints: TicketRequestBodyConstraints): fc.Arbitrary<TicketRequestBody> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of INDEPENDENT_FIELDS) {
    const value = validTicketField(field, constraints);
    if (value) model[field] = value;
  }
  return fc.record(model, { requiredKeys: [], noNullPrototype: true });
}

function merged([connection, independent]: [TicketRequestBody, TicketRequestBody]): TicketRequestBody {
  return { ...connection, ...independent };
}
