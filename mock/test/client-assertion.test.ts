// Private-key JWT at the token endpoint: a client assertion signed with the client's key takes the
// place of the secret; every way an assertion can be wrong is refused as invalid_client.
import { readFileSync } from 'node:fs';
import { SignJWT, generateKeyPair, importPKCS8, type JWTPayload } from 'jose';
import { describe, expect, test } from 'vitest';
import { observed, tokenPath } from '../../specs/index.ts';
import { tokenDescriptions } from '../errors.ts';
import { ManualClock } from '../clock.ts';
import { defaultFixturesPath } from '../fixtures.ts';
import { call, type Answer } from './support/http.ts';
import { sharedMock } from './support/mock.ts';

const START = Date.UTC(2025, 0, 1);
const clock = new ManualClock(START);
const mock = sharedMock({ clock });
const privateKeyPem = readFileSync(defaultFixturesPath.replace(/default\.yaml$/, 'private-key-jwt-client.key.pem'), 'utf8');
const rules = observed.tokens.client_assertion;
let jtis = 0;

function keyClientId(): string {
  return mock().fixtures.data.clients.find((c) => c.name === 'private-key-jwt')!.client_id;
}

async function assertion(
  change: (claims: JWTPayload) => JWTPayload = (c) => c,
  alg = 'RS256',
  key?: Parameters<SignJWT['sign']>[0],
): Promise<string> {
  const now = Math.floor(clock.now() / 1000);
  const claims: JWTPayload = {
    iss: keyClientId(),
    sub: keyClientId(),
    aud: mock().issuer,
    iat: now,
    exp: now + 60,
    jti: `jti-${(jtis += 1)}`,
  };
  return new SignJWT(change(claims)).setProtectedHeader({ alg }).sign(key ?? (await importPKCS8(privateKeyPem, alg)));
}

function exchange(clientAssertion: string, extra: Record<string, string> = {}): Promise<Answer> {
  const body = {
    grant_type: 'client_credentials',
    client_assertion_type: rules.type,
    client_assertion: clientAssertion,
    audience: mock().audience,
    ...extra,
  };
  return call(mock(), 'POST', tokenPath, {
    body: new URLSearchParams(body).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

function refusedWith(answer: Answer): [number, string | undefined, string | undefined] {
  return [answer.status, (answer.json as { error?: string }).error, (answer.json as { error_description?: string }).error_description];
}

describe('accepted', () => {
  test.for(rules.algorithms.value)("an assertion signed %s with the client's key gets a token", async (alg) => {
    const answer = await exchange(await assertion((c) => c, alg));
    expect([answer.status, (answer.json as { token_type?: string }).token_type]).toEqual([200, 'Bearer']);
  });

  test.for([
    ['the issuer', (m: () => { issuer: string }) => m().issuer],
    ['the token endpoint URL', (m: () => { issuer: string }) => `${m().issuer}oauth/token`],
    [
      "the mock's own origin, as an SDK given domain 127.0.0.1:PORT sends it",
      (m: () => { port: number }) => `https://127.0.0.1:${m().port}/`,
    ],
  ] as const)('aud may be %s', async ([, audience]) => {
    const answer = await exchange(await assertion((c) => ({ ...c, aud: audience(mock) })));
    expect(answer.status).toBe(200);
  });

  test('with client_id sent as well', async () => {
    expect((await exchange(await assertion(), { client_id: keyClientId() })).status).toBe(200);
  });
});

describe('refused as invalid_client', () => {
  const now = () => Math.floor(clock.now() / 1000);
  const cases: Array<[string, () => Promise<string>, string]> = [
    ['an expired assertion', () => assertion((c) => ({ ...c, iat: now() - 120, exp: now() - 60 })), tokenDescriptions.assertion.expired],
    [
      'one that lives longer than five minutes',
      () => assertion((c) => ({ ...c, exp: now() + rules.max_lifetime_seconds.value + 60 })),
      tokenDescriptions.assertion.lifetime,
    ],
    [
      'one issued in the future',
      () => assertion((c) => ({ ...c, iat: now() + 60, exp: now() + 120 })),
      tokenDescriptions.assertion.notYetValid,
    ],
    [
      'one for another audience',
      () => assertion((c) => ({ ...c, aud: 'https://other-tenant.example.net/' })),
      tokenDescriptions.assertion.audience,
    ],
    ['iss and sub that differ', () => assertion((c) => ({ ...c, sub: 'someone-else' })), tokenDescriptions.assertion.subject],
    ['one without jti', () => assertion(({ jti: _jti, ...c }) => c), tokenDescriptions.assertion.jti],
    [
      'a jti longer than allowed',
      () => assertion((c) => ({ ...c, jti: 'j'.repeat(rules.max_claim_length.value.jti + 1) })),
      tokenDescriptions.assertion.claimTooLong('jti'),
    ],
    [
      'one signed with another key',
      async () => assertion((c) => c, 'RS256', (await generateKeyPair('RS256')).privateKey),
      tokenDescriptions.clientAuthenticationFailed,
    ],
    [
      'one signed with an algorithm the tenant does not take',
      async () => assertion((c) => c, 'HS256', new TextEncoder().encode('a shared secret of thirty-two bytes!')),
      tokenDescriptions.assertion.algorithm('HS256'),
    ],
    ['something that is not a JWT', async () => 'not-a-jwt', tokenDescriptions.assertion.malformed],
  ];
  test.for(cases)('%s', async ([, make, description]) => {
    expect(refusedWith(await exchange(await make()))).toEqual([
      observed.tokens.errors.invalid_client!.status,
      'invalid_client',
      description,
    ]);
  });

  test('an assertion used twice', async () => {
    const once = await assertion();
    expect((await exchange(once)).status).toBe(200);
    expect(refusedWith(await exchange(once))).toEqual([401, 'invalid_client', tokenDescriptions.assertion.replayed]);
  });

  test('an assertion used again after its exp, while the clock skew still accepts it', async () => {
    const once = await assertion();
    expect((await exchange(once)).status).toBe(200);
    // exp is 60 s ahead; 5 s after it, the skew still lets the assertion through, so it must still be remembered.
    clock.advance(65_000);
    expect(refusedWith(await exchange(once))).toEqual([401, 'invalid_client', tokenDescriptions.assertion.replayed]);
  });

  test("a client_id other than the assertion's", async () => {
    expect(refusedWith(await exchange(await assertion(), { client_id: 'another-client' }))).toEqual([
      401,
      'invalid_client',
      tokenDescriptions.assertion.subject,
    ]);
  });

  test('an assertion of a client that has no key', async () => {
    const global = mock().fixtures.data.clients.find((c) => c.name === 'global')!.client_id;
    const answer = await exchange(await assertion((c) => ({ ...c, iss: global, sub: global })));
    expect(refusedWith(answer)).toEqual([401, 'invalid_client', tokenDescriptions.clientAuthenticationFailed]);
  });
});

describe('refused as invalid_request', () => {
  test('an assertion and a secret together', async () => {
    expect(refusedWith(await exchange(await assertion(), { client_secret: 'x' }))[1]).toBe('invalid_request');
  });

  test('another client_assertion_type', async () => {
    expect(refusedWith(await exchange(await assertion(), { client_assertion_type: 'urn:example:other' }))[1]).toBe('invalid_request');
  });
});
