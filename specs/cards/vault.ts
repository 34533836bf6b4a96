// GET /flows/vault/connections/{id} (spec 4.3): read one flows vault connection. Its scope, its
// success status and its 404 are the real service's (observed); that the read answers the record
// its path names, and no other, is the spec's.
import { observed } from '../observed.ts';
import { operation } from '../openapi.ts';
import type { OperationCard } from './card.ts';
import { scopeRule } from './scope.ts';

declare module '../openapi.ts' {
  interface OperationKeys {
    vault: true;
  }
}

export const vaultCard = {
  key: 'vault',
  spec: operation('vault'),
  success: { status: observed.operations['vault'].success.status, clause: 'vault.response.record' },
  name: 'the vault read',
  faultPrefix: 'vault',
  scope: scopeRule('vault', { clause: 'vault.scope', statusClauses: ['vault.scope'], otherResource: 'read:flows' }),
  roleWithoutScope: 'without_vault_scope',
  fixtures: ['vaultConnections'],
  writes: false,
  params: {
    id: {
      fixture: 'vaultConnections',
      names: 'connection',
      unknown: [
        { clause: 'vault.response.record', outcome: { kind: 'refuse' } },
        { clause: 'errors.404.vault', outcome: { kind: 'observed-error', error: 'vault_connection_not_found' } },
      ],
    },
  },
  unauthenticated: { clause: 'errors.401.all-operations', signatureClause: 'errors.401.all-operations' },
  answer: {
    statusClause: 'vault.success.status',
    level: 'observed',
    body: {
      schema: 'FlowsVaultConnection',
      contentTypeClause: 'vault.response.content-type',
      fieldClause: (property) => `vault.record.${property}`,
      shapeClause: 'vault.response.shape',
      shape: 'the fields of section 2.1 only, unset ones omitted, millisecond UTC timestamps, 32-hex fingerprint, upper-case app_id',
    },
    echoes: { param: 'id', field: 'id', clause: 'vault.response.record' },
  },
} as const satisfies OperationCard<'vault', 'without_vault_scope'>;
