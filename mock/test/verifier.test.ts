// The token verifier, case by case: every credential spec sections 5 and 7 say must be refused,
// and the error catalogue entry each one maps to. Time is a manual clock.
import { SignJWT, exportSPKI, generateKeyPair, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, test } from 'vitest';
import { observed } from '../../specs/index.ts';
import { createTokenIssuer } from '../auth/issuer.ts';
import { loadSigningKeys, type SigningKeys } from '../auth/keys.ts';
import { createTokenVerifier, type TokenVerifier } from '../auth/verifier.ts';
import { ManualClock } from '../clock.ts';
import { loadFixtures } from '../fixtures.ts';
import { Store } from '../store.ts';
import { createTenant } from '../tenant.ts';

const START = Date.UTC(2025, 0, 1);
const SKEW_MS = observed.tokens.clock_skew_seconds.value * 1000;
const fixtures = loadFixtures().data;
const globalClient = fixtures.clients.find((c) => c.name === 'global')!;

let keys: SigningKeys;
let foreign: Awaited<ReturnType<typeof generateKeyPair>>;
beforeAll(async () => {
  [keys, foreign] = await Promise.all([
    loadSigningKeys(undefined, { commonName: fixtures.tenant.domain, notBeforeMs: START }),
    generateKeyPair('RS256', { extractable: true }),
  ]);
});

function setup() {
  const clock = new ManualClock(START);
  const tenant = createTenant(fixtures.tenant.domain, 'http://127.0.0.1:4010');
  const store = new Store(fixtures);
  const verifier = createTokenVerifier({ keys, clock, tenant, store });
  const issuer = createTokenIssuer({ keys, clock, tenant });
  const issue = async () => (await issuer.issue(store.client(globalClient.client_id)!, globalClient.scopes!)).accessToken;
  return { clock, tenant, verifier, issue };
}

/** Claims of a valid token at START. */
function claims(overrides: JWTPayload = {}): JWTPayload {
  const iat = START / 1000;
  return {
    iss: 'https://tenant.example.com/',
    aud: 'https://tenant.example.com/api/v2/',
    sub: `${globalClient.client_id}@clients`,
    azp: globalClient.client_id,
    iat,
    exp: iat + 86400,
    scope: 'read:flows_vault_connections',
    gty: 'client-credentials',
    ...overrides,
  };
}

function signed(payload: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: keys.kid, ...header }).sign(keys.privateKey);
}

const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function refusedAs(verifier: TokenVerifier, authorization: string | undefined): Promise<string> {
  const result = await verifier.verify(authorization, undefined);
  if (result.ok) throw new Error('the credential was accepted');
  return result.error;
}

describe('accepted', () => {
  test('a token the issuer made, with its client and scopes', async () => {
    const { verifier, issue } = setup();
    const result = await verifier.verify(`Bearer ${await issue()}`, undefined);
    expect(result.ok && result.principal.client.clientId).toBe(globalClient.client_id);
    expect(result.ok && [...result.principal.scopes]).toEqual(globalClient.scopes);
  });

  test.for(['https://127.0.0.1:4010', 'http://localhost:4010', 'https://[::1]:4010'])(
    'a token of the mock reached at %s, its own loopback origin',
    async (origin) => {
      const { verifier } = setup();
      const token = await signed(claims({ iss: `${origin}/`, aud: `${origin}/api/v2/` }));
      expect((await verifier.verify(`Bearer ${token}`, undefined)).ok).toBe(true);
    },
  );

  test('the scheme name in any case', async () => {
    const { verifier, issue } = setup();
    expect((await verifier.verify(`bearer ${await issue()}`, undefined)).ok).toBe(true);
  });

  test('a token one millisecond before the clock skew past its expiry ends', async () => {
    const { clock, verifier, issue } = setup();
    const token = await issue();
    clock.advance(86400 * 1000 + SKEW_MS - 1);
    expect((await verifier.verify(`Bearer ${token}`, undefined)).ok).toBe(true);
  });

  test('a token whose nbf and iat are ahead of the clock by the clock skew', async () => {
    const { verifier } = setup();
    const ahead = START / 1000 + SKEW_MS / 1000;
    expect((await verifier.verify(`Bearer ${await signed(claims({ nbf: ahead, iat: ahead }))}`, undefined)).ok).toBe(true);
  });

  test('an audience array that holds the tenant audience', async () => {
    const { verifier } = setup();
    expect(
      (
        await verifier.verify(
          `Bearer ${await signed(claims({ aud: ['https://other.example.com/', 'https://tenant.example.com/api/v2/'] }))}`,
          undefined,
        )
      ).ok,
    ).toBe(true);
  });
});

describe('refused', () => {
  const malformed: Array<[string, string | undefined]> = [
    ['an empty header', ''],
    ['the Basic scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a token', 'Bearer '],
    ['a bearer value that is not a JWS', 'Bearer not-a-jwt'],
    ['two segments', 'Bearer abc.def'],
    ['segments that are not JSON', 'Bearer abc.def.ghi'],
    ['a token followed by more text', 'Bearer a.b.c extra'],
  ];
  test.for(malformed)('%s is invalid_token', async ([, authorization]) => {
    expect(await refusedAs(setup().verifier, authorization)).toBe('invalid_token');
  });

  test('a token expired by the clock skew is expired_token', async () => {
    const { clock, verifier, issue } = setup();
    const token = await issue();
    clock.advance(86400 * 1000 + SKEW_MS);
    expect(await refusedAs(verifier, `Bearer ${token}`)).toBe('expired_token');
  });

  test('a token used before its nbf is invalid_token', async () => {
    const { verifier } = setup();
    expect(await refusedAs(verifier, `Bearer ${await signed(claims({ nbf: START / 1000 + SKEW_MS / 1000 + 1 }))}`)).toBe('invalid_token');
  });

  test('a token whose iat is in the future is invalid_token', async () => {
    const { verifier } = setup();
    expect(await refusedAs(verifier, `Bearer ${await signed(claims({ iat: START / 1000 + SKEW_MS / 1000 + 1 }))}`)).toBe('invalid_token');
  });

  test('a token without exp is invalid_token', async () => {
    const { verifier } = setup();
    expect(await refusedAs(verifier, `Bearer ${await signed(claims({ exp: undefined }))}`)).toBe('invalid_token');
  });

  test('a token of another issuer is invalid_token', async () => {
    const { verifier } = setup();
    expect(await refusedAs(verifier, `Bearer ${await signed(claims({ iss: 'https://issuer.example.com/' }))}`)).toBe('invalid_token');
  });

  test('no Authorization header is missing_authentication', async () => {
    expect(await refusedAs(setup().verifier, undefined)).toBe('missing_authentication');
  });

  test('a token for another audience is bad_audience, naming that audience', async () => {
    const { verifier } = setup();
    const result = await verifier.verify(
      `Bearer ${await signed(claims({ aud: ['https://another-api.example.com/', 'https://x.example/'] }))}`,
      undefined,
    );
    expect(result.ok ? undefined : [result.error, result.detail]).toEqual([
      'bad_audience',
      'https://another-api.example.com/ https://x.example/',
    ]);
  });

  test('a token without a kid is invalid_token', async () => {
    const { verifier } = setup();
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(keys.privateKey);
    expect(await refusedAs(verifier, `Bearer ${token}`)).toBe('invalid_token');
  });

  test('iss and aud of two different identities are refused', async () => {
    const { verifier } = setup();
    const mixed = claims({ iss: 'https://127.0.0.1:4010/', aud: 'https://tenant.example.com/api/v2/' });
    expect(await refusedAs(verifier, `Bearer ${await signed(mixed)}`)).toBe('bad_audience');
  });

  test('the identity of a host only where the request names that host', async () => {
    const { verifier } = setup();
    const proxied = `Bearer ${await signed(claims({ iss: 'https://mock.dev.example:8443/', aud: 'https://mock.dev.example:8443/api/v2/' }))}`;
    expect((await verifier.verify(proxied, 'mock.dev.example:8443')).ok).toBe(true);
    expect(await refusedAs(verifier, proxied)).toBe('invalid_token');
  });

  test('a token of a client that does not exist is invalid_token', async () => {
    const { verifier } = setup();
    const ghost = 'Zz0000000000000000000000000000zZ';
    expect(await refusedAs(verifier, `Bearer ${await signed(claims({ azp: ghost, sub: `${ghost}@clients` }))}`)).toBe('invalid_token');
  });

  test('a token whose sub does not name its azp is invalid_token', async () => {
    const { verifier } = setup();
    expect(await refusedAs(verifier, `Bearer ${await signed(claims({ sub: 'someone-else@clients' }))}`)).toBe('invalid_token');
  });

  test('an unsigned token (alg none) is invalid_token', async () => {
    const { verifier, issue } = setup();
    const [, payload] = (await issue()).split('.');
    expect(await refusedAs(verifier, `Bearer ${segment({ alg: 'none', typ: 'JWT', kid: keys.kid })}.${payload}.`)).toBe('invalid_token');
  });

  test('a tampered signature is invalid_signature', async () => {
    const { verifier, issue } = setup();
    const [header, payload, signature] = (await issue()).split('.');
    const middle = Math.floor(signature!.length / 2);
    const tampered = `${signature!.slice(0, middle)}${signature![middle] === 'A' ? 'B' : 'A'}${signature!.slice(middle + 1)}`;
    expect(await refusedAs(verifier, `Bearer ${header}.${payload}.${tampered}`)).toBe('invalid_signature');
  });

  test('a tampered payload (wider scope) is invalid_signature', async () => {
    const { verifier, issue } = setup();
    const [header, , signature] = (await issue()).split('.');
    expect(await refusedAs(verifier, `Bearer ${header}.${segment(claims({ scope: 'delete:users' }))}.${signature}`)).toBe(
      'invalid_signature',
    );
  });

  test('a token signed with a foreign key under the tenant kid is invalid_signature', async () => {
    const { verifier } = setup();
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', kid: keys.kid }).sign(foreign.privateKey);
    expect(await refusedAs(verifier, `Bearer ${token}`)).toBe('invalid_signature');
  });

  test('a token with an unknown kid is invalid_signature', async () => {
    const { verifier } = setup();
    expect(await refusedAs(verifier, `Bearer ${await signed(claims(), { kid: 'not-a-published-key-id' })}`)).toBe('invalid_signature');
  });

  test('HS256 keyed with the published public key (algorithm confusion) is invalid_signature', async () => {
    const { verifier } = setup();
    const secret = new TextEncoder().encode(await exportSPKI(keys.publicKey));
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: keys.kid }).sign(secret);
    expect(await refusedAs(verifier, `Bearer ${token}`)).toBe('invalid_signature');
  });

  test('a cached valid token is refused once it expires', async () => {
    const { clock, verifier, issue } = setup();
    const token = await issue();
    expect((await verifier.verify(`Bearer ${token}`, undefined)).ok).toBe(true);
    clock.advance(86400 * 1000 + SKEW_MS);
    expect(await refusedAs(verifier, `Bearer ${token}`)).toBe('expired_token');
  });
});
