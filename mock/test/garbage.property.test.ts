// The mock never crashes or hangs, whatever it receives: generated hostile requests over raw TCP
// each get an answer that is a success or a well-formed JSON error (statusCode equal to the
// status, error its reason phrase, message a string; the token endpoint's own shape on its path),
// never a 500; and afterwards a normal request is answered correctly. Fixed seed; fast-check
// prints the seed and the failing request on failure.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { observed } from '../../specs/index.ts';
import { reasonPhrase } from '../errors.ts';
import { call, tokenFor } from './support/http.ts';
import { garbageRequest, type GarbageRequest } from './support/garbage-requests.ts';
import { mockForTest } from './support/mock.ts';
import { rawRequest, type RawResponse } from './support/raw.ts';
import { fixtureIds as ids, vaultPath } from './support/paths.ts';

const SEED = Number(process.env.MOCK_PROPERTY_SEED ?? 20_251_122);
const NUM_RUNS = 1500;
const MAX_BODY_BYTES = 16 * 1024;

function problemsOf(request: GarbageRequest, response: RawResponse | undefined): string[] {
  if (!response) return ['no answer before the socket closed'];
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`status ${response.status}`);
  if (response.headers['content-type'] !== observed.content_type) problems.push(`content-type ${response.headers['content-type']}`);
  if (request.method === 'HEAD') return problems;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(response.body) as Record<string, unknown>;
  } catch {
    return [...problems, `body is not JSON: ${response.body.slice(0, 80)}`];
  }
  if (response.status < 300) return problems;
  const tokenEndpoint = request.method === 'POST' && /^\/oauth\/token\/?(\?|$)/.test(request.path);
  if (tokenEndpoint && !('statusCode' in body)) {
    if (typeof body.error !== 'string' || typeof body.error_description !== 'string') problems.push(`token error body ${response.body}`);
    return problems;
  }
  if (body.statusCode !== response.status) problems.push(`statusCode ${String(body.statusCode)} for status ${response.status}`);
  if (body.error !== reasonPhrase(response.status)) problems.push(`error ${String(body.error)} for status ${response.status}`);
  if (typeof body.message !== 'string' || body.message.length === 0) problems.push('message is not a non-empty string');
  return problems;
}

test('every generated request gets a success or a well-formed JSON error, and the mock keeps working', async () => {
  const mock = await mockForTest({
    maxBodyBytes: MAX_BODY_BYTES,
    timeouts: { headersMs: 400, requestMs: 600, keepAliveMs: 200 },
    rateLimit: { bucketSize: 100_000, refillPerSecond: 100_000 },
  });
  const token = await tokenFor(mock, 'global');
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(garbageRequest(token, MAX_BODY_BYTES), async (request) => {
      const response = await rawRequest(mock, Buffer.from(request.bytes, 'latin1'), { timeoutMs: 3_000, head: request.method === 'HEAD' });
      if (response) statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const problems = problemsOf(request, response);
      if (problems.length > 0) throw new Error(`${request.label}: ${problems.join('; ')}`);
    }),
    { seed: SEED, numRuns: NUM_RUNS, endOnFailure: true },
  );
  // The property explored more than one kind of answer (a generator that only made 404s proves little).
  expect(statuses.size).toBeGreaterThan(5);
  const after = await call(mock, 'GET', vaultPath(ids.vaultFull), { token });
  expect(after.status).toBe(200);
  expect(after.json).toEqual(mock.fixtures.data.vault_connections!.find((v) => v.id === ids.vaultFull));
}, 30_000);
