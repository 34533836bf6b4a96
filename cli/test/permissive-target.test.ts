// End to end: every refusal of the request-model matrix can fail. Against a server that answers
// every request of the three operations as it answered the last one it served, and every other
// request under the base path as the last one of any operation (a permissive gateway, a handler
// that validates nothing, a router that matches loosely), each row that expects a refusal (a 4xx, a 404, an
// observed error, one of two statuses) must fail, filed under its own clause; a row that passes
// there would be a check no server can fail. The rate limit stays (a 429 is passed on), so the run
// paces as against any target. It is the converse of cli/test/positive-controls.test.ts, whose
// server refuses everything: there every acceptance fails.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../mock/index.ts';
import type { Reply, RouteKey } from '../../mock/exchange.ts';
import { operationKeys, type OperationKey } from '../../specs/index.ts';
import { cards } from '../../specs/cards/index.ts';
import { matrix } from '../../specs/matrix/index.ts';
import { BASE_NOTES, rowTitle } from '../../harness/suite/matrix.ts';
import { resultsOf, runAgainstDouble, type Finished } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'permissive-target-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The title of every test of a row of the three operations that expects only refusals, with its clause. */
function refusalTests(): Map<string, string> {
  const titles = new Map<string, string>();
  for (const card of Object.values(cards)) {
    for (const row of matrix().operations[card.key]) {
      if (!('checks' in row.expectation) || row.expectation.checks.some((c) => c.outcome.kind === 'accept')) continue;
      const what = `${row.element.label} ${row.variant.says}${BASE_NOTES[row.base]}`;
      for (const check of row.expectation.checks) titles.set(rowTitle(card.name, check, what), check.clause);
    }
  }
  return titles;
}

describe('a target that answers every operation request as it answered the last one it served', () => {
  let mock: MockServer;
  let finished: Finished;
  const out = join(work, 'reports');

  beforeAll(async () => {
    ({ mock, finished } = await runAgainstDouble(work, out, (hooks) => {
      // Each operation answers as it last served; a request no operation's route takes (another
      // method, a path near the operation's) as the last request served of any operation.
      let last: Reply | undefined;
      const permissive = (key: RouteKey) => {
        let served: Reply | undefined;
        hooks.wrapRoute(key, (next) => async (exchange) => {
          const reply = await next(exchange);
          if (reply.status >= 200 && reply.status < 300) last = served = reply;
          const answer = operationKeys.includes(key as OperationKey) ? served : last;
          if (reply.status === 429 || answer === undefined) return reply;
          return { ...answer, headers: { ...answer.headers, ...rateLimitOnly(reply.headers) } };
        });
      };
      for (const key of [...operationKeys, 'not-found', 'method-not-allowed'] as const) permissive(key);
    }));
  }, 620_000);

  afterAll(async () => {
    await mock.close();
  });

  it('fails every refusal row of the matrix that ran, each under its own clause', () => {
    const refusals = refusalTests();
    const ran = resultsOf(out).tests.filter((t) => refusals.has(t.name) && t.state !== 'skipped');
    expect(ran.length).toBeGreaterThan(4500);
    expect(ran.filter((t) => t.state !== 'failed').map((t) => `${t.state}: ${t.name}`)).toEqual([]);
    expect(ran.filter((t) => t.clause !== refusals.get(t.name)).map((t) => t.name)).toEqual([]);
    expect(resultsOf(out).verdict).toBe('FAIL');
    expect(finished.code).toBe(1);
  });
});

function rateLimitOnly(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase().startsWith('x-ratelimit-')));
}
