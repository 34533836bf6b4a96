// The meta-test of the suites: collects every conformance test (without running it) and holds
// its title to the tag rule, and the registry to full coverage.
import { createVitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import type { RunSettings } from '../../harness/settings.ts';
import { lintTitles, uncitedClauses } from '../tags.ts';
import { projectRoot } from '../run-suite.ts';

const placeholder: RunSettings = {
  target: { source: 'collection only', baseUrl: 'http://127.0.0.1:9/api/v2', authUrl: 'http://127.0.0.1:9', audience: 'https://collection.invalid/api/v2/', customDomainHeader: 'tenant-custom-domain', roles: {}, fixtures: { vaultConnections: [] }, loopback: true },
  strict: false, seed: 1, numRuns: 1, allowWrites: false, allowRateLimitExhaustion: false, maxRequests: 0, requestTimeoutMs: 1, maxRateLimitWaitMs: 0, deadline: 0,
};

async function collectTitles(): Promise<string[]> {
  const vitest = await createVitest('test', { root: projectRoot, config: `${projectRoot}/suites/vitest.config.ts`, watch: false, reporters: [] }, { test: { provide: { settings: placeholder } } });
  try {
    const { testModules, unhandledErrors } = await vitest.collect();
    expect(unhandledErrors).toEqual([]);
    for (const module of testModules) expect(module.errors(), module.moduleId).toEqual([]);
    return testModules.flatMap((m) => [...m.children.allTests()].map((t) => t.name));
  } finally {
    await vitest.close();
  }
}

describe('conformance test titles', async () => {
  const titles = await collectTitles();

  it('are collected from the suites', () => {
    expect(titles.length).toBeGreaterThan(100);
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
});

describe('the tag rule itself', () => {
  it('flags a title without a tag', () => {
    expect(lintTitles(['redelivery answers 202'])).toEqual([{ title: 'redelivery answers 202', problem: 'has no clause tag [§<section> <clause-id>]' }]);
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
