// GET /api/v2/flows/vault/connections/{id}: the three fixture records, exactly, and the errors.
import { describe, expect, test } from 'vitest';
import { observed, validator } from '../../specs/index.ts';
import { call, tokenFor } from './support/http.ts';
import { expectError, expectErrorStarting } from './support/expect.ts';
import { sharedMock } from './support/mock.ts';
import { fixtureIds as ids, vaultPath } from './support/paths.ts';

const mock = sharedMock();
const read = async (id: string, client = 'global') => call(mock(), 'GET', vaultPath(id), { token: await tokenFor(mock(), client) });

describe('success', () => {
  test.for([ids.vaultFull, ids.vaultMinimal, ids.vaultLongest])('%s answers 200 with its record, exactly', async (id) => {
    const answer = await read(id);
    expect([answer.status, answer.headers['content-type']]).toEqual([observed.operations.vault.success.status, observed.content_type]);
    expect(answer.json).toEqual(mock().fixtures.data.vault_connections!.find((v) => v.id === id));
    expect(validator('FlowsVaultConnection', 'observed')(answer.json)).toBe(true);
  });

  test('unset optional fields are omitted, never null', async () => {
    const answer = await read(ids.vaultMinimal);
    expect(Object.keys(answer.json as object).sort()).toEqual(['app_id', 'created_at', 'fingerprint', 'id', 'name', 'ready', 'updated_at']);
  });
});

describe('errors', () => {
  test('an unknown id is 404 "Connection not found"', async () => {
    expectError(await read('ac_NbWaizZTo4vfWnCwDq76Vk'), 'vault_connection_not_found');
  });

  test('a 31-character id is 400 invalid_uri naming id', async () => {
    const message = expectErrorStarting(await read(`ac_${'a'.repeat(28)}`), 'invalid_uri');
    expect(message).toBe("Path validation error: 'String is too long (31 chars), maximum 30' on property id");
  });

  test('an id of the wrong shape is 400 invalid_uri', async () => {
    expectErrorStarting(await read('con_NbWaizZTo4vfWnCwDq76Vj'), 'invalid_uri');
  });

  test.for(['%zz', '%', 'ac_NbWaizZTo4vfWnCwDq76V%00', '%E0%A4%A'])('a bad percent-encoding (%s) is 400 invalid_uri', async (id) => {
    expectErrorStarting(await read(id), 'invalid_uri');
  });

  test('a token without read:flows_vault_connections is 403 naming it', async () => {
    expectError(await read(ids.vaultFull, 'without-vault-scope'), 'insufficient_scope', 'read:flows_vault_connections');
  });

  test('a non-global client may read (only redelivery needs a global client)', async () => {
    expect((await read(ids.vaultFull, 'non-global')).status).toBe(200);
  });

  test('a trailing slash is an unknown path: 404', async () => {
    const answer = await call(mock(), 'GET', `${vaultPath(ids.vaultFull)}/`, { token: await tokenFor(mock(), 'global') });
    expectError(answer, 'route_not_found');
  });
});
