// The meta-test of the suites: plans every conformance test (without running it) and holds its
// title to the tag rule, the registry to full coverage, and every plan to sense.
import { describe, expect, it } from 'vitest';
import type { RunSettings } from '../../harness/settings.ts';
import { planTests, suiteFiles } from '../planner.ts';
import { lintTitles, uncitedClauses } from '../tags.ts';

const placeholder: RunSettings = {
  runId: 'collection only',
  target: {
    source: 'collection only',
    baseUrl: 'http://127.0.0.1:9/api/v2',
    authUrl: 'http://127.0.0.1:9',
    audience: 'https://collection.invalid/api/v2/',
    customDomainHeader: 'tenant-custom-domain',
    roles: {},
    fixtures: { vaultConnections: [] },
    tokenAlternatives: {},
    rateLimit: {},
    testDouble: true,
  },
  strict: false,
  seed: 1,
  numRuns: 1,
  allowWrites: false,
  allowRateLimitExhaustion: false,
  maxRequests: 0,
  requestTimeoutMs: 1,
  rateShare: 1,
  exhaustionMax: 1,
  deadline: 0,
  filter: {},
};

describe('conformance tests', async () => {
  const tests = await planTests(suiteFiles(), placeholder);
  const titles = tests.map((t) => t.name);

  it('are planned from the suites', () => {
    expect(titles.length).toBeGreaterThan(150);
  });

  it('each cite a known, testable clause with its section', () => {
    expect(lintTitles(titles)).toEqual([]);
  });

  it('cite every testable clause of the registry', () => {
    expect(uncitedClauses(titles)).toEqual([]);
  });

  it('are unique', () => {
    expect(titles.filter((t, i) => titles.indexOf(t) !== i)).toEqual([]);
  });

  it('each say which operation they send to, so --operation can select them', () => {
    expect(tests.filter((t) => t.plan.operation === undefined).map((t) => t.name)).toEqual([]);
  });

  it('are in every shard exactly once', () => {
    const sharded = [1, 2, 3].flatMap((index) => suiteFiles({ index, count: 3 }));
    expect(sharded.sort()).toEqual(suiteFiles().sort());
  });

  it('run the rate-limit exhaustion last', () => {
    expect(suiteFiles().at(-1)).toMatch(/suites\/rate-limit\/exhaustion\.test\.ts$/);
  });
});

describe('the tag rule itself', () => {
  it('flags a title without a tag', () => {
    expect(lintTitles(['redelivery answers 202'])).toEqual([
      { title: 'redelivery answers 202', problem: 'has no clause tag [§<section> <clause-id>]' },
    ]);
  });

  it('flags an unknown clause, a wrong section and an untestable clause', () => {
    const problems = lintTitles([
      '[§7 redeliver.errors.418] redelivery answers 418',
      '[§4.1 redeliver.errors.409.state] redelivery answers 409',
      '[§8 sso-ticket.body.ttl_sec.default] the default ttl is 5 days',
    ]).map((p) => p.problem);
    expect(problems).toEqual([
      'cites redeliver.errors.418, which is not in specs/clauses.yaml',
      'cites §4.1, but redeliver.errors.409.state is in §7',
      'cites sso-ticket.body.ttl_sec.default, which the registry marks not testable',
    ]);
  });

  it('lists the testable clauses no title cites', () => {
    expect(uncitedClauses([])).toContain('redeliver.success.202');
    expect(uncitedClauses([])).not.toContain('sso-ticket.body.ttl_sec.default');
  });
});
