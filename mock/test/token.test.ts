// The token endpoint: client credentials as JSON or form, with or without the trailing slash,
// Basic client authentication, the issued token's claims, and each error in the endpoint's own
// {error, error_description} shape.
import { scopesOfRole } from '../../specs/cards/index.ts';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, test } from 'vitest';
import { observed, tokenPath, validator } from '../../specs/index.ts';
import { ManualClock } from '../clock.ts';
import { call, client, tokenRequest, type Answer } from './support/http.ts';
import { mockForTest, sharedMock } from './support/mock.ts';

const START = Date.UTC(2025, 0, 1);
const clock = new ManualClock(START);
const mock = sharedMock({ clock });
const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

function expectTokenError(answer: Answer, error: keyof typeof observed.tokens.errors): void {
  expect({ status: answer.status, error: (answer.json as { error?: string }).error }).toEqual({
    status: observed.tokens.errors[error]!.status,
    error,
  });
  expect(validator('TokenError', 'observed')(answer.json)).toBe(true);
  expect(answer.headers['cache-control']).toBe('no-store');
}

describe('issuing', () => {
  test.for([
    ['JSON', observed.tokens.path],
    ['JSON', tokenPath],
    ['form', observed.tokens.path],
    ['form', tokenPath],
  ])('a %s request to %s gets a token response', async ([kind, path]) => {
    const fields = tokenRequest(mock(), 'global');
    const answer = await call(mock(), 'POST', path!, kind === 'JSON' ? { body: fields } : form(fields));
    expect(answer.status).toBe(200);
    expect(validator('TokenResponse', 'observed')(answer.json)).toBe(true);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['content-type']).toBe(observed.content_type);
  });

  test('the token is RS256 with typ JWT and the published kid, and carries the observed claims', async () => {
    const { client_id } = client(mock(), 'global');
    const answer = await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'global') });
    const { access_token, expires_in, scope } = answer.json as { access_token: string; expires_in: number; scope: string };
    expect(decodeProtectedHeader(access_token)).toEqual({ alg: 'RS256', typ: 'JWT', kid: mock().keys.kid });
    const iat = Math.floor(START / 1000);
    expect(decodeJwt(access_token)).toEqual({
      iss: 'https://tenant.example.com/',
      aud: 'https://tenant.example.com/api/v2/',
      sub: `${client_id}@clients`,
      azp: client_id,
      iat,
      exp: iat + observed.tokens.expires_in,
      scope,
      gty: observed.tokens.gty,
    });
    expect(expires_in).toBe(observed.tokens.expires_in);
    const global = mock().fixtures.data.clients.find((c) => c.name === 'global')!;
    expect(scope.split(' ')).toEqual([...new Set([...scopesOfRole(global.role!), ...(global.scopes ?? [])])]);
  });

  test('the published JWKS verifies the token', async () => {
    const token = (await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'global') })).json as { access_token: string };
    const jwks = (await call(mock(), 'GET', observed.tokens.jwks_path)).json as Parameters<typeof createLocalJWKSet>[0];
    const { payload } = await jwtVerify(token.access_token, createLocalJWKSet(jwks), {
      audience: mock().audience,
      issuer: mock().issuer,
      currentDate: new Date(START),
    });
    expect(payload.azp).toBe(client(mock(), 'global').client_id);
  });

  test('Basic client authentication (client_secret_basic) is accepted', async () => {
    const { client_id, client_secret } = client(mock(), 'global');
    const basic = Buffer.from(`${encodeURIComponent(client_id)}:${encodeURIComponent(client_secret)}`).toString('base64');
    const answer = await call(mock(), 'POST', tokenPath, {
      ...form({ grant_type: 'client_credentials', audience: mock().audience }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    });
    expect(answer.status).toBe(200);
  });

  test.for(['http', 'https'])(
    "the mock's own origin over %s + /api/v2/ is accepted as the audience, and the token carries that identity",
    async (scheme) => {
      const origin = `${scheme}://127.0.0.1:${mock().port}`;
      const answer = await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'global', { audience: `${origin}/api/v2/` }) });
      const claims = decodeJwt((answer.json as { access_token: string }).access_token);
      expect({ status: answer.status, iss: claims.iss, aud: claims.aud }).toEqual({
        status: 200,
        iss: `${origin}/`,
        aud: `${origin}/api/v2/`,
      });
    },
  );

  test('a scope parameter narrows the grant', async () => {
    const answer = await call(mock(), 'POST', tokenPath, {
      body: tokenRequest(mock(), 'global', { scope: 'read:flows_vault_connections' }),
    });
    expect((answer.json as { scope: string }).scope).toBe('read:flows_vault_connections');
    expect(decodeJwt((answer.json as { access_token: string }).access_token).scope).toBe('read:flows_vault_connections');
  });

  test('iat and exp follow the injected clock', async () => {
    const local = new ManualClock(START + 3_600_000);
    const moved = await mockForTest({ clock: local });
    const answer = await call(moved, 'POST', tokenPath, { body: tokenRequest(moved, 'global') });
    expect(decodeJwt((answer.json as { access_token: string }).access_token).iat).toBe((START + 3_600_000) / 1000);
  });
});

describe('errors', () => {
  test('a wrong secret is 401 invalid_client', async () => {
    expectTokenError(
      await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'global', { client_secret: 'wrong' }) }),
      'invalid_client',
    );
  });

  test('an unknown client is 401 invalid_client, the same answer as a wrong secret', async () => {
    const unknown = await call(mock(), 'POST', tokenPath, {
      body: tokenRequest(mock(), 'global', { client_id: 'Zz0000000000000000000000000000zZ' }),
    });
    const wrongSecret = await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'global', { client_secret: 'wrong' }) });
    expectTokenError(unknown, 'invalid_client');
    expect(unknown.json).toEqual(wrongSecret.json);
  });

  test('a wrong Basic secret is 401 invalid_client with a Basic challenge', async () => {
    const basic = Buffer.from(`${client(mock(), 'global').client_id}:wrong`).toString('base64');
    const answer = await call(mock(), 'POST', tokenPath, {
      body: { grant_type: 'client_credentials', audience: mock().audience },
      headers: { authorization: `Basic ${basic}` },
    });
    expectTokenError(answer, 'invalid_client');
    expect(answer.headers['www-authenticate']).toMatch(/^Basic /);
  });

  test.for(['grant_type', 'client_id', 'client_secret', 'audience'])('a request without %s is 400 invalid_request', async (field) => {
    expectTokenError(
      await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'global', { [field]: undefined }) }),
      'invalid_request',
    );
  });

  test('another grant type is 400 unsupported_grant_type', async () => {
    expectTokenError(
      await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'global', { grant_type: 'password' }) }),
      'unsupported_grant_type',
    );
  });

  test('an unknown audience is 403 access_denied', async () => {
    expectTokenError(
      await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'global', { audience: 'https://another-api.example.com/' }) }),
      'access_denied',
    );
  });

  test("a scope outside the client's grant is 403 access_denied", async () => {
    expectTokenError(
      await call(mock(), 'POST', tokenPath, {
        body: tokenRequest(mock(), 'without-vault-scope', { scope: 'read:flows_vault_connections' }),
      }),
      'access_denied',
    );
  });

  test('a repeated form parameter is 400 invalid_request', async () => {
    const body = `${new URLSearchParams(tokenRequest(mock(), 'global')).toString()}&audience=x`;
    expectTokenError(
      await call(mock(), 'POST', tokenPath, { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      'invalid_request',
    );
  });

  test('a JSON parameter that is not a string is 400 invalid_request', async () => {
    expectTokenError(
      await call(mock(), 'POST', tokenPath, { body: { ...tokenRequest(mock(), 'global'), client_secret: 42 } }),
      'invalid_request',
    );
  });

  test('malformed JSON is 400 invalid_request', async () => {
    expectTokenError(
      await call(mock(), 'POST', tokenPath, { body: '{"grant_type":', headers: { 'content-type': 'application/json' } }),
      'invalid_request',
    );
  });

  test('another content type is 400 invalid_request', async () => {
    expectTokenError(
      await call(mock(), 'POST', tokenPath, { body: 'grant_type=client_credentials', headers: { 'content-type': 'text/plain' } }),
      'invalid_request',
    );
  });

  test('Basic and client_secret together are 400 invalid_request', async () => {
    const { client_id, client_secret } = client(mock(), 'global');
    const basic = Buffer.from(`${client_id}:${client_secret}`).toString('base64');
    expectTokenError(
      await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'global'), headers: { authorization: `Basic ${basic}` } }),
      'invalid_request',
    );
  });

  test("a body over the size limit is 413 in the endpoint's shape", async () => {
    const small = await mockForTest({ maxBodyBytes: 64 });
    const answer = await call(small, 'POST', tokenPath, { body: tokenRequest(small, 'global') });
    expect(answer.status).toBe(413);
    expect(validator('TokenError', 'observed')(answer.json)).toBe(true);
  });

  test('GET is 405 with Allow: POST', async () => {
    const answer = await call(mock(), 'GET', tokenPath);
    expect([answer.status, answer.headers.allow]).toEqual([405, 'POST']);
  });
});

test('the JWKS publishes the signing key with the members a tenant publishes, x5c and x5t included', async () => {
  const answer = await call(mock(), 'GET', observed.tokens.jwks_path);
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe(observed.content_type);
  const keys = (answer.json as { keys: Array<Record<string, unknown>> }).keys;
  expect(keys).toEqual([
    {
      alg: 'RS256',
      kty: 'RSA',
      use: 'sig',
      n: expect.any(String),
      e: 'AQAB',
      kid: mock().keys.kid,
      x5t: expect.stringMatching(/^[A-Za-z0-9_-]{27}$/),
      x5c: [expect.any(String)],
    },
  ]);
});
