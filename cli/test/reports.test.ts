// The verdict and the reports, from made-up results: PASS only when every gating clause is
// verified in full, FAIL on a gating failure, ERROR when the suite itself erred, INCOMPLETE
// otherwise, each unverified clause with its reason; the exit code each blames; JUnit files valid
// against junit-10.xsd's rules; the one-line failure message; the merge of shards; the GitHub
// annotations; what a target sent shown escaped and Markdown-safe.
import { describe, expect, it } from 'vitest';
import { failureSummary } from '../reporters/failure-summary.ts';
import { githubAnnotations } from '../reporters/github.ts';
import { renderJunit, renderObservedJunit } from '../reporters/junit.ts';
import { mergeShardResults } from '../reporters/merge.ts';
import { exitCodeOf } from '../options.ts';
import { printable } from '../reporters/printable.ts';
import { summarize, unverifiedReasons, type RunInfo, type RunResult, type TestOutcome } from '../reporters/results.ts';
import { renderSummary } from '../reporters/summary.ts';
import { junitProblems } from './support/junit-schema.ts';
import { everyClause, failing, info, outcome } from './support/made-up-results.ts';

describe('the verdict', () => {
  it('is PASS when every gating clause is verified', () => {
    expect(summarize(everyClause(), [], info).verdict).toBe('PASS');
  });

  it('is FAIL when a gating test fails, whatever else', () => {
    const tests = everyClause((t) => [
      ...t.filter((x) => x.clause !== 'redeliver.errors.404.stream'),
      failing('redeliver.errors.404.stream'),
    ]);
    expect(summarize(tests, [], info).verdict).toBe('FAIL');
  });

  it('is INCOMPLETE, naming the clause and why, when a gating clause ran only in part', () => {
    const skipped = outcome('redeliver.success.202', 'skipped', {
      skip: { category: 'opt-in', reason: 'it makes the target write; ... needs --allow-writes' },
    });
    const result = summarize(
      everyClause((t) => [...t, skipped]),
      [],
      info,
    );
    expect(result.verdict).toBe('INCOMPLETE');
    expect(result.clauses.find((c) => c.id === 'redeliver.success.202')!.status).toBe('partial');
    expect(unverifiedReasons(result)).toEqual([
      { id: 'redeliver.success.202', reasons: ['[opt-in] it makes the target write; ... needs --allow-writes'] },
    ]);
  });

  it('is INCOMPLETE when the budget or the time cut a gating clause short, never a failure of it', () => {
    const tests = everyClause((t) =>
      t.map((x) =>
        x.clause === 'token.endpoint'
          ? { ...x, state: 'skipped' as const, skip: { category: 'budget' as const, reason: 'the request budget of 150 is spent' } }
          : x,
      ),
    );
    const result = summarize(tests, [], info);
    expect(result.verdict).toBe('INCOMPLETE');
    expect(result.clauses.find((c) => c.id === 'token.endpoint')!.status).toBe('not verified');
  });

  it('counts what cannot apply to the target, and redundant random cases, as no gap', () => {
    const tests = everyClause((t) => [
      ...t,
      outcome('redeliver.errors.401.invalid-token', 'skipped', {
        skip: { category: 'not-applicable', reason: "only the target's own signing key can make this token" },
      }),
      outcome('auth.bearer.required', 'skipped', { skip: { category: 'random-only', reason: 'generated cases only' } }),
    ]);
    expect(summarize(tests, [], info).verdict).toBe('PASS');
  });

  it('lets an observed failure gate only with --strict', () => {
    const tests = everyClause((t) => [...t, failing('errors.404.vault')]);
    expect(
      summarize(
        tests.map((x) => ({ ...x, gating: x.level === 'contract' })),
        [],
        info,
      ).verdict,
    ).toBe('PASS');
    expect(
      summarize(
        tests.map((x) => ({ ...x, gating: x.level !== 'gap' })),
        [],
        { ...info, strict: true },
      ).verdict,
    ).toBe('FAIL');
  });

  it('leaves a known failure out of the gate, and reports a known failure that passed', () => {
    const tests = everyClause((t) => [
      ...t.filter((x) => x.clause !== 'redeliver.success.202'),
      { ...failing('redeliver.success.202'), gating: false, known: { reason: 'TICKET-1' } },
    ]);
    const result = summarize([...tests, outcome('vault.scope', 'passed', { known: { reason: 'TICKET-2' } })], [], info);
    expect(result.verdict).toBe('PASS');
    expect(result.clauses.find((c) => c.id === 'redeliver.success.202')!.status).toBe('failed (known)');
    expect(result.fixedKnownFailures).toHaveLength(1);
  });

  it('in a shard answers only for its own clauses; filtered, it is INCOMPLETE', () => {
    const some = everyClause().filter((t) => t.clause!.startsWith('vault.'));
    expect(summarize(some, [], { ...info, shard: { index: 1, count: 2 } }).verdict).toBe('PASS');
    const filtered = summarize(some, [], { ...info, filtered: true });
    expect(filtered.verdict).toBe('INCOMPLETE');
    expect(unverifiedReasons(filtered).find((u) => u.id === 'redeliver.success.202')!.reasons[0]).toMatch(/^\[not-selected\]/);
  });

  it('is INCOMPLETE when the run stopped before its tests', () => {
    const result = summarize([], [], {
      ...info,
      stopped: { cause: 'rate-limit', reason: "the target's rate limit would keep the suite waiting 3600 s" },
    });
    expect(result.verdict).toBe('INCOMPLETE');
    expect(unverifiedReasons(result)[0]!.reasons).toEqual(["[rate-limit] the target's rate limit would keep the suite waiting 3600 s"]);
    expect(result.clauses.find((c) => c.id === 'redeliver.success.202')!.status).toBe('not verified');
  });
});

describe('the three kinds of outcome', () => {
  const suiteError = outcome('redeliver.errors.404.stream', 'error', {
    errors: ['suite bug: the test would send more requests than its plan (1): GET /api/v2/x'],
    failure:
      "suite error (not the target's): [§7 redeliver.errors.404.stream] suite bug: the test would send more requests than its plan (1)",
  });
  const withError = everyClause((t) => [...t.filter((x) => x.clause !== 'redeliver.errors.404.stream'), suiteError]);

  it('a suite error is ERROR (exit 5), never FAIL, and leaves its clause unverified, not failed', () => {
    const result = summarize(withError, [], info);
    expect(result.verdict).toBe('ERROR');
    expect(exitCodeOf(result)).toBe(5);
    const clause = result.clauses.find((c) => c.id === 'redeliver.errors.404.stream')!;
    expect(clause.status).toBe('not verified');
    expect(clause.reasons[0]).toMatch(/^\[suite-error\] suite error \(not the target's\)/);
  });

  it('an error outside tests, or a test without a clause tag, is the suite error too', () => {
    expect(summarize(everyClause(), ['suites/x.test.ts: cannot load'], info).verdict).toBe('ERROR');
    expect(summarize([...everyClause(), { ...outcome('vault.scope', 'passed'), clause: undefined }], [], info).verdict).toBe('ERROR');
  });

  it('a gating failure of the target is FAIL (exit 1) even where the suite also erred', () => {
    const result = summarize([...withError, failing('redeliver.success.202')], [], info);
    expect(result.verdict).toBe('FAIL');
    expect(exitCodeOf(result)).toBe(1);
  });

  it('a run stopped by the target is INCOMPLETE with exit 3, by its rate limit exit 4, by the suite ERROR', () => {
    const stopped = (cause: 'target' | 'rate-limit' | 'suite') => summarize([], [], { ...info, stopped: { cause, reason: 'why' } });
    expect([stopped('target').verdict, exitCodeOf(stopped('target'))]).toEqual(['INCOMPLETE', 3]);
    expect([stopped('rate-limit').verdict, exitCodeOf(stopped('rate-limit'))]).toEqual(['INCOMPLETE', 4]);
    expect([stopped('suite').verdict, exitCodeOf(stopped('suite'))]).toEqual(['ERROR', 5]);
    expect(unverifiedReasons(stopped('target'))[0]!.reasons).toEqual(['[stopped] why']);
  });

  it('a suite error is an <error> in JUnit, not a <failure>, and the reports ask for a bug report', () => {
    const result = summarize(withError, [], info);
    const junit = renderJunit(result);
    expect(junitProblems(junit)).toEqual([]);
    expect(junit).toMatch(/<testsuites [^>]*failures="0" errors="1"/);
    expect(junit).toContain('<error message="suite error (not the target&apos;s)'.replace('&apos;', "'"));
    expect(junit).not.toContain('<failure');
    expect(renderSummary(result)).toContain("## Suite errors (the suite's, not the target's)");
    expect(renderSummary(result)).toContain('Please report it');
  });
});

describe('what a target sent, in the reports', () => {
  const tricks = '\u001b[2J\u001b]0;owned\u0007\u009b31m\rRESULT: PASS\u202e';
  const shown = '\\u001b[2J\\u001b]0;owned\\u0007\\u009b31m\\u000dRESULT: PASS\\u202e';
  const sent = outcome('redeliver.errors.404.stream', 'failed', {
    errors: [`[§7 redeliver.errors.404.stream] s\n  expected: status 404\n  actual:   status 200\n  response: 200 text/plain ${tricks}`],
    failure: `[§7 redeliver.errors.404.stream] expected status 404; actual status 200 ${tricks}`,
  });
  const result = summarize([sent], [], info);

  it('is shown with its control characters and escape sequences escaped, line feeds and tabs kept', () => {
    expect(printable(`a\tb\n${tricks}`)).toBe(`a\tb\n${shown}`);
    expect(printable('\ud800 alone, \ud83d\ude00 paired')).toBe('\\ud800 alone, \ud83d\ude00 paired');
  });

  it('reaches JUnit escaped rather than dropped', () => {
    const junit = renderJunit(result);
    expect(junit).toContain(shown);
    // eslint-disable-next-line no-control-regex
    expect(junit).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
  });

  it('cannot close the code block of a failure in summary.md, nor make a link or HTML in a table', () => {
    const breakout = outcome('redeliver.errors.404.stream', 'failed', {
      errors: ['  response: 200 text/plain ```\n# Result: **PASS**\n````'],
    });
    const skipped = outcome('vault.scope', 'skipped', {
      skip: { category: 'config', reason: 'answered ![x](https://tracker.example/p.png) <img src=x> | cell' },
    });
    const summary = renderSummary(summarize([breakout, skipped], [], info));
    expect(summary).toContain('`````\n  response: 200 text/plain ```\n# Result: **PASS**\n````\n`````');
    expect(summary).toContain('answered ![x]\\(https://tracker.example/p.png) \\<img src=x\\> \\| cell');
  });
});

describe('a shard', () => {
  it('says a clause whose tests that can run are all in another shard is in another shard, not inapplicable', () => {
    const randomOnly = outcome('vault.scope', 'skipped', { skip: { category: 'random-only', reason: 'generated cases only' } });
    const result = summarize([...everyClause((t) => t.filter((x) => x.clause !== 'vault.scope')), randomOnly], [], {
      ...info,
      shard: { index: 1, count: 2 },
    });
    const clause = result.clauses.find((c) => c.id === 'vault.scope')!;
    expect(clause.status).toBe('not selected');
    expect(clause.reasons).toEqual([
      '[not-selected] no test of it can run in this shard; its other tests are in another shard, and the merge tells',
    ]);
    expect(result.verdict).toBe('PASS');
  });
});

describe('junit.xml and junit-observed.xml', () => {
  const result = summarize(
    everyClause((t) => [
      ...t.filter((x) => x.clause !== 'redeliver.errors.404.stream' && x.clause !== 'errors.404.vault'),
      failing('redeliver.errors.404.stream'),
      { ...failing('errors.404.vault'), gating: false },
      outcome('redeliver.success.202', 'skipped', { skip: { category: 'opt-in', reason: 'needs --allow-writes' } }),
    ]),
    ['suites/x.test.ts: cannot load'],
    info,
  );

  it('are valid against the rules of junit-10.xsd', () => {
    expect(junitProblems(renderJunit(result))).toEqual([]);
    expect(junitProblems(renderObservedJunit(result))).toEqual([]);
  });

  it('the rules catch what the Jenkins xUnit plugin refuses', () => {
    expect(junitProblems('<testsuites skipped="1"></testsuites>')).toEqual([
      '/testsuites: attribute skipped is not allowed on <testsuites>',
    ]);
    expect(
      junitProblems(
        '<testsuites><testsuite name="a" tests="1" failures="0" errors="0"><testcase name="t"><properties/></testcase></testsuite></testsuites>',
      ),
    ).toEqual(['/testsuites/testsuite[0]/testcase[0]: <properties> may not be inside <testcase>']);
    expect(junitProblems('<testsuites><testsuite name="a" tests="1"><testcase name="t" file="x.ts"/></testsuite></testsuites>')).toEqual([
      '/testsuites/testsuite[0]: <testsuite> lacks its required attribute failures',
      '/testsuites/testsuite[0]: <testsuite> lacks its required attribute errors',
      '/testsuites/testsuite[0]/testcase[0]: attribute file is not allowed on <testcase>',
    ]);
    expect(junitProblems('<testsuites time="1 s"/>')).toEqual(['/testsuites: time="1 s" is not a SUREFIRE_TIME']);
  });

  it('count gating failures only in the gate, with a one-line message and the file of each suite', () => {
    const junit = renderJunit(result);
    expect(junit).toMatch(/<testsuites [^>]*failures="1" errors="1"/);
    expect(junit).toContain(
      '<failure message="[§7 redeliver.errors.404.stream] expected status 404; actual status 202" type="clause redeliver.errors.404.stream">',
    );
    expect(junit).toContain('file="suites/redeliver/x.test.ts"');
    expect(junit).toContain('<skipped message="[opt-in] needs --allow-writes"/>');
    expect(junit).not.toContain('errors.404.vault');
    expect(junit).toContain('<property name="verdict" value="FAIL"/>');
    expect(junit).toContain('<property name="unverified.redeliver.success.202" value="[opt-in] needs --allow-writes"/>');
  });

  it('show observed failures as real failures in their own file', () => {
    const observed = renderObservedJunit(result);
    expect(observed).toContain('<failure message="[§7 errors.404.vault] expected status 404; actual status 202"');
    expect(observed).not.toContain('redeliver.errors.404.stream');
  });
});

describe('summary.md', () => {
  it('records the flags, the suite version and commit, and lists gating failures before observed ones', () => {
    const result = summarize(
      everyClause((t) => [...t, { ...failing('errors.404.vault'), gating: false }, failing('redeliver.errors.404.stream')]),
      [],
      info,
    );
    const summary = renderSummary(result);
    expect(summary).toContain('Result: **FAIL**');
    expect(summary).toContain('| Flags | `--allow-writes` |');
    expect(summary).toContain('| Suite | suite 1.0.0 (commit abc123) |');
    expect(summary).toContain("| Waiting for the target's rate limit | 4.0 s |");
    expect(summary.indexOf('## Gating failures')).toBeLessThan(summary.indexOf('## Observed failures (not gating)'));
  });

  it('lists every unverified gating clause with its reason', () => {
    const result = summarize(
      everyClause((t) =>
        t
          .filter((x) => x.clause !== 'redeliver.errors.409.state')
          .concat(
            outcome('redeliver.errors.409.state', 'skipped', {
              skip: { category: 'config', reason: 'fixture not_redeliverable_event is not configured' },
            }),
          ),
      ),
      [],
      info,
    );
    expect(renderSummary(result)).toContain(
      '| `redeliver.errors.409.state` | [config] fixture not_redeliverable_event is not configured |',
    );
  });
});

describe('failureSummary', () => {
  it('says clause, expected and actual in one line', () => {
    expect(failureSummary('[§7 a.b] t', ['[§7 a.b] s\n  expected: status 404\n  actual:   status 200\n  replay: curl'])).toBe(
      '[§7 a.b] expected status 404; actual status 200',
    );
  });

  it('reads a generated case out of a property failure', () => {
    const text =
      'Property failed after 2 tests\n{ seed: 1, path: "1", endOnFailure: true }\nCounterexample: ["Bearer x"]\nShrunk 0 time(s)\nGot error: x\n[§7 a.b] s\n  expected: status 401\n  actual:   status 200';
    expect(failureSummary('[§7 a.b] t', [text])).toBe('[§7 a.b] expected status 401; actual status 200 (generated case ["Bearer x"])');
  });

  it('falls back to the first line of another error', () => {
    expect(failureSummary('[§7 a.b] t', ['GET /api/v2/x: the target did not answer within 200 ms\nmore'])).toBe(
      '[§7 a.b] GET /api/v2/x: the target did not answer within 200 ms',
    );
  });
});

describe('merging shards', () => {
  const shard = (index: number, tests: TestOutcome[], change: Partial<RunInfo> = {}): RunResult =>
    summarize(tests, [], { ...info, shard: { index, count: 2 }, ...change });
  const all = everyClause();

  it('gives the verdict of the whole run', () => {
    const merged = mergeShardResults([shard(1, all.slice(0, 40)), shard(2, all.slice(40))]);
    expect('result' in merged && merged.result.verdict).toBe('PASS');
    const part = mergeShardResults([shard(1, all.slice(0, 40))]);
    expect('result' in part && part.result.verdict).toBe('INCOMPLETE');
  });

  it('refuses shards of different runs', () => {
    expect(mergeShardResults([shard(1, all.slice(0, 40)), shard(2, all.slice(40), { seed: 7 })])).toEqual({
      problem:
        'shard 2/2 comes from another run than shard 1/2 (seed 7, not 42); run every shard with the same --seed against the same target',
    });
  });
});

describe('GitHub annotations', () => {
  it('put each gating failure at its file and line, its message on one line', () => {
    const result = summarize([failing('redeliver.errors.404.stream'), { ...failing('errors.404.vault'), gating: false }], [], info);
    expect(githubAnnotations(result)).toEqual([
      '::error file=suites/redeliver/x.test.ts,line=12,title=conformance%3A redeliver.errors.404.stream::[§7 redeliver.errors.404.stream] expected status 404; actual status 202',
    ]);
  });
});
