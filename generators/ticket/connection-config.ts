// A valid connection_config: the observed rules require a name and say nothing else about it.
import fc from 'fast-check';
import { connectionName } from './connection-name.ts';

export interface ConnectionConfig {
  name: string;
}

export function connectionConfig(): fc.Arbitrary<ConnectionConfig> {
  return fc.record({ name: connectionName() }, { noNullPrototype: true });
}
