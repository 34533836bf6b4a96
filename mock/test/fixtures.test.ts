// Loading the fixtures: the default file, and clear refusals naming the file and the field.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { fixtureTable, servedRecordLists, type FixtureEntry, type FixtureName } from '../../specs/cards/fixtures.ts';
import { cards, roleNames, scopesOfRole } from '../../specs/cards/index.ts';
import { validator } from '../../specs/index.ts';
import { MockConfigError } from '../config-error.ts';
import { defaultFixturesPath, loadFixtures, type FixturesObject } from '../fixtures.ts';
import { Store } from '../store.ts';
import { fixtureIds } from './support/paths.ts';

const otherTenantPath = join(defaultFixturesPath, '..', 'other-tenant.yaml');

const defaults = () => loadFixtures().data;

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function writeFixtures(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mock-fixtures-'));
  made.push(dir);
  const path = join(dir, 'fixtures.yaml');
  writeFileSync(path, content);
  return path;
}

function refusal(source: string | FixturesObject): string {
  try {
    loadFixtures(source);
  } catch (error) {
    expect(error).toBeInstanceOf(MockConfigError);
    return (error as Error).message;
  }
  throw new Error('the fixtures were accepted');
}

describe('the default fixtures', () => {
  test('load from mock/fixtures/default.yaml', () => {
    const loaded = loadFixtures();
    expect(loaded.source).toBe(defaultFixturesPath);
    expect(loaded.data.tenant.domain).toBe('tenant.example.com');
  });

  test("hold the five clients the suite's target file names", () => {
    expect(defaults().clients.map((c) => c.name)).toEqual(
      expect.arrayContaining(['global', 'without-redeliver-scope', 'without-sso-ticket-scope', 'without-vault-scope', 'non-global']),
    );
  });

  test('hold three vault connections, each valid against FlowsVaultConnection at both levels', () => {
    const records = defaults().vault_connections ?? [];
    expect(records.map((r) => r.id)).toEqual([fixtureIds.vaultFull, fixtureIds.vaultMinimal, fixtureIds.vaultLongest]);
    for (const record of records) {
      expect(validator('FlowsVaultConnection', 'contract')(record)).toBe(true);
      expect(validator('FlowsVaultConnection', 'observed')(record)).toBe(true);
    }
  });

  test('build a store with events in failed, delivered and pending states', () => {
    const store = new Store(defaults());
    expect(store.event(fixtureIds.stream, fixtureIds.failedEvent)?.status).toBe('failed');
    expect(store.event(fixtureIds.stream, fixtureIds.deliveredEvent)?.status).toBe('delivered');
    expect(store.event(fixtureIds.stream, fixtureIds.pendingEvent)?.status).toBe('pending');
  });

  test('an event of another stream is not found under this one', () => {
    const store = new Store(defaults());
    expect(store.event(fixtureIds.stream, fixtureIds.otherStreamEvent)).toBeUndefined();
    expect(store.event(fixtureIds.otherStream, fixtureIds.otherStreamEvent)).toBeDefined();
  });
});

describe('refused fixtures', () => {
  test('a file that does not exist names the file', () => {
    expect(refusal('/no/such/fixtures.yaml')).toBe('fixtures file /no/such/fixtures.yaml cannot be read (ENOENT)');
  });

  test('a file that is not YAML names the file', () => {
    const path = writeFixtures('tenant: [unclosed');
    expect(refusal(path)).toMatch(new RegExp(`^fixtures file ${path} is not valid YAML: `));
  });

  test('a vault connection breaking the contract schema names the file and the field', () => {
    const data = defaults();
    data.vault_connections![1]!.app_id = 'A'.repeat(56);
    const path = writeFixtures(stringify(data));
    expect(refusal(path)).toBe(`fixtures file ${path}: vault_connections[1].app_id must NOT have more than 55 characters`);
  });

  test('a vault connection lacking a required field names it', () => {
    const data = defaults();
    delete (data.vault_connections![0] as Partial<(typeof data.vault_connections & object)[0]>).fingerprint;
    expect(refusal(data)).toBe('fixtures object: vault_connections[0] lacks the required field fingerprint');
  });

  test('an unknown field is refused', () => {
    expect(refusal({ ...defaults(), tenants: [] })).toBe('fixtures object: the top level has an unknown field tenants');
  });

  test('an event status outside the known states is refused', () => {
    const data = defaults();
    (data.event_streams![0]!.events[0] as { status: string }).status = 'faild';
    expect(refusal(data)).toBe('fixtures object: event_streams[0].events[0].status must be one of "failed", "delivered", "pending"');
  });

  test('a stream id of the wrong shape is refused', () => {
    const data = defaults();
    data.event_streams![0]!.id = 'est_short';
    expect(refusal(data)).toMatch(/^fixtures object: event_streams\[0\]\.id must NOT have fewer than 26 characters/);
  });

  test('a repeated client id is refused', () => {
    const data = defaults();
    data.clients[1]!.client_id = data.clients[0]!.client_id;
    expect(refusal(data)).toBe(`fixtures object: clients[1].client_id repeats the client_id "${data.clients[0]!.client_id}"`);
  });

  test('a scope outside the catalogue is refused', () => {
    const data = defaults();
    data.clients[0]!.scopes = ['read:flows_vault_connections', 'read:everything'];
    expect(refusal(data)).toBe('fixtures object: clients[0].scopes[1] "read:everything" is not a scope of the catalogue (spec section 5)');
  });

  test('a zero refill rate is refused', () => {
    const data = { ...defaults(), rate_limit: { bucket_size: 10, refill_per_second: 0 } };
    expect(refusal(data)).toMatch(/^fixtures object: rate_limit /);
  });

  test('a grant of an API the tenant does not have is refused', () => {
    const data = defaults();
    data.clients[0]!.grants = [{ audience: 'https://unknown-api.example.com/', scopes: [] }];
    expect(refusal(data)).toBe(
      'fixtures object: clients[0].grants[0].audience "https://unknown-api.example.com/" is not an identifier of apis',
    );
  });

  test('a grant of a scope the API does not define is refused', () => {
    const data = defaults();
    data.clients[0]!.grants = [{ audience: 'https://reports-api.example.com/', scopes: ['delete:reports'] }];
    expect(refusal(data)).toBe(
      'fixtures object: clients[0].grants[0].scopes[0] "delete:reports" is not a scope of https://reports-api.example.com/',
    );
  });

  test('a client with neither a secret nor a public key is refused', () => {
    const data = defaults();
    delete data.clients[0]!.client_secret;
    expect(refusal(data)).toBe('fixtures object: clients[0] needs a client_secret or a public_key');
  });

  test('a public key that is not one is refused', () => {
    const data = defaults();
    data.clients[0]!.public_key = '-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----';
    expect(refusal(data)).toBe('fixtures object: clients[0].public_key is not a public key (PEM or JWK)');
  });

  test.for(['free', 'production', 'unlimited'])('the rate-limit profile %s is accepted', (profile) => {
    expect(() => loadFixtures({ ...defaults(), rate_limit: profile as 'free' })).not.toThrow();
  });

  test('the other tenant loads, with another domain and other clients', () => {
    const other = loadFixtures(otherTenantPath).data;
    expect(other.tenant.domain).not.toBe(defaults().tenant.domain);
    const ids = new Set(defaults().clients.map((c) => c.client_id));
    expect(other.clients.filter((c) => ids.has(c.client_id))).toEqual([]);
  });
});

describe('the roles of the default fixtures', () => {
  const targetFile = parse(readFileSync(new URL('../../targets/mock.yaml', import.meta.url), 'utf8')) as {
    roles: Record<string, { client_id: string; client_secret: string; name?: string }>;
    fixtures: Record<string, Array<Record<string, unknown> & { unset?: string[] }> | undefined>;
  };

  test('every role of the suite is a client of the fixtures, and targets/mock.yaml names that client (and its name, where stated)', () => {
    const clients = defaults().clients;
    for (const role of roleNames) {
      const client = clients.find((c) => c.role === role);
      expect(client, `no fixture client has the role ${role}`).toBeDefined();
      const { name, ...credentials } = targetFile.roles[role] ?? { client_id: '', client_secret: '' };
      expect(credentials, `targets/mock.yaml names no client for ${role}`).toEqual({
        client_id: client!.client_id,
        client_secret: client!.client_secret,
      });
      if (name !== undefined) expect(name, `targets/mock.yaml's name of ${role}`).toBe(client!.name);
    }
  });

  test.for(servedRecordLists())(
    'targets/mock.yaml states each record of $mock as the fixtures hold it, its unset optional fields listed',
    ({ fixture, mock }) => {
      const entry = fixtureTable[fixture] as FixtureEntry;
      const served = defaults()[mock] as Array<{ id: string }>;
      const stated = (targetFile.fixtures[entry.field] ?? []).map(({ unset, ...fields }) => {
        expect(Object.keys(fields).filter((field) => unset?.includes(field) ?? false)).toEqual([]);
        return fields;
      });
      expect(stated).toEqual(served);
      const list = fixtureTable[entry.records!.of as FixtureName] as FixtureEntry;
      expect(targetFile.fixtures[list.field]).toEqual(served.map((record) => record.id));
    },
  );

  test("a client with a role holds the role's scopes, made from the operation cards", () => {
    const store = new Store(defaults());
    for (const role of roleNames) {
      const client = store.client(defaults().clients.find((c) => c.role === role)!.client_id)!;
      expect(client.scopes).toEqual(expect.arrayContaining(scopesOfRole(role)));
    }
    const withoutRedeliver = store.client(defaults().clients.find((c) => c.role === 'without_redeliver_scope')!.client_id)!;
    expect(withoutRedeliver.scopes).not.toContain(cards.redeliver.scope.value);
  });
});
