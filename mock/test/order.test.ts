// The order of checks: rate limit, then authentication (401), authorization (403), validation
// (path, headers, body: 400/415), and state last (404/409). An unauthenticated caller learns
// nothing about which ids exist.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import type { OperationCard } from '../../specs/cards/card.ts';
import { fixtureField, type FixtureName } from '../../specs/cards/fixtures.ts';
import { cards } from '../../specs/cards/index.ts';
import { operationKeys, type OperationKey } from '../../specs/index.ts';
import { unknownIdLike } from '../../specs/matrix/values.ts';
import { loadFixtures } from '../fixtures.ts';
import { call, tokenFor } from './support/http.ts';
import { expectError } from './support/expect.ts';
import { mockForTest, sharedMock } from './support/mock.ts';
import { fixtureIds as ids, pathOf, redeliverPath, ticketPath } from './support/paths.ts';

const mock = sharedMock();
const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * For each operation, from its card: its method; its path with the first id one character short
 * (malformed) and with that id well formed but naming nothing (unknown), the other ids the ones of
 * the default fixtures (targets/mock.yaml names them); and the fixture client of its role without
 * its scope.
 */
const described = parse(readFileSync(join(root, 'targets', 'mock.yaml'), 'utf8')) as { fixtures: Record<string, string | string[]> };
function fixtureId(name: FixtureName): string {
  const value = described.fixtures[fixtureField(name)]!;
  return Array.isArray(value) ? value[0]! : value;
}
function rowOf(op: OperationKey): { op: OperationKey; method: string; bad: string; unknown: string; noScope: string } {
  const card: OperationCard = cards[op];
  const params = Object.fromEntries(Object.entries(card.params).map(([name, rule]) => [name, fixtureId(rule.fixture)]));
  const [first] = Object.keys(params) as [string];
  const withFirst = (value: string) => pathOf(op, { ...params, [first]: value });
  const client = loadFixtures().data.clients.find((c) => c.role === card.roleWithoutScope);
  if (!client) throw new Error(`the default fixtures have no client of the role ${card.roleWithoutScope}`);
  return {
    op,
    method: card.spec.method,
    bad: withFirst(params[first]!.slice(0, -1)),
    unknown: withFirst(unknownIdLike(params[first]!)),
    noScope: client.name,
  };
}
const rows = operationKeys.map(rowOf);

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
