// End to end: `npm start` as a user runs it, against the embedded mock, and against a mock started
// by hand as the README says in two shards, merged; what it writes (JUnit valid for CI tools,
// results.json, summary.md); and the secrets of the target file never appear in what it prints or
// writes. Its failures, refusals and misbehaving targets: conformance-run-failures.test.ts.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clauses } from '../../specs/index.ts';
import { expectNoSecret, reports, SEED, targetFileFor } from './support/end-to-end.ts';
import { junitProblems } from './support/junit-schema.ts';
import { outcomes, resultsOf, root, run, startMockProgram, type Finished } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'conformance-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * The README's two lines that run the suite against a mock started by hand ("The mock server"):
 * the mock's arguments, and the suite's after the target file. targets/mock.yaml repeats them.
 */
function byHandCommands(): { mock: string[]; suite: string[] } {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block =
    /To run the suite against a mock you started yourself[\s\S]*?```sh\n(npm run mock -- .*)\n(npm start -- --target-file targets\/mock\.yaml.*)\n```/.exec(
      readme,
    );
  if (!block) throw new Error('README.md no longer has the two lines that run the suite against a mock started by hand');
  const mock = block[1]!.split(' ').slice(4);
  const suite = block[2]!.split(' ').slice(5);
  return { mock, suite };
}

describe('npm start against the embedded mock', () => {
  const out = join(work, 'embedded');
  let finished: Finished;
  beforeAll(async () => {
    // The embedded run's own number of generated cases, which the README's hand-started run asks for.
    // In a process of its own, as a user's `npm start` is (the other runs share the command host).
    finished = await run('cli/conformance.ts', ['--seed', SEED, '--num-runs', '20', '--out', out], {}, 120_000, { ownProcess: true });
  }, 180_000);

  it('exits 0 and says PASS, every gating clause verified', () => {
    expect(finished.stderr).toBe('');
    expect(finished.code).toBe(0);
    expect(finished.stdout).toContain('RESULT: PASS');
    const gating = clauses.filter((c) => c.level === 'contract' && c.testable).length;
    expect(finished.stdout).toContain(`gating clauses: ${gating} verified, 0 failed, 0 partial, 0 not verified, 0 not selected`);
  });

  // The conformant mock serves every test: a test skips only where what it reads is not there
  // (a choice the contract leaves the target, a bucket too big to wait out). A positive control
  // refused, a shared request not got, a need unmet would each say the suite's own requests are wrong.
  it('skips no test but those that do not apply to what the conformant mock chose', () => {
    const skipped = resultsOf(out).tests.filter((t) => t.state === 'skipped');
    expect(skipped.filter((t) => t.skip?.category !== 'not-applicable').map((t) => `${t.name}: ${t.skip?.reason ?? ''}`)).toEqual([]);
  });

  it('prints the seed, the requests used and the wall time', () => {
    expect(finished.stdout).toContain(`seed ${SEED}`);
    expect(finished.stdout).toMatch(/requests: \d+ sent/);
    expect(finished.stdout).toMatch(/wall time of the whole run: \d+\.\d s/);
  });

  it("writes JUnit files valid for the CI tools, and results.json with every test's clause and level", () => {
    const [junit, observed] = reports(out);
    expect(junitProblems(junit!)).toEqual([]);
    expect(junitProblems(observed!)).toEqual([]);
    expect((junit!.match(/<testcase /g) ?? []).length).toBeGreaterThan(100);
    expect(junit).toMatch(/<testsuites [^>]* failures="0"/);
    const results = resultsOf(out);
    expect(results.verdict).toBe('PASS');
    expect(results.tests.every((t) => t.clause && t.level)).toBe(true);
  });

  it('writes summary.md with a row per clause', () => {
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary).toContain('Result: **PASS**');
    // The clause's row counts its tests as the run's results do (passed of all), not a number pinned here.
    const tests = resultsOf(out).tests.filter((t) => t.clause === 'redeliver.errors.409.state');
    expect(tests.length).toBeGreaterThan(1);
    expect(summary).toContain(`| \`redeliver.errors.409.state\` | 7 | contract | ${tests.length}/${tests.length} | ✅ verified |`);
  });

  it('keeps the secrets of the target, its tokens and its tickets out of its output and reports', () => {
    expectNoSecret(finished.stdout, finished.stderr, ...reports(out));
  });

  // The README's two lines, each shard of the run against a mock of its own started by them (two
  // shards against one mock would share its rate limit: the exhaustion drains the bucket the other
  // shard then waits on), merged as a CI's sharded job merges them.
  describe('and against the same mock started by hand as the README says, in two shards merged', () => {
    const handOut = join(work, 'by-hand');
    const commands = byHandCommands();
    let shards: Finished[];
    let merged: Finished;
    beforeAll(async () => {
      const keyFile = join(work, 'keys', 'mock.pem');
      const mockArgs = commands.mock.map((arg, i, all) => (all[i - 1] === '--port' ? '0' : all[i - 1] === '--signing-key' ? keyFile : arg));
      shards = [];
      for (const shard of ['1/2', '2/2']) {
        const mock = await startMockProgram(mockArgs);
        try {
          // The bucket the README's line starts the mock with (--rate-limit <bucket>/<refill>), as targets/mock.yaml states it.
          const bucket = Number(commands.mock[commands.mock.indexOf('--rate-limit') + 1]!.split('/')[0]);
          const target = targetFileFor(work, mock.url, keyFile, 'by-hand.yaml', (t) => (t.rate_limit.bucket_size = bucket));
          shards.push(
            await run(
              'cli/conformance.ts',
              ['--target-file', target.path, '--seed', SEED, ...commands.suite, '--shard', shard, '--out', handOut],
              target.env,
            ),
          );
        } finally {
          await mock.stop();
        }
      }
      merged = await run('cli/merge-reports.ts', ['--out', handOut]);
    }, 240_000);

    it('gives the same result for every test, and the verdict of a whole run', () => {
      expect(shards.map((s) => s.code)).toEqual([0, 0]);
      expect(merged.code).toBe(0);
      expect(merged.stdout).toContain('RESULT: PASS');
      const embedded = outcomes(out);
      const handStarted = outcomes(handOut);
      expect(handStarted.size).toBe(embedded.size);
      expect([...handStarted.entries()].filter(([name, outcome]) => embedded.get(name) !== outcome)).toEqual([]);
      expect(junitProblems(readFileSync(join(handOut, 'junit.xml'), 'utf8'))).toEqual([]);
    });

    it('with the same lines as targets/mock.yaml gives', () => {
      const described = readFileSync(join(root, 'targets', 'mock.yaml'), 'utf8');
      expect(described).toContain(`npm run mock -- ${commands.mock.join(' ')}`);
      expect(described).toContain(`npm start -- --target-file targets/mock.yaml ${commands.suite.join(' ')}`);
      const bucket = commands.mock[commands.mock.indexOf('--rate-limit') + 1]!.split('/')[0];
      expect(described).toMatch(new RegExp(`^rate_limit: \\{.*bucket_size: ${bucket} \\}$`, 'm'));
    });

    it('keeps the secrets from the environment out of its output and reports', () => {
      expectNoSecret(...shards.flatMap((s) => [s.stdout, s.stderr]), merged.stdout, merged.stderr, ...reports(handOut));
    });

    it('and merge-reports fails, naming the missing shard, when one is missing', async () => {
      const partial = join(work, 'sharded-partial');
      mkdirSync(join(partial, 'shards', '1-of-2'), { recursive: true });
      writeFileSync(join(partial, 'shards', '1-of-2', 'results.json'), readFileSync(join(handOut, 'shards', '1-of-2', 'results.json')));
      const finished = await run('cli/merge-reports.ts', ['--out', partial]);
      expect(finished.code).toBe(3);
      expect(finished.stderr).toMatch(/^error: shard 2\/2 is missing \(no .*shards\/2-of-2\/results\.json\)/);
      const told = await run('cli/merge-reports.ts', ['--out', partial, '--shards', '3']);
      expect(told.stderr).toMatch(/^error: shard 1\/3, shard 2\/3, shard 3\/3 are missing/);
    });
  });
});

it('merge-reports has its help', async () => {
  const finished = await run('cli/merge-reports.ts', ['--help']);
  expect(finished.code).toBe(0);
  expect(finished.stdout).toContain('Usage: npm run merge-reports -- [--out DIR] [--shards N]');
});
