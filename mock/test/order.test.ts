// The order of checks: rate limit, then authentication (401), authorization (403), validation
// (path, headers, body: 400/415), and state last (404/409). An unauthenticated caller learns
// nothing about which ids exist.
import { describe, expect, test } from 'vitest';
import { operationKeys, type OperationKey } from '../../specs/index.ts';
import { call, tokenFor } from './support/http.ts';
import { expectError } from './support/expect.ts';
import { mockForTest, sharedMock } from './support/mock.ts';
import { fixtureIds as ids, pathOf, redeliverPath, ticketPath, vaultPath } from './support/paths.ts';

const mock = sharedMock();

/** For each operation: a malformed path, an unknown (well-formed) id, and the client lacking its scope (a missing operation is a compile error). */
const rowOf: Record<OperationKey, { method: string; bad: string; unknown: string; noScope: string }> = {
  redeliver: {
    method: 'POST',
    bad: redeliverPath('est_short', ids.failedEvent),
    unknown: redeliverPath('est_AQXiyfL3iDNFp5RV9YTEMw', ids.failedEvent),
    noScope: 'without-redeliver-scope',
  },
  'sso-ticket': {
    method: 'POST',
    bad: ticketPath('ssp_short'),
    unknown: ticketPath('ssp_9KgfU2kfX7fonvodDzoqxE'),
    noScope: 'without-sso-ticket-scope',
  },
  vault: {
    method: 'GET',
    bad: vaultPath(`ac_${'x'.repeat(30)}`),
    unknown: vaultPath('ac_NbWaizZTo4vfWnCwDq76Vk'),
    noScope: 'without-vault-scope',
  },
};
const rows = operationKeys.map((op) => ({ op, ...rowOf[op] }));

describe.for(rows)('$op', ({ method, bad, unknown, noScope }) => {
  test('no token and a malformed id: 401', async () => {
    expectError(await call(mock(), method, bad), 'invalid_token');
  });

  test('no token and an unknown id: 401, the same answer as for a known id', async () => {
    const [forUnknown, forMalformed] = [await call(mock(), method, unknown), await call(mock(), method, bad)];
    expectError(forUnknown, 'invalid_token');
    expect(forUnknown.json).toEqual(forMalformed.json);
  });

  test('a token without the scope and a malformed id: 403', async () => {
    expectError(await call(mock(), method, bad, { token: await tokenFor(mock(), noScope) }), 'insufficient_scope');
  });

  test('a token without the scope and an unknown id: 403', async () => {
    expectError(await call(mock(), method, unknown, { token: await tokenFor(mock(), noScope) }), 'insufficient_scope');
  });
});

test('a non-global client with a malformed redelivery id: 401 "Client is not global" before validation', async () => {
  expectError(
    await call(mock(), 'POST', redeliverPath('est_short', 'evt_short'), { token: await tokenFor(mock(), 'non-global') }),
    'client_not_global',
  );
});

describe('ticket creation validates path, then headers, then body, then state', () => {
  const token = () => tokenFor(mock(), 'global');
  const badHeader = { 'tenant-custom-domain': 'x' };
  const badBody = { ttl_sec: -1 };

  test('bad path, header and body: invalid_uri', async () => {
    expectError(
      await call(mock(), 'POST', ticketPath('ssp_short'), { token: await token(), headers: badHeader, body: badBody }),
      'invalid_uri',
    );
  });

  test('bad header and body: invalid_headers', async () => {
    expectError(
      await call(mock(), 'POST', ticketPath(ids.profile), { token: await token(), headers: badHeader, body: badBody }),
      'invalid_headers',
    );
  });

  test('bad body of an unknown profile: invalid_body before 404', async () => {
    expectError(
      await call(mock(), 'POST', ticketPath('ssp_9KgfU2kfX7fonvodDzoqxE'), { token: await token(), body: badBody }),
      'invalid_body',
    );
  });

  test('a taken connection name for an unknown profile: 404 before 409', async () => {
    const answer = await call(mock(), 'POST', ticketPath('ssp_9KgfU2kfX7fonvodDzoqxE'), {
      token: await token(),
      body: { connection_config: { name: ids.connectionName } },
    });
    expectError(answer, 'profile_not_found', 'ssp_9KgfU2kfX7fonvodDzoqxE');
  });
});

test("redelivery: an unknown stream with an unknown event is the stream's 404", async () => {
  expectError(
    await call(mock(), 'POST', redeliverPath('est_AQXiyfL3iDNFp5RV9YTEMw', 'evt_wx3cBnTHxX2mVaYMaBVtL9'), {
      token: await tokenFor(mock(), 'global'),
    }),
    'stream_not_found',
  );
});

test('the rate limit comes first: an empty bucket answers 429 even without a token', async () => {
  const tiny = await mockForTest({ rateLimit: { bucketSize: 1, refillPerSecond: 0.001 } });
  await call(tiny, 'GET', pathOf('vault', { id: ids.vaultFull }));
  expectError(await call(tiny, 'GET', pathOf('vault', { id: ids.vaultFull })), 'too_many_requests');
});
