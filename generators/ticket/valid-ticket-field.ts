// A valid value of one top-level field of the ticket request, at both levels. `nonEmpty` asks for
// arrays with an item, for placing a value inside one; undefined means the constraints leave the
// field out (an empty list of ids).
import fc from 'fast-check';
import { connectionId } from '../identifiers/connection-id.ts';
import { ttlSecWithinRange } from '../ttl-sec/ttl-sec-within-range.ts';
import { connectionConfig } from './connection-config.ts';
import { domainAliasesConfig } from './domain-aliases-config.ts';
import { enabledClients } from './enabled-clients.ts';
import { enabledFeatures } from './enabled-features.ts';
import { enabledOrganizations } from './enabled-organizations.ts';
import { idFrom } from './id-from.ts';
import { provisioningConfig } from './provisioning-config.ts';
import type { TicketRequestBodyConstraints } from './ticket-request-body-constraints.ts';

export interface ValidTicketFieldOptions {
  nonEmpty?: boolean;
}

export function validTicketField(
  field: string,
  constraints: TicketRequestBodyConstraints = {},
  options: ValidTicketFieldOptions = {},
): fc.Arbitrary<unknown> | undefined {
  const minLength = options.nonEmpty ? 1 : 0;
  switch (field) {
    case 'connection_id':
      return idFrom(constraints.connectionIds, connectionId);
    case 'connection_config':
      return connectionConfig();
    case 'enabled_clients':
      return constraints.clientIds?.length === 0 ? undefined : enabledClients({ clientIds: constraints.clientIds, minLength });
    case 'enabled_organizations':
      return constraints.organizationIds?.length === 0
        ? undefined
        : enabledOrganizations({ organizationIds: constraints.organizationIds, minLength });
    case 'ttl_sec':
      return ttlSecWithinRange();
    case 'domain_aliases_config':
      return domainAliasesConfig();
    case 'provisioning_config':
      return provisioningConfig();
    case 'use_for_organization_discovery':
      return fc.boolean();
    case 'enabled_features':
      return enabledFeatures();
    case 'third_party_client_access_config':
      return fc.record({ allow_configuration: fc.boolean() }, { noNullPrototype: true });
    default:
      throw new Error(`the ticket request has no field ${field}`);
  }
}
