import { describe, expect, it } from 'vitest';
import { renderJunit } from '../reporters/junit.ts';
import type { RunInfo, RunResult, TestOutcome } from '../reporters/results.ts';
import { clauseRows, renderSummary } from '../reporters/summary.ts';

const info: RunInfo = { target: 'embedded mock', baseUrl: 'http://127.0.0.1:1/api/v2', seed: 42, strict: false, startedAt: new Date('2026-11-22T00:00:00Z'), wallMs: 1500, extraRequests: 1 };

function outcome(partial: Partial<TestOutcome> & Pick<TestOutcome, 'name' | 'state'>): TestOutcome {
  return { file: 'suites/redeliver/x.test.ts', fullName: partial.name, gating: true, errors: [], durationMs: 3, requests: 2, operations: { redeliver: 2 }, ...partial };
}

const tests: TestOutcome[] = [
  outcome({ name: '[§4.1 redeliver.success.202] redelivery answers 202', clause: 'redeliver.success.202', section: '4.1', level: 'contract', state: 'passed' }),
  outcome({ name: '[§7 redeliver.errors.409.state] redelivery answers 409', clause: 'redeliver.errors.409.state', section: '7', level: 'contract', state: 'failed', errors: ['[§7 redeliver.errors.409.state] ...\n  expected: status 409\n  actual:   status 202 <&>'] }),
  outcome({ name: '[§4.4 vault.success.status] the vault read answers 200', clause: 'vault.success.status', section: '4.4', level: 'observed', state: 'failed', gating: false, errors: ['expected status 200'] }),
  outcome({ name: '[§7 redeliver.errors.429] redelivery answers 429', clause: 'redeliver.errors.429', section: '7', level: 'contract', state: 'skipped', note: 'runs only with --allow-rate-limit-exhaustion' }),
];
const result: RunResult = {
  tests, unhandled: [], untagged: [],
  contract: { passed: 1, failed: 1, skipped: 1 }, observed: { passed: 0, failed: 1, skipped: 0 },
  requests: 8, passed: false,
};

describe('renderJunit', () => {
  const xml = renderJunit(result, info);

  it('counts only gating failures as failures', () => {
    expect(xml).toMatch(/<testsuites [^>]*tests="4" failures="1" errors="0" skipped="1"/);
  });

  it('writes the clause, section and level of each test as properties', () => {
    expect(xml).toContain('<property name="clause" value="redeliver.success.202"/><property name="section" value="4.1"/><property name="level" value="contract"/>');
  });

  it('writes a contract failure as <failure> with its message, escaped', () => {
    expect(xml).toMatch(/<failure message="\[§7 redeliver.errors.409.state\] ..." type="contract">[^<]*status 202 &lt;&amp;&gt;<\/failure>/);
  });

  it('keeps an observed failure outside --strict out of the failure count, in system-err', () => {
    expect(xml).toContain('<system-err>observed-level failure (not gating; --strict gates it):');
    expect(xml).toContain('<property name="outcome" value="failed"/>');
  });

  it('writes the skip reason', () => {
    expect(xml).toContain('<skipped message="runs only with --allow-rate-limit-exhaustion"/>');
  });

  it('records the seed of the run', () => {
    expect(xml).toContain('<property name="seed" value="42"/>');
  });
});

describe('renderSummary', () => {
  const markdown = renderSummary(result, info);

  it('states the verdict and the tallies', () => {
    expect(markdown).toContain('Result: **FAIL**. Contract: 1 passed, 1 failed, 1 skipped.');
  });

  it('gives every clause of the registry a row with its result', () => {
    expect(markdown).toMatch(/\| `redeliver.success.202` \| 4.1 \| contract \| 1\/1 \| ✅ pass \|/);
    expect(markdown).toMatch(/\| `redeliver.errors.409.state` \| 7 \| contract \| 0\/1 \| ❌ fail \|/);
    expect(markdown).toMatch(/\| `vault.success.status` \| 4.4 \| observed \(rec\) \| 0\/1 \| ⚠️ fail \(not gating\) \|/);
    expect(markdown).toMatch(/\| `sso-ticket.body.ttl_sec.default` \| 8 \| contract \| 0 \| — not testable \| The ticket response carries only/);
    expect(markdown).toMatch(/\| `redeliver.errors.429` \| 7 \| contract \| 0\/1 \| ⏭️ skipped \| skipped: runs only with/);
  });

  it('says how many requests the run used and how to replay it', () => {
    expect(markdown).toContain('| Requests used | 9 |');
    expect(markdown).toContain('replay with `--seed 42`');
  });

  it('marks untested contract clauses', () => {
    const untested = clauseRows(result).filter((r) => r.status === 'untested');
    expect(untested.map((r) => r.clause.id)).toContain('redeliver.errors.404.stream');
  });
});
