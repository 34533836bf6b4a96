// The fault hooks, proved by the three example faults: each changes exactly the behaviour its
// clause names, and an unknown id is refused with the list of valid ones. The catalogue's own
// checks (ids, clauses, families) are in fault-catalogue.test.ts.
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, test } from 'vitest';
import { createMockServer } from '../index.ts';
import { faultCatalogue } from '../faults/catalogue.ts';
import { MockConfigError } from '../config-error.ts';
import { call, tokenFor } from './support/http.ts';
import { mockForTest } from './support/mock.ts';
import { fixtureIds as ids, redeliverPath, vaultPath } from './support/paths.ts';

const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function unsignedTokenOf(token: string): Promise<string> {
  const { kid } = decodeProtectedHeader(token);
  return `${segment({ alg: 'none', typ: 'JWT', kid })}.${segment(decodeJwt(token))}.`;
}

describe('the catalogue', () => {
  test('an unknown fault id is refused, listing the valid ones', async () => {
    await expect(createMockServer({ faults: ['no-such-fault'] })).rejects.toThrow(
      new MockConfigError(`unknown fault "no-such-fault"; valid faults: ${faultCatalogue.map((f) => f.id).join(', ')}`),
    );
  });
});

describe('redeliver-200-instead-of-202', () => {
  test('redelivery of a failed event answers 200 instead of 202', async () => {
    const mock = await mockForTest({ faults: ['redeliver-200-instead-of-202'] });
    const answer = await call(mock, 'POST', redeliverPath(ids.stream, ids.failedEvent), { token: await tokenFor(mock, 'global') });
    expect(answer.status).toBe(200);
    expect(mock.faults).toEqual(['redeliver-200-instead-of-202']);
  });

  test('other answers of redelivery are untouched', async () => {
    const mock = await mockForTest({ faults: ['redeliver-200-instead-of-202'] });
    const answer = await call(mock, 'POST', redeliverPath(ids.stream, ids.deliveredEvent), { token: await tokenFor(mock, 'global') });
    expect(answer.status).toBe(409);
  });
});

describe('accepts-alg-none', () => {
  test('an unsigned token with valid claims is accepted', async () => {
    const mock = await mockForTest({ faults: ['accepts-alg-none'] });
    const unsigned = await unsignedTokenOf(await tokenFor(mock, 'global'));
    expect((await call(mock, 'GET', vaultPath(ids.vaultFull), { token: unsigned })).status).toBe(200);
  });

  test('without the fault the same token is refused', async () => {
    const mock = await mockForTest();
    const unsigned = await unsignedTokenOf(await tokenFor(mock, 'global'));
    expect((await call(mock, 'GET', vaultPath(ids.vaultFull), { token: unsigned })).status).toBe(401);
  });

  test('an unsigned token with bad claims is still refused', async () => {
    const mock = await mockForTest({ faults: ['accepts-alg-none'] });
    const claims = { ...decodeJwt(await tokenFor(mock, 'global')), iss: 'https://issuer.example.com/' };
    const unsigned = `${segment({ alg: 'none', typ: 'JWT' })}.${segment(claims)}.`;
    expect((await call(mock, 'GET', vaultPath(ids.vaultFull), { token: unsigned })).status).toBe(401);
  });
});

describe('never-limits', () => {
  test('more requests than the bucket holds are never answered 429', async () => {
    const mock = await mockForTest({ faults: ['never-limits'], rateLimit: { bucketSize: 2, refillPerSecond: 0.001 } });
    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await call(mock, 'GET', '/api/v2/unknown')).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404]);
  });

  test('without the fault the same requests reach 429', async () => {
    const mock = await mockForTest({ rateLimit: { bucketSize: 2, refillPerSecond: 0.001 } });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await call(mock, 'GET', '/api/v2/unknown')).status);
    expect(statuses).toEqual([404, 404, 429]);
  });
});

test("a fault's component override is seen by the components built after it", async () => {
  const mock = await mockForTest({ faults: ['never-limits'] });
  expect(mock.limiter).toBe(mock.components.limiter);
  expect(mock.limiter.take().remaining).toBe(mock.limiter.config.bucketSize);
});
