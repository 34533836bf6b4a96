// End to end: the deterministic requests of a run do not depend on its seed. Two runs with other
// seeds and no generated cases (--num-runs 0) send the same requests (method, path, query, body
// and the headers that are not the credential's), as the target sees them: every bound is tested
// at its exact value whatever the seed, and seeds only draw the random cases added on top.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../mock/index.ts';
import { run, testDouble } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'seed-independence-'));
/**
 * Headers a client or a credential makes differently on every run (the token travels in the last
 * two too, and its claims in the headers a mesh forwards them in; a Date header, sent by the
 * time-claim rows, is the wall clock's, like a token's times, and so is If-Modified-Since, at the
 * date of an earlier answer).
 */
const VARYING = new Set([
  'authorization',
  'host',
  'content-length',
  'connection',
  'user-agent',
  'x-forwarded-authorization',
  'proxy-authorization',
  'cookie',
  'sec-websocket-protocol',
  'x-access-token',
  'date',
  'if-modified-since',
  // A key must be new on every run (a key used before is a retry): made of the clock, not the seed.
  'idempotency-key',
  // A token's claims, or the token, where a mesh or a gateway forwards them (its times are the clock's).
  'x-jwt-payload',
  'x-jwt-claims',
  'x-apigateway-api-userinfo',
  'x-endpoint-api-userinfo',
  'x-jwt-assertion',
]);

describe('the deterministic requests of two runs with other seeds', () => {
  let mock: MockServer;
  const seen: string[][] = [[], []];
  let current = 0;

  beforeAll(async () => {
    const double = await testDouble(work, (hooks) => {
      for (const key of ['redeliver', 'sso-ticket', 'vault', 'not-found', 'method-not-allowed', 'token'] as const) {
        hooks.wrapRoute(key, (next) => async (exchange) => {
          const headers = Object.entries(exchange.headers)
            .filter(([name]) => !VARYING.has(name))
            .sort(([a], [b]) => a.localeCompare(b));
          // The token endpoint's body holds the secrets only; its requests are compared by path and headers.
          // A body's day start ahead (the seconds-as-an-instant rows) is the wall clock's day: the same
          // within a day, another across a midnight between the two runs.
          const body =
            key === 'token'
              ? ''
              : exchange.body
                  .toString('utf8')
                  .replace(/access_token=[^&]*/g, 'access_token=<token>')
                  .replace(/"\d{4}-\d{2}-\d{2}T00:00:00\.000Z"/g, '"<a day start>"');
          const query = exchange.query.replace(/access_token=[^&]*/g, 'access_token=<token>');
          const reply = await next(exchange);
          // A 429 (the token endpoint's own limit, met when two runs follow each other) is retried
          // after its Reset: the retry is the request, the refused attempt is timing, not the seed.
          // A body over the size limit is read only as far as the refusal: how far is timing, not the seed.
          const read = reply.status === 413 ? `<${exchange.headers['content-length']} bytes>` : body;
          if (reply.status !== 429) seen[current]!.push(JSON.stringify([exchange.method, exchange.path, query, headers, read]));
          return reply;
        });
      }
    });
    mock = double.mock;
    const target = double.target;
    for (const [index, seed] of ['11', '97'].entries()) {
      current = index;
      const finished = await run(
        'cli/conformance.ts',
        ['--target-file', target.path, '--seed', seed, '--num-runs', '0', '--grep-invert', 'rate-limit', '--out', join(work, seed)],
        target.env,
        600_000,
      );
      // Without the rate-limit files the run is filtered: INCOMPLETE at best, and nothing may fail.
      expect(finished.code, finished.stdout.slice(-2000)).toBe(4);
    }
  }, 1_240_000);

  afterAll(async () => {
    await mock.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('are the same requests', () => {
    expect(seen[0]!.length).toBeGreaterThan(500);
    const only = (a: string[], b: string[]) => a.filter((request) => !b.includes(request)).slice(0, 5);
    expect({ onlyFirst: only(seen[0]!, seen[1]!), onlySecond: only(seen[1]!, seen[0]!) }).toEqual({ onlyFirst: [], onlySecond: [] });
    const counts = (list: string[]) => list.reduce((m, r) => m.set(r, (m.get(r) ?? 0) + 1), new Map<string, number>());
    const [first, second] = [counts(seen[0]!), counts(seen[1]!)];
    const differing = [...new Set([...first.keys(), ...second.keys()])]
      .filter((r) => first.get(r) !== second.get(r))
      .map((r) => `${first.get(r) ?? 0} vs ${second.get(r) ?? 0}: ${r}`);
    expect(differing.slice(0, 5)).toEqual([]);
  });
});
