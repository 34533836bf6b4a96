// A valid connection_config, as the service's API description defines it (observed level): a
// name, and now and then a display name within its bound and the two booleans. metadata and
// options are left out: what they change in the flow is the real service's business.
import fc from 'fast-check';
import { connectionName } from './connection-name.ts';
import { keywordAt } from './ticket-schema.ts';

export interface ConnectionConfig {
  name: string;
  display_name?: string;
  is_domain_connection?: boolean;
  show_as_button?: boolean;
}

export function connectionConfig(): fc.Arbitrary<ConnectionConfig> {
  const longestDisplayName = keywordAt('observed', ['connection_config', 'display_name'], 'maxLength');
  return fc.record(
    {
      name: connectionName(),
      display_name: fc.string({ minLength: 1, maxLength: longestDisplayName }),
      is_domain_connection: fc.boolean(),
      show_as_button: fc.boolean(),
    },
    { requiredKeys: ['name'], noNullPrototype: true },
  );
}
