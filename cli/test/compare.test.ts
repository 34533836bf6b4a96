// compare and history: two real runs of the suite that keep their exchanges, one against the mock
// and one against the mock with a planted fault, set side by side; a planted difference in a copy
// of a run found fact by fact; and the per-clause history of a folder of runs.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMockServer } from '../../mock/index.ts';
import { compareRuns, type Comparison } from '../compare/comparison.ts';
import { loadRun } from '../compare/runs.ts';
import { historyOf } from '../history/history.ts';
import { summarize, type RunResult } from '../reporters/results.ts';
import { info, outcome } from './support/made-up-results.ts';
import { run, writeTargetFile } from './support/programs.ts';

const dir = mkdtempSync(join(tmpdir(), 'compare-'));
const readResults = (out: string) => JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult;
const runs = { clean: join(dir, 'clean'), faulty: join(dir, 'faulty') };

/** The suite's tests of the vault read's 404, recorded, against the mock with these faults. */
async function recordedRun(out: string, faults: string[]): Promise<void> {
  const mock = await createMockServer({ faults, rateLimit: { bucketSize: 1_000, refillPerSecond: 100 }, report: () => {} });
  try {
    const target = writeTargetFile({ url: mock.url, dir, name: `${faults.join('-') || 'clean'}.yaml` });
    const done = await run(
      'cli/conformance.ts',
      ['--target-file', target.path, '--seed', '5', '--num-runs', '0', '--operation', 'vault', '--record', '--out', out],
      target.env,
    );
    if (done.code === null || done.code > 4) throw new Error(`the suite did not run: ${done.stdout}\n${done.stderr}`);
  } finally {
    await mock.close();
  }
}

beforeAll(async () => {
  await recordedRun(runs.clean, []);
  await recordedRun(runs.faulty, ['vault-404-generic-message']);
}, 240_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--record', () => {
  test('keeps every exchange of the run, redacted, its tokens decoded beside it', () => {
    const text = readFileSync(join(runs.clean, 'exchanges.ndjson'), 'utf8');
    const secrets = Object.values(writeTargetFile({ url: 'http://127.0.0.1:1', dir, name: 'secrets.yaml' }).env);
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tokens?: { sent?: { claims: object } } });
    expect({
      jwts: /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*\./.test(text),
      secrets: secrets.filter((secret) => text.includes(secret)),
      decoded: lines.some((l) => l.tokens?.sent?.claims !== undefined),
      count: lines.length === readResults(runs.clean).requests - readResults(runs.clean).info.preflightRequests,
    }).toEqual({ jwts: false, secrets: [], decoded: true, count: true });
  });
});

describe('compare', () => {
  test('finds the clause, the test and the exchange a planted fault changed, and exits 1', async () => {
    const out = join(dir, 'compared');
    const done = await run('cli/compare.ts', [runs.clean, runs.faulty, '--out', out]);
    const comparison = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as Comparison;
    const messages = comparison.exchanges!.differing.flatMap((d) => d.facts.filter((f) => f.fact === 'message'));
    expect({
      code: done.code,
      clauses: comparison.clauses.filter((c) => c.kind === 'broke').map((c) => c.id),
      messages: [...new Set(messages.map((f) => `${f.a} → ${f.b}`))],
    }).toEqual({
      code: 1,
      clauses: ['errors.404.vault'],
      messages: ['Connection not found → Not Found'],
    });
    expect(done.stdout).toMatch(/BROKE \[§7 errors\.404\.vault\]/);
  });

  test('finds nothing between a run and itself, and exits 0', async () => {
    const done = await run('cli/compare.ts', [runs.clean, runs.clean, '--out', join(dir, 'self')]);
    expect({
      code: done.code,
      said: /0 clauses passed in A and failed in B.*0 tests.*0 of (\d+) paired exchanges differ, 0 only in A, 0 only in B/.test(
        done.stdout,
      ),
    }).toEqual({
      code: 0,
      said: true,
    });
  });

  test('finds a difference planted in a copy of a run, fact by fact', () => {
    const copy = join(dir, 'planted');
    cpSync(runs.clean, copy, { recursive: true });
    const lines = readFileSync(join(copy, 'exchanges.ndjson'), 'utf8').trim().split('\n');
    const index = lines.findIndex((line) => line.includes('\\"ready\\":true'));
    const exchange = JSON.parse(lines[index]!);
    exchange.response.headers['content-type'] = 'application/json';
    exchange.response.body = JSON.stringify({ ...JSON.parse(exchange.response.body), ready: 'yes' });
    lines[index] = JSON.stringify(exchange);
    writeFileSync(join(copy, 'exchanges.ndjson'), `${lines.join('\n')}\n`);
    const comparison = compareRuns(loadRun(runs.clean), loadRun(copy));
    expect(comparison.exchanges?.differing.map((d) => d.facts)).toEqual([
      [
        { fact: 'fields', a: 'ready: boolean', b: 'ready: string' },
        { fact: 'header content-type', a: 'application/json; charset=utf-8', b: 'application/json' },
      ],
    ]);
  });

  test('a directory that holds no run is a usage error naming it', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const done = await run('cli/compare.ts', [empty, runs.clean, '--out', join(dir, 'nothing')]);
    expect({ code: done.code, stderr: done.stderr }).toEqual({
      code: 2,
      stderr: expect.stringContaining(`${empty}/results.json is not a run's results.json`),
    });
  });
});

describe('history', () => {
  /** A made-up run started at `startedAt` in which these clauses failed and every other verified. */
  function writeRun(name: string, startedAt: string, failing: string[]): void {
    const testable = ['vault.scope', 'errors.404.vault', 'redeliver.success.202'];
    const result = summarize(
      testable.map((id) => outcome(id, failing.includes(id) ? 'failed' : 'passed')),
      [],
      { ...info, startedAt },
    );
    mkdirSync(join(dir, 'history', name), { recursive: true });
    writeFileSync(join(dir, 'history', name, 'results.json'), JSON.stringify(result));
  }

  test('says when each clause last changed and how often it flipped', () => {
    writeRun('monday', '2026-11-23T10:00:00.000Z', []);
    writeRun('wednesday', '2026-11-25T10:00:00.000Z', []);
    writeRun('tuesday', '2026-11-24T10:00:00.000Z', ['errors.404.vault']);
    const history = historyOf(join(dir, 'history'));
    const of = (id: string) => history.clauses.find((c) => c.id === id)!;
    expect({
      runs: history.runs.map((r) => r.file),
      flipping: [of('errors.404.vault').flips, of('errors.404.vault').lastChanged],
      steady: [of('vault.scope').flips, of('vault.scope').lastChanged],
    }).toEqual({
      runs: ['monday/results.json', 'tuesday/results.json', 'wednesday/results.json'],
      flipping: [2, { run: 2, from: 'failed', to: 'verified' }],
      steady: [0, undefined],
    });
  });

  test('writes the history as HTML with the clauses that flipped first', async () => {
    const out = join(dir, 'history-out');
    const done = await run('cli/history.ts', [join(dir, 'history'), '--out', out]);
    const page = readFileSync(join(out, 'history.html'), 'utf8');
    expect({
      code: done.code,
      first: /<tbody>\n<tr><td><code>([^<]+)<\/code>/.exec(page.slice(page.indexOf('id="clauses"')))?.[1],
    }).toEqual({
      code: 0,
      first: 'errors.404.vault',
    });
  });
});
