// Quotas of issued tokens: every client-credentials answer of a client with a quota says what is
// left of each bucket; past a quota the endpoint answers 429 and issues nothing; windows start at
// the UTC hour and day; a client without a quota gets no header; a refused request takes nothing.
import { describe, expect, test } from 'vitest';
import { observed, tokenPath } from '../../specs/index.ts';
import { ManualClock } from '../clock.ts';
import { parseCli } from '../cli-options.ts';
import { MockConfigError } from '../config-error.ts';
import { defaultFixturesPath, loadFixtures } from '../fixtures.ts';
import { call, client, tokenRequest } from './support/http.ts';
import { mockForTest } from './support/mock.ts';

const HEADER = observed.tokens.quota.header.toLowerCase();
/** 10:59:00 UTC: a minute before the hour's window ends. */
const START = Date.UTC(2025, 0, 1, 10, 59, 0);

const mint = (mock: Parameters<typeof call>[0], name = 'global') => call(mock, 'POST', tokenPath, { body: tokenRequest(mock, name) });

describe('the token quota header', () => {
  test('says what is left of each bucket and when it resets, on every token issued', async () => {
    const mock = await mockForTest({ clock: new ManualClock(START), tokenQuota: { perHour: 3, perDay: 5 } });
    const first = await mint(mock);
    expect(first.status).toBe(200);
    expect(first.headers[HEADER]).toBe(`b=per_hour;q=3;r=2;t=60,b=per_day;q=5;r=4;t=${13 * 3600 + 60}`);
    expect((await mint(mock)).headers[HEADER]).toMatch(/^b=per_hour;q=3;r=1;t=60,b=per_day;q=5;r=3;/);
    expect(mock.components.tokenQuotas.issuedTo(client(mock, 'global').client_id)).toBe(2);
  });

  test('is absent for a client without a quota', async () => {
    const mock = await mockForTest({ clock: new ManualClock(START) });
    const answer = await mint(mock);
    expect(answer.status).toBe(200);
    expect(answer.headers[HEADER]).toBeUndefined();
    expect(mock.components.tokenQuotas.issued).toBe(1);
  });
});

describe('past a quota', () => {
  test('the endpoint answers 429 with the header and Retry-After, and issues nothing, until the window turns', async () => {
    const clock = new ManualClock(START);
    const mock = await mockForTest({ clock, tokenQuota: { perHour: 2 } });
    await mint(mock);
    await mint(mock);
    const refused = await mint(mock);
    expect(refused.status).toBe(observed.tokens.quota.exceeded.status);
    expect(refused.json).toEqual({ error: 'too_many_requests', error_description: observed.tokens.quota.exceeded.description });
    expect(refused.headers[HEADER]).toBe('b=per_hour;q=2;r=0;t=60');
    expect(refused.headers['retry-after']).toBe('60');
    expect(mock.components.tokenQuotas.issued).toBe(2);
    clock.advance(60_000);
    const next = await mint(mock);
    expect(next.status).toBe(200);
    expect(next.headers[HEADER]).toBe('b=per_hour;q=2;r=1;t=3600');
  });

  test('the daily bucket holds past the hour', async () => {
    const clock = new ManualClock(START);
    const mock = await mockForTest({ clock, tokenQuota: { perHour: 5, perDay: 1 } });
    expect((await mint(mock)).status).toBe(200);
    clock.advance(3_600_000);
    const refused = await mint(mock);
    expect(refused.status).toBe(429);
    expect(refused.headers[HEADER]).toMatch(/b=per_day;q=1;r=0;t=\d+$/);
  });

  test('each client has its own count', async () => {
    const mock = await mockForTest({ clock: new ManualClock(START), tokenQuota: { perHour: 1 } });
    expect((await mint(mock, 'global')).status).toBe(200);
    expect((await mint(mock, 'global')).status).toBe(429);
    expect((await mint(mock, 'non-global')).status).toBe(200);
  });
});

test('a refused request (a wrong secret) takes nothing from the quota', async () => {
  const mock = await mockForTest({ clock: new ManualClock(START), tokenQuota: { perHour: 1 } });
  const wrong = await call(mock, 'POST', tokenPath, { body: tokenRequest(mock, 'global', { client_secret: 'not-the-secret' }) });
  expect(wrong.status).toBe(401);
  expect((await mint(mock)).status).toBe(200);
});

test("a client's own quota in the fixtures beats the tenant's", async () => {
  const fixtures = loadFixtures(defaultFixturesPath).data;
  const mock = await mockForTest({
    clock: new ManualClock(START),
    fixtures: {
      ...fixtures,
      token_quota: { per_hour: 5 },
      clients: fixtures.clients.map((c) => (c.name === 'global' ? { ...c, token_quota: { per_day: 1 } } : c)),
    },
  });
  expect((await mint(mock, 'global')).headers[HEADER]).toMatch(/^b=per_day;q=1;r=0;/);
  expect((await mint(mock, 'non-global')).headers[HEADER]).toBe('b=per_hour;q=5;r=4;t=60');
});

test('--token-quota takes PER_HOUR/PER_DAY and names itself when it is wrong', () => {
  const command = parseCli(['--token-quota', '10/50']);
  expect(command.kind === 'start' && command.options.tokenQuota).toEqual({ perHour: 10, perDay: 50 });
  expect(() => parseCli(['--token-quota', '10'])).toThrow(MockConfigError);
  expect(() => parseCli(['--token-quota', '0/5'])).toThrow(/--token-quota must be PER_HOUR\/PER_DAY/);
});
