// End to end, rate-limit headers the pacer cannot use (issue 18, item 3): a Reset in the past, a
// Limit of 0, no headers at all. Each run ends within its bound without 429s outside the
// exhaustion, names what it did not use, still exhausts the bucket for the 429 clause, and no
// failure lands on a clause that is not about the rate-limit headers.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type RouteHandler, type RouteKey } from '../../mock/index.ts';
import { resultsOf, run, writeTargetFile } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'rate-limit-headers-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ROUTES: RouteKey[] = ['redeliver', 'sso-ticket', 'vault', 'not-found', 'method-not-allowed'];
const BUCKET = { bucketSize: 20, refillPerSecond: 20 };

/** A tenant (no test double) whose management answers carry the headers `edit` makes of the mock's. */
async function conformance(name: string, edit: (headers: Record<string, string>) => Record<string, string>) {
  const mock = await createMockServer({
    rateLimit: BUCKET,
    report: () => {},
    customize: (hooks) => {
      for (const route of ROUTES)
        hooks.wrapRoute(route, (next: RouteHandler): RouteHandler => async (exchange) => {
          const reply = await next(exchange);
          return { ...reply, headers: edit({ ...reply.headers }) };
        });
    },
  });
  try {
    const target = writeTargetFile({
      url: mock.url,
      dir: work,
      name: `${name}.yaml`,
      asTenant: true,
      // The refill is declared: where the headers cannot be read, the safe rate is half of it.
      change: (t) => (t.rate_limit = { refill_per_second: BUCKET.refillPerSecond }),
    });
    const out = join(work, name);
    const started = Date.now();
    const finished = await run(
      'cli/conformance.ts',
      [
        '--target-file',
        target.path,
        '--operation',
        'vault,redeliver',
        '--allow-rate-limit-exhaustion',
        '--run-timeout',
        '120',
        '--out',
        out,
      ],
      target.env,
      180_000,
    );
    return { finished, results: resultsOf(out), wallMs: Date.now() - started, summary: readFileSync(join(out, 'summary.md'), 'utf8') };
  } finally {
    await mock.close();
  }
}

const RATE_LIMIT_CLAUSES = /^(rate-limit\.|redeliver\.errors\.429|errors\.429)/;

describe.each([
  [
    'a Reset in the past',
    (h: Record<string, string>) => ({ ...h, 'X-RateLimit-Reset': '1600000000' }),
    /X-RateLimit-Reset 1600000000 is before the answer's time/,
  ],
  ['a Limit of 0', (h: Record<string, string>) => ({ ...h, 'X-RateLimit-Limit': '0' }), /X-RateLimit-Limit 0 allows nothing/],
])('a target sending %s', (name, edit, named) => {
  it('is paced without a 429 outside the exhaustion, names the header once, and still reaches a 429', async () => {
    const { finished, results, summary } = await conformance(name.replace(/\W+/g, '-'), edit);
    expect(finished.stdout).toMatch(new RegExp(`^rate limit: not used for pacing: ${named.source}`, 'm'));
    expect(finished.stdout.match(/^rate limit: not used for pacing: /gm)).toHaveLength(1);
    expect(summary).toMatch(named);
    expect(results.info.unplanned429s).toBe(0);
    expect(results.tests.find((t) => t.clause === 'redeliver.errors.429')?.state).toBe('passed');
    expect(results.tests.filter((t) => t.state === 'failed' && !RATE_LIMIT_CLAUSES.test(t.clause ?? ''))).toEqual([]);
  }, 200_000);
});

describe('a target sending no rate-limit headers', () => {
  it('is paced at the safe rate, says so, and fails only the clauses about the headers', async () => {
    const { finished, results, wallMs } = await conformance('no-headers', (h) => {
      for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) delete h[name];
      return h;
    });
    expect(finished.stdout).toMatch(/^rate limit: no usable X-RateLimit-Limit and X-RateLimit-Remaining: paced at the safe rate/m);
    expect(results.info.pacing).toMatchObject({ readsBucket: false, refillSource: 'declared', problems: [] });
    expect(results.info.unplanned429s).toBe(0);
    // Half the declared refill: well within the bound, never the old crawl.
    const paced = results.requests - (results.info.shared['rate-limit exhaustion'] ?? 0);
    expect(wallMs / 1000).toBeLessThan(paced / (BUCKET.refillPerSecond / 2) + 60);
    expect(results.tests.find((t) => t.clause === 'redeliver.errors.429')?.state).toBe('passed');
    const failed = results.tests.filter((t) => t.state === 'failed').map((t) => t.clause);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.filter((clause) => !RATE_LIMIT_CLAUSES.test(clause ?? ''))).toEqual([]);
  }, 200_000);
});
