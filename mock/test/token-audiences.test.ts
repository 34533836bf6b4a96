// What a token is for: the audience a token request names. Another API of the tenant gets a
// validly signed token the management interface refuses (401 Bad audience); an audience the
// tenant does not know, or an API the client holds no grant for, is refused at the token endpoint
// (403 access_denied, as the service words it); a second tenant's tokens are refused too.
import { decodeJwt } from 'jose';
import { describe, expect, test } from 'vitest';
import { observed, tokenPath } from '../../specs/index.ts';
import { tokenDescriptions } from '../errors.ts';
import { defaultFixturesPath } from '../fixtures.ts';
import { call, tokenFor, tokenRequest } from './support/http.ts';
import { resigned } from './support/forged-tokens.ts';
import { expectError } from './support/expect.ts';
import { mockForTest, sharedMock } from './support/mock.ts';
import { fixtureIds as ids, vaultPath } from './support/paths.ts';

const mock = sharedMock();
const REPORTS = 'https://reports-api.example.com/';

describe('another API of the tenant', () => {
  test('its client gets a token addressed to it, with the scopes of its grant', async () => {
    const answer = await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'reports-client', { audience: REPORTS }) });
    const claims = decodeJwt((answer.json as { access_token: string }).access_token);
    expect({ status: answer.status, iss: claims.iss, aud: claims.aud, scope: claims.scope }).toEqual({
      status: 200,
      iss: mock().issuer,
      aud: REPORTS,
      scope: 'read:reports',
    });
  });

  test('the management interface refuses that token: 401 Bad audience naming it', async () => {
    const answer = await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'reports-client', { audience: REPORTS }) });
    const token = (answer.json as { access_token: string }).access_token;
    expectError(await call(mock(), 'GET', vaultPath(ids.vaultFull), { token }), 'bad_audience', REPORTS);
  });

  test('a client without a grant for it is refused: 403 access_denied', async () => {
    const answer = await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'global', { audience: REPORTS }) });
    expect([answer.status, answer.json]).toEqual([
      403,
      { error: 'access_denied', error_description: tokenDescriptions.clientNotAuthorized(REPORTS) },
    ]);
  });

  test('its client asking for the management interface is refused: 403 access_denied', async () => {
    const answer = await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'reports-client') });
    expect([answer.status, answer.json]).toEqual([
      403,
      { error: 'access_denied', error_description: tokenDescriptions.clientNotAuthorized(mock().audience) },
    ]);
  });
});

test.for(['https://unknown-api.example.com/', 'https://tenant.example.com/api/v1/', 'https://127.0.0.1:1/api/v2/'])(
  'an audience the tenant does not know (%s) is 403 "Service not found"',
  async (audience) => {
    const answer = await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'global', { audience }) });
    expect([answer.status, answer.json]).toEqual([403, { error: 'access_denied', error_description: `Service not found: ${audience}` }]);
  },
);

test('a token of a second tenant (another issuer, another key) is refused by the first', async () => {
  const other = await mockForTest({ fixtures: defaultFixturesPath.replace(/default\.yaml$/, 'other-tenant.yaml') });
  const client = other.fixtures.data.clients[0]!;
  const issued = await call(other, 'POST', tokenPath, {
    body: { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, audience: other.audience },
  });
  const token = (issued.json as { access_token: string }).access_token;
  expect(decodeJwt(token).iss).toBe(`https://${other.tenantDomain}/`);
  const answer = await call(mock(), 'GET', vaultPath(ids.vaultFull), { token });
  expect(answer.status).toBe(401);
  expectError(answer, 'invalid_signature');
});

test('the invalid_client description is the documented one', async () => {
  const answer = await call(mock(), 'POST', tokenPath, { body: tokenRequest(mock(), 'global', { client_secret: 'wrong' }) });
  expect([answer.status, answer.json]).toEqual([
    401,
    { error: 'invalid_client', error_description: observed.tokens.errors.invalid_client!.description },
  ]);
});

test('a token requested for the origin a request reached through a proxy works there, and only there', async () => {
  const viaProxy = { host: 'mock.dev.example:8443' };
  const answer = await call(mock(), 'POST', tokenPath, {
    body: tokenRequest(mock(), 'global', { audience: 'https://mock.dev.example:8443/api/v2/' }),
    headers: viaProxy,
  });
  const token = (answer.json as { access_token: string }).access_token;
  expect((await call(mock(), 'GET', vaultPath(ids.vaultFull), { token, headers: viaProxy })).status).toBe(200);
  expect((await call(mock(), 'GET', vaultPath(ids.vaultFull), { token })).status).toBe(401);
});

test('a token whose audience is outside ASCII is refused 401 Bad audience, its challenge in ASCII (no 500)', async () => {
  const valid = await tokenFor(mock(), 'global');
  const token = await resigned(mock(), valid, (claims) => ({ ...claims, aud: 'https://tenant\u3002example\u3002com/api/v2/' }));
  const answer = await call(mock(), 'GET', vaultPath(ids.vaultFull), { token });
  expect(answer.status).toBe(401);
  expect(answer.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token", error_description="[\x20-\x21\x23-\x5b\x5d-\x7e]*"$/);
});
