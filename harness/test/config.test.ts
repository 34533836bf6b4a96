import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT, exportPKCS8, generateKeyPair } from 'jose';
import { parse, stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { roleNames } from '../../specs/cards/index.ts';
import { loadTargetFile } from '../config.ts';
import { ConfigError } from '../errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'target-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mockTarget = parse(readFileSync(new URL('../../targets/mock.yaml', import.meta.url), 'utf8')) as Record<string, unknown>;
delete mockTarget.signing_key_file;
// Its file paths are relative to targets/; the copies below are written elsewhere.
const keyClient = (mockTarget.token_alternatives as { key_client: { private_key_file: string } }).key_client;
keyClient.private_key_file = fileURLToPath(new URL(`../../targets/${keyClient.private_key_file}`, import.meta.url));

function write(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : stringify(content));
  return path;
}

function variant(change: (target: Record<string, any>) => void): Record<string, unknown> {
  const copy = structuredClone(mockTarget) as Record<string, any>;
  change(copy);
  return copy;
}

async function configError(path: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const error = await loadTargetFile(path, { env }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as Error).message;
}

describe('loadTargetFile', () => {
  it('reads the target file of the mock', async () => {
    const target = await loadTargetFile(write('ok.yaml', mockTarget), { env: {} });
    expect(target.baseUrl).toBe('http://127.0.0.1:4010/api/v2');
    expect(target.authUrl).toBe('http://127.0.0.1:4010');
    expect(target.testDouble).toBe(true);
    expect(target.customDomainHeader).toBe('tenant-custom-domain');
    expect(Object.keys(target.roles).sort()).toEqual([...roleNames].sort());
    expect(target.fixtures.vaultConnections).toHaveLength(3);
    expect(target.signingKeyJwk).toBeUndefined();
  });

  it('takes a secret from the environment variable it names', async () => {
    const path = write(
      'env.yaml',
      variant((t) => {
        t.roles.global = { client_id: 'abc', client_secret_env: 'MY_SECRET' };
      }),
    );
    const target = await loadTargetFile(path, { env: { MY_SECRET: 'from-the-environment' } });
    expect(target.roles.global).toEqual({ clientId: 'abc', clientSecret: 'from-the-environment' });
  });

  it("reads a role's optional display name, and the mock's global client's", async () => {
    expect((await loadTargetFile(write('named.yaml', mockTarget), { env: {} })).roles.global?.name).toBe('global');
    const path = write(
      'unnamed.yaml',
      variant((t) => {
        t.roles.global = { client_id: 'abc', client_secret: 'a-secret' };
      }),
    );
    expect((await loadTargetFile(path, { env: {} })).roles.global).toEqual({ clientId: 'abc', clientSecret: 'a-secret' });
  });

  it('names an environment variable that is not set', async () => {
    const path = write(
      'env-missing.yaml',
      variant((t) => {
        t.roles.global = { client_id: 'abc', client_secret_env: 'NOT_SET_HERE' };
      }),
    );
    expect(await configError(path)).toMatch(/roles\.global\.client_secret_env names NOT_SET_HERE, which is not set/);
  });

  it('names the file when it cannot be read', async () => {
    expect(await configError(join(dir, 'absent.yaml'))).toMatch(/absent\.yaml: cannot be read \(ENOENT\)/);
  });

  it('names the line of a YAML syntax error', async () => {
    expect(await configError(write('bad.yaml', 'base_url: [unclosed\nauth_url: x\n'))).toMatch(/is not valid YAML/);
  });

  it('names a missing required field', async () => {
    expect(
      await configError(
        write(
          'no-base.yaml',
          variant((t) => delete t.base_url),
        ),
      ),
    ).toMatch(/base_url is required/);
  });

  it('names an unknown field', async () => {
    expect(
      await configError(
        write(
          'unknown.yaml',
          variant((t) => {
            t.colour = 'blue';
          }),
        ),
      ),
    ).toMatch(/colour is not a known field/);
  });

  it('names an unknown role', async () => {
    expect(
      await configError(
        write(
          'role.yaml',
          variant((t) => {
            t.roles.admin = { client_id: 'x', client_secret: 'y' };
          }),
        ),
      ),
    ).toMatch(/roles\.admin is not a known field/);
  });

  it('refuses a base URL without the version 2 base path', async () => {
    expect(
      await configError(
        write(
          'v1.yaml',
          variant((t) => {
            t.base_url = 'http://127.0.0.1:4010/api/v1';
          }),
        ),
      ),
    ).toMatch(/base_url must end with the version 2 base path \/api\/v2/);
  });

  it('refuses a URL that is not http', async () => {
    expect(
      await configError(
        write(
          'ftp.yaml',
          variant((t) => {
            t.auth_url = 'ftp://127.0.0.1';
          }),
        ),
      ),
    ).toMatch(/auth_url must be an http or https URL/);
  });

  it('refuses a fixture id that breaks the spec limits', async () => {
    const path = write(
      'short.yaml',
      variant((t) => {
        t.fixtures.event_stream = 'est_tooShort';
      }),
    );
    expect(await configError(path)).toMatch(/fixtures\.event_stream does not fit the spec: .*fewer than 26 characters/);
  });

  it('reads the records the file states of its vault connections', async () => {
    const target = await loadTargetFile(write('records.yaml', mockTarget), { env: {} });
    const records = target.fixtures.vaultConnectionRecords!;
    expect(records.map((r) => r.id)).toEqual(target.fixtures.vaultConnections);
    expect(records[1]).toMatchObject({ ready: false, unset: ['environment', 'account_name', 'refreshed_at'] });
  });

  it.each([
    [
      'a field of the wrong type',
      (r: Record<string, any>) => (r[0].ready = 'true'),
      /vault_connection_records does not fit the spec: \/0\/ready must be boolean/,
    ],
    [
      'a field over its limit',
      (r: Record<string, any>) => (r[0].name = 'n'.repeat(151)),
      /\/0\/name must NOT have more than 150 characters/,
    ],
    ['a field the record has not', (r: Record<string, any>) => (r[0].display_name = 'x'), /\/0 has unknown property "display_name"/],
    ['a required field left out', (r: Record<string, any>) => delete r[0].created_at, /\/0 lacks required "created_at"/],
    [
      'a required field listed unset',
      (r: Record<string, any>) => (r[1].unset = ['ready']),
      /\/1\/unset\/0 must be equal to one of the allowed values/,
    ],
    [
      'a record of no listed connection',
      (r: Record<string, any>) => (r[0].id = 'ac_NotListedNotListedNotLi'),
      /\[0\] names ac_NotListedNotListedNotLi, which is not in fixtures\.vault_connections/,
    ],
    ['a connection stated twice', (r: Record<string, any>) => (r[2] = { ...r[0] }), /\[2\] states ac_NbWaizZTo4vfWnCwDq76Vj a second time/],
    [
      'an optional field stated and unset',
      (r: Record<string, any>) => (r[0].unset = ['environment']),
      /\[0\] states environment and lists it unset/,
    ],
    [
      'an optional field neither stated nor unset',
      (r: Record<string, any>) => (r[1].unset = ['environment', 'account_name']),
      /\[1\] neither states refreshed_at nor lists it under unset/,
    ],
  ])('refuses stated vault records with %s', async (_what, change, message) => {
    const path = write(
      'records-wrong.yaml',
      variant((t) => {
        change(t.fixtures.vault_connection_records);
      }),
    );
    expect(await configError(path)).toMatch(message);
  });

  it('names a role with neither secret nor secret variable', async () => {
    expect(
      await configError(
        write(
          'nosecret.yaml',
          variant((t) => {
            t.roles.global = { client_id: 'x' };
          }),
        ),
      ),
    ).toMatch(/roles\.global/);
  });

  it('reads a PKCS8 signing key relative to the target file', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    writeFileSync(join(dir, 'key.pem'), await exportPKCS8(privateKey));
    const target = await loadTargetFile(write('key.yaml', { ...mockTarget, signing_key_file: 'key.pem' }), { env: {} });
    expect(JSON.parse(target.signingKeyJwk!)).toMatchObject({ kty: 'RSA' });
    expect(JSON.parse(target.signingKeyJwk!).d).toBeTruthy();
  });

  it('names a signing key file that holds no key', async () => {
    writeFileSync(join(dir, 'not-a-key.pem'), 'hello');
    expect(await configError(write('badkey.yaml', { ...mockTarget, signing_key_file: 'not-a-key.pem' }))).toMatch(
      /holds no private RSA key/,
    );
  });

  it("takes a target for someone's tenant unless the file declares a test double, loopback or not", async () => {
    const undeclared = write(
      'undeclared.yaml',
      variant((t) => {
        delete t.test_double;
      }),
    );
    expect((await loadTargetFile(undeclared, { env: {} })).testDouble).toBe(false);
    const remote = write(
      'remote.yaml',
      variant((t) => {
        delete t.test_double;
        t.base_url = 'https://tenant.example.com/api/v2';
        t.auth_url = 'https://tenant.example.com';
      }),
    );
    expect((await loadTargetFile(remote, { env: {} })).testDouble).toBe(false);
  });

  it('reads the real-tenant token alternatives, secrets from the environment', async () => {
    const expired = await expiredToken();
    const path = write(
      'alternatives.yaml',
      variant((t) => {
        t.token_alternatives = {
          expired_token_env: 'OLD_TOKEN',
          other_audience: { audience: 'https://reports.example.com/', client_id: 'reports-client', client_secret_env: 'REPORTS_SECRET' },
          other_tenant: {
            auth_url: 'https://other.example.com/',
            audience: 'https://other.example.com/api/v2/',
            client_id: 'other-client',
            client_secret_env: 'OTHER_SECRET',
          },
        };
      }),
    );
    const target = await loadTargetFile(path, {
      env: { OLD_TOKEN: expired, REPORTS_SECRET: 'reports-secret', OTHER_SECRET: 'other-secret' },
    });
    expect(target.tokenAlternatives).toEqual({
      expiredToken: expired,
      otherAudience: {
        tokenUrl: 'http://127.0.0.1:4010/oauth/token/',
        audience: 'https://reports.example.com/',
        clientId: 'reports-client',
        clientSecret: 'reports-secret',
      },
      otherTenant: {
        tokenUrl: 'https://other.example.com/oauth/token/',
        audience: 'https://other.example.com/api/v2/',
        clientId: 'other-client',
        clientSecret: 'other-secret',
      },
    });
  });

  it('reads a key client: its id, and its private key relative to the target file', async () => {
    const target = await loadTargetFile(write('key-client.yaml', mockTarget), { env: {} });
    expect(target.tokenAlternatives.keyClient?.clientId).toBe('Vb9OPzJfVH0Qk2PNICTevrvHY4xHAxd5');
    expect(JSON.parse(target.tokenAlternatives.keyClient!.privateKeyJwk)).toMatchObject({ kty: 'RSA', d: expect.any(String) });
    const wrong = write(
      'key-client-wrong.yaml',
      variant((t) => {
        t.token_alternatives.key_client.private_key_file = 'no-key.txt';
      }),
    );
    writeFileSync(join(dir, 'no-key.txt'), 'not a key');
    expect(await configError(wrong)).toMatch(/token_alternatives\.key_client\.private_key_file .*no-key\.txt holds no private RSA key/);
  });

  it('refuses a captured token that has not expired, or is no JWT', async () => {
    const path = write(
      'live-token.yaml',
      variant((t) => {
        t.token_alternatives = { expired_token_env: 'LIVE_TOKEN' };
      }),
    );
    expect(await configError(path, { LIVE_TOKEN: await expiredToken(3600) })).toMatch(/the token in LIVE_TOKEN has not expired yet/);
    expect(await configError(path, { LIVE_TOKEN: 'not-a-jwt' })).toMatch(/LIVE_TOKEN, which does not hold a JWT/);
  });

  it('refuses another audience that is the management interface itself', async () => {
    const path = write(
      'same-audience.yaml',
      variant((t) => {
        t.token_alternatives = { other_audience: { audience: t.audience, client_id: 'x', client_secret_env: 'X_SECRET' } };
      }),
    );
    expect(await configError(path, { X_SECRET: 'x-secret' })).toMatch(
      /other_audience\.audience must be another API than the management interface/,
    );
  });

  it('reads a declared rate limit', async () => {
    const path = write(
      'rate.yaml',
      variant((t) => {
        t.rate_limit = { limit: 10, refill_per_second: 2 };
      }),
    );
    expect((await loadTargetFile(path, { env: {} })).rateLimit).toEqual({ limit: 10, refillPerSecond: 2 });
  });
});

/** An RS256 JWT whose exp is `fromNowSeconds` away (in the past by default). */
async function expiredToken(fromNowSeconds = -3600): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: 'read:flows_vault_connections' })
    .setProtectedHeader({ alg: 'RS256', kid: 'k' })
    .setIssuedAt(now - 86_400)
    .setExpirationTime(now + fromNowSeconds)
    .sign(privateKey);
}
