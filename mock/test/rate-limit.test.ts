// The rate limit over HTTP, with a manual clock: every /api/v2 answer carries the three headers
// (errors too), the bucket drains and refills, and an empty bucket answers the observed 429.
import { expect, test } from 'vitest';
import { observed, tokenPath } from '../../specs/index.ts';
import { ManualClock } from '../clock.ts';
import { call, tokenFor, tokenRequest, type Answer } from './support/http.ts';
import { expectError } from './support/expect.ts';
import { mockForTest } from './support/mock.ts';
import { fixtureIds as ids, vaultPath } from './support/paths.ts';

const names = observed.rate_limit.headers;
const START = Date.UTC(2025, 0, 1, 0, 0, 0, 400);

function quota(answer: Answer) {
  return {
    limit: Number(answer.headers[names.limit.toLowerCase()]),
    remaining: Number(answer.headers[names.remaining.toLowerCase()]),
    reset: Number(answer.headers[names.reset.toLowerCase()]),
  };
}

async function setup(bucketSize: number, refillPerSecond: number) {
  const clock = new ManualClock(START);
  const mock = await mockForTest({ clock, rateLimit: { bucketSize, refillPerSecond } });
  const token = await tokenFor(mock, 'global');
  return { clock, mock, read: () => call(mock, 'GET', vaultPath(ids.vaultFull), { token }) };
}

test('every /api/v2 answer carries the three headers: success, 401, 404 and an unknown path', async () => {
  const { mock, read } = await setup(10, 1);
  const answers = [
    await read(),
    await call(mock, 'GET', vaultPath(ids.vaultFull)),
    await call(mock, 'GET', vaultPath('ac_NbWaizZTo4vfWnCwDq76Vk'), { token: await tokenFor(mock, 'global') }),
    await call(mock, 'GET', '/api/v2/unknown'),
  ];
  expect(answers.map((a) => a.status)).toEqual([200, 401, 404, 404]);
  expect(answers.map((a) => quota(a).remaining)).toEqual([9, 8, 7, 6]);
});

test('the token endpoint has a bucket of its own: its headers, not the management bucket; the JWKS has none', async () => {
  const { mock, read } = await setup(10, 1);
  const token = await call(mock, 'POST', tokenPath, { body: tokenRequest(mock, 'global') });
  const jwks = await call(mock, 'GET', observed.tokens.jwks_path);
  expect(quota(token).limit).toBe(observed.tokens.rate_limit.bucket_size);
  expect(jwks.headers[names.limit.toLowerCase()]).toBeUndefined();
  expect(quota(await read()).remaining).toBe(9);
});

test('the token endpoint answers 429 in its own shape when its bucket is empty', async () => {
  const { mock } = await setup(10, 1);
  const limit = observed.tokens.rate_limit.bucket_size;
  const answers: Answer[] = [];
  for (let i = 0; i <= limit; i += 1) answers.push(await call(mock, 'POST', tokenPath, { body: tokenRequest(mock, 'global') }));
  expect(answers.filter((a) => a.status === 200).length).toBe(limit - 1);
  const refused = answers.at(-1)!;
  expect({ status: refused.status, body: refused.json, remaining: quota(refused).remaining }).toEqual({
    status: 429,
    body: { error: 'too_many_requests', error_description: observed.tokens.errors.too_many_requests!.description },
    remaining: 0,
  });
});

test.for([
  ['free', observed.rate_limit.profiles.free.bucket_size],
  ['production', observed.rate_limit.profiles.production.bucket_size],
] as const)('the %s profile is the published management bucket', async ([profile, bucketSize]) => {
  const mock = await mockForTest({ clock: new ManualClock(START), rateLimitProfile: profile });
  const token = await tokenFor(mock, 'global');
  const answers: Answer[] = [];
  for (let i = 0; i <= bucketSize; i += 1) answers.push(await call(mock, 'GET', vaultPath(ids.vaultFull), { token }));
  expect(answers.map((a) => a.status)).toEqual([...Array<number>(bucketSize).fill(200), 429]);
  expect(quota(answers[0]!).limit).toBe(bucketSize);
});

test('unlimited never answers 429 and still sends the headers, at both endpoints', async () => {
  const mock = await mockForTest({ clock: new ManualClock(START), rateLimitProfile: 'unlimited' });
  const tokens = await Promise.all(Array.from({ length: 40 }, () => call(mock, 'POST', tokenPath, { body: tokenRequest(mock, 'global') })));
  const token = (tokens[0]!.json as { access_token: string }).access_token;
  const reads = await Promise.all(Array.from({ length: 300 }, () => call(mock, 'GET', vaultPath(ids.vaultFull), { token })));
  expect(new Set([...tokens, ...reads].map((a) => a.status))).toEqual(new Set([200]));
  expect(reads.map(quota).filter((q) => !(q.remaining > 0 && q.limit > 0))).toEqual([]);
});

test('explicit numbers beat a profile', async () => {
  const mock = await mockForTest({
    clock: new ManualClock(START),
    rateLimitProfile: 'free',
    rateLimit: { bucketSize: 3, refillPerSecond: 1 },
  });
  const answer = await call(mock, 'GET', vaultPath(ids.vaultFull), { token: await tokenFor(mock, 'global') });
  expect(quota(answer).limit).toBe(3);
});

test('draining the bucket ends in the observed 429, with the headers, Remaining 0 and Reset not in the past', async () => {
  const { clock, read } = await setup(3, 1);
  const answers = [await read(), await read(), await read(), await read()];
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
  const refused = answers[3]!;
  expectError(refused, 'too_many_requests');
  expect(quota(refused)).toEqual({ limit: 3, remaining: 0, reset: Math.ceil((START + 1000) / 1000) });
  expect(quota(refused).reset).toBeGreaterThanOrEqual(Math.floor(clock.now() / 1000));
});

test('Limit stays the bucket size and Remaining falls by one per request', async () => {
  const { read } = await setup(5, 1);
  const seen = [await read(), await read(), await read()].map(quota);
  expect(seen.map((q) => q.limit)).toEqual([5, 5, 5]);
  expect(seen.map((q) => q.remaining)).toEqual([4, 3, 2]);
});

test('the bucket refills with time: after Reset, a request passes again', async () => {
  const { clock, read } = await setup(1, 2);
  await read();
  const refused = await read();
  expect(refused.status).toBe(429);
  clock.set(quota(refused).reset * 1000);
  expect((await read()).status).toBe(200);
});

test('the Date header follows the injected clock', async () => {
  const { read } = await setup(5, 1);
  expect((await read()).headers.date).toBe(new Date(START).toUTCString());
});
