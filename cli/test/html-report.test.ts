// report.html: what it holds, from made-up results (every text escaped, nothing that could fetch
// anything), and what headless Chromium shows when it opens one: a report of made-up results with
// a hostile title, and the report of a real run against a mock with a fault that fails a gating
// test and spends the rate limit. Chromium is Debian's package: a machine without it skips those
// tests, naming the package; in CI (CI set) they fail instead, and .ci/run installs it.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mock/index.ts';
import { clauses } from '../../specs/index.ts';
import { renderHtml } from '../reporters/html.ts';
import { mockTargetDescription } from '../embedded.ts';
import { ticks } from '../reporters/html-plot.ts';
import { summarize, type RunResult, type TestOutcome } from '../reporters/results.ts';
import { renderSummary } from '../reporters/summary.ts';
import { writeReports } from '../reporters/write.ts';
import { CHROMIUM_MISSING, chromiumInstalled, openInChromium } from './support/chromium.ts';
import { everyClause, failing, info, outcome } from './support/made-up-results.ts';
import { resultsOf, run, type Finished } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'html-report-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const chromium = chromiumInstalled();
const inCi = Boolean(process.env.CI);

const HOSTILE_TITLE = `[§7 redeliver.errors.404.stream] redelivery answers 404 for "est_</td>" <img src=x onerror="document.title='owned'"> & more`;
const REPLAY = `curl -sS -i -X POST 'https://tenant.example.com/api/v2/event-streams/est_AQXiyfL3iDNFp5RV9YTEMw/redeliver/evt_wx3cBnTHxX2mVaYMaBVtL8' -H 'accept: application/json' -H "authorization: Bearer $TOKEN"`;
const T0 = Date.parse('2026-11-23T10:00:05.000Z');

/** Rate-limit points of one test: [ms after T0, status, remaining] (limit 50). */
const answers = (...rows: Array<[number, number, number | undefined]>): TestOutcome['rateLimit'] =>
  rows.map(([ms, status, remaining]) => ({
    at: T0 + ms,
    status,
    limit: 50,
    ...(remaining === undefined ? {} : { remaining }),
    reset: T0 / 1000 + 60,
  }));

const gatingFailure = outcome('redeliver.errors.404.stream', 'failed', {
  name: HOSTILE_TITLE,
  fullName: HOSTILE_TITLE,
  errors: [
    [
      '[§7 redeliver.errors.404.stream] Redelivery answers 404 when the event stream does not exist.',
      '  expected: status 404',
      '  actual:   status 202',
      '  response: 202 application/json {}',
      '  request:  POST https://tenant.example.com/api/v2/event-streams/est_AQXiyfL3iDNFp5RV9YTEMw/redeliver/evt_wx3cBnTHxX2mVaYMaBVtL8',
      `  replay:   ${REPLAY}`,
    ].join('\n'),
  ],
  failure: '[§7 redeliver.errors.404.stream] expected status 404; actual status 202',
  operations: { redeliver: 2 },
  // Out of order across tests: the plot orders them by time.
  rateLimit: answers([300, 200, 47], [2_500, 429, 0]),
});

function madeUpResult(): RunResult {
  const tests = everyClause((t) => [
    ...t.filter((x) => x.clause !== 'redeliver.errors.404.stream' && x.clause !== 'errors.404.vault' && x.clause !== 'vault.scope'),
    { ...failing('errors.404.vault'), gating: false, operations: { vault: 1 } },
    gatingFailure,
    outcome('vault.scope', 'passed', {
      operations: { vault: 3, token: 1 },
      rateLimit: answers([0, 200, 49], [100, 200, 48], [200, 200, undefined]),
    }),
    outcome('redeliver.success.202', 'skipped', {
      skip: { category: 'opt-in', reason: 'it makes the target write; needs --allow-writes' },
    }),
  ]);
  return summarize(tests, [], { ...info, target: 'staging <eu> "blue" & green', flags: ['--grep', `<script>alert("x")</script>`] });
}

const remainingLine = (page: string) =>
  /<polyline class="remaining" points="([^"]*)"/
    .exec(page)![1]!
    .split(' ')
    .filter(Boolean)
    .map((pair) => pair.split(',').map(Number) as [number, number]);
const count = (page: string, pattern: RegExp) => page.match(pattern)?.length ?? 0;
/** How Chromium serializes a text node: only &, < and > are escaped. */
const asText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const clauseRow = (page: string, id: string) =>
  new RegExp(`<tr [^>]*data-status="([^"]+)"><td><code>${id.replace(/\./g, '\\.')}</code>.*?<td class="status">([^<]+)</td>`).exec(page);

describe('report.html', () => {
  const result = madeUpResult();
  const page = renderHtml(result);

  it('opens with the verdict and its meaning, the run and the unverified gating clauses with the reason', () => {
    expect(page).toContain('<p class="word">FAIL</p>\n<p class="meaning">A gating test failed.</p>');
    expect(page).toContain('<tr><th scope="row">Seed</th><td>42 (replay with <code>--seed 42</code>)</td></tr>');
    expect(page).toContain('<th scope="row">Waiting for the target&#39;s rate limit</th><td>4.0 s</td>');
    expect(page).toMatch(
      /<td class="why">\[opt-in\] it makes the target write; needs --allow-writes<\/td><td><code>redeliver\.success\.202<\/code><\/td>/,
    );
  });

  it('shows gating failures before observed ones, each with expected, actual, response, request and the replay line', () => {
    expect(page.indexOf('<h2>Gating failures (1)</h2>')).toBeGreaterThan(0);
    expect(page.indexOf('<h2>Gating failures (1)</h2>')).toBeLessThan(page.indexOf('<h2>Observed failures, not gating (1)</h2>'));
    for (const [label, value] of [
      ['expected', 'status 404'],
      ['actual', 'status 202'],
      ['response', '202 application/json {}'],
      ['replay', REPLAY],
    ]) {
      expect(page).toContain(`<dt>${label}</dt><dd><pre>${value!.replace(/'/g, '&#39;').replace(/"/g, '&quot;')}</pre></dd>`);
    }
    expect(page).toMatch(
      /<dt>request<\/dt><dd><pre>POST https:\/\/tenant\.example\.com\/api\/v2\/event-streams\/est_\w+\/redeliver\/evt_\w+<\/pre>/,
    );
  });

  it('has a row for every clause of the registry, with its level, tests and outcome', () => {
    expect(count(page, /<tr class="s-[a-z]+" data-status=/g)).toBe(clauses.length);
    expect(page).toMatch(
      /data-status="failed"><td><code>redeliver\.errors\.404\.stream<\/code>.*?<td class="tight">contract<\/td><td class="n tight" data-sort="1">0\/1<\/td><td class="status">failed<\/td>/,
    );
    expect(clauseRow(page, 'redeliver.success.202')?.slice(1)).toEqual(['partial', 'partial']);
    expect(clauseRow(page, 'vault.scope')?.slice(1)).toEqual(['verified', 'verified']);
  });

  it('counts tests, outcomes and requests per operation as summary.md does', () => {
    const summary = renderSummary(result);
    for (const operation of ['redeliver', 'sso-ticket', 'vault', 'token', 'jwks']) {
      const cells = /\| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|/
        .exec(summary.split('\n').find((line) => line.startsWith(`| ${operation} |`))!)!
        .slice(1);
      expect(page).toContain(`<tr><td>${operation}</td>${cells.map((n) => `<td class="n">${n}</td>`).join('')}</tr>`);
    }
    // vault: the observed failure sent 1 request to it, vault.scope's test 3.
    expect(page).toMatch(
      /<tr><td>vault<\/td><td class="n">\d+<\/td><td class="n">\d+<\/td><td class="n">1<\/td><td class="n">0<\/td><td class="n">4<\/td><\/tr>/,
    );
  });

  it('plots X-RateLimit-Remaining of every answer in the order of time, the limit as a line and each 429 marked', () => {
    const line = remainingLine(page);
    expect(line).toHaveLength(4);
    expect(line.map(([x]) => x)).toEqual([...line.map(([x]) => x)].sort((a, b) => a - b));
    expect(count(page, /<circle class="refused"/g)).toBe(1);
    expect(page).toMatch(/<path class="limit" d="M[\d.]+ [\d.]+ H[\d.]+"\/>/);
    expect(page).toContain(
      '<p id="rate-limit-caption">5 answers of the management interface over 2.5 s; X-RateLimit-Remaining went from 49 to 0, lowest 0; X-RateLimit-Limit was 50; 1 answer was 429 (marked). 1 answer without X-RateLimit-Remaining is not on the line.</p>',
    );
    expect(page).toContain('>seconds since the first answer (10:00:05 UTC)</text>');
    expect(page).toContain('>requests (X-RateLimit-*)</text>');
  });

  it('says why there is no plot when no answer was recorded', () => {
    const quiet = renderHtml(summarize(everyClause(), [], info));
    expect(quiet).toContain(
      '<p id="rate-limit-caption">No test received an answer from the management interface in this run, so there are no rate-limit headers to plot.</p>',
    );
    expect(quiet).not.toContain('<svg');
  });

  it('escapes every text: a hostile title, target and flag stay text', () => {
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<script>alert');
    expect(page).toContain(
      'redelivery answers 404 for &quot;est_&lt;/td&gt;&quot; &lt;img src=x onerror=&quot;document.title=&#39;owned&#39;&quot;&gt; &amp; more',
    );
    expect(page).toContain('<title>FAIL: management API v2 conformance, staging &lt;eu&gt; &quot;blue&quot; &amp; green</title>');
    expect(page).toContain('<code>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</code>');
  });

  it('is one file that fetches nothing: no external URL, and a policy that allows only its own style and script', () => {
    expect(page).not.toMatch(/\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
    expect(page).not.toMatch(/@import|url\(/i);
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)![1]!.replace(/&#39;/g, "'");
    const hash = (tag: string) =>
      `'sha256-${createHash('sha256')
        .update(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(page)![1]!)
        .digest('base64')}'`;
    expect(policy).toBe(
      `default-src 'none'; style-src ${hash('style')}; script-src ${hash('script')}; base-uri 'none'; form-action 'none'`,
    );
    expect(count(page, /<script/g)).toBe(1);
  });

  it('is written as report.html with the other reports, through the redactor', () => {
    const leaky = { ...result, unhandled: ['suites/x.test.ts: token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl in a message'] };
    const dir = join(work, 'written');
    expect(writeReports(leaky, dir)).toContain(join(dir, 'report.html'));
    const written = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(written).toContain('<pre>suites/x.test.ts: token [redacted] in a message</pre>');
    expect(written).not.toContain('eyJhbGciOiJSUzI1NiJ9');
  });

  it('has round ticks from 0 past the largest value', () => {
    expect([ticks(1149), ticks(80), ticks(4.54), ticks(0.315), ticks(0)]).toEqual([
      [0, 250, 500, 750, 1000, 1250],
      [0, 20, 40, 60, 80],
      [0, 1, 2, 3, 4, 5],
      [0, 0.1, 0.2, 0.3, 0.4],
      [0, 1],
    ]);
  });
});

/** Skips a test that needs Chromium where it is missing, but never in CI: there the check must run. */
function needChromium(skip: (condition: boolean, note: string) => void): void {
  if (!chromium && inCi) throw new Error(`${CHROMIUM_MISSING}; CI is set, so this check may not be skipped (.ci/run installs the package)`);
  skip(!chromium, CHROMIUM_MISSING);
}

describe('report.html in headless Chromium', () => {
  it('shows the verdict, the clause rows, the failure with its replay line and the plot, runs its script, and keeps a hostile title as text', async ({
    skip,
  }) => {
    needChromium(skip);
    const file = join(work, 'made-up.html');
    writeFileSync(file, renderHtml(madeUpResult()));
    const { dom, console } = await openInChromium(file);
    expect(console).toEqual([]);
    expect(dom).toContain('<p class="word">FAIL</p>');
    expect(dom).toContain('<p class="meaning">A gating test failed.</p>');
    expect(clauseRow(dom, 'redeliver.errors.404.stream')?.slice(1)).toEqual(['failed', 'failed']);
    expect(dom).toContain(`<dt>replay</dt><dd><pre>${asText(REPLAY)}</pre></dd>`);
    expect(remainingLine(dom)).toHaveLength(4);
    expect(count(dom, /<circle class="refused"/g)).toBe(1);
    // The hostile title is text: no element came of it, and its handler never ran.
    expect(dom).not.toMatch(/<img/i);
    expect(dom).toContain(asText(HOSTILE_TITLE.slice(HOSTILE_TITLE.indexOf('<img'))));
    expect(dom).toMatch(/<title>FAIL: management API v2 conformance, staging &lt;eu&gt; "blue" &amp; green<\/title>/);
    // The script ran under the page's policy: the clause filter is shown, counting the rows.
    expect(dom).toContain('<div id="clause-filter" class="controls">');
    expect(dom).toContain(`<output>${clauses.length} of ${clauses.length} clauses shown</output>`);
  });

  it('reports what a page tries to fetch, so a quiet console means the report fetched nothing', async ({ skip }) => {
    needChromium(skip);
    const file = join(work, 'fetching.html');
    writeFileSync(file, renderHtml(madeUpResult()).replace('</body>', '<img src="http://127.0.0.1:9/x.png"></body>'));
    const { console } = await openInChromium(file);
    expect(console.join('\n')).toMatch(
      /Loading the image 'http:\/\/127\.0\.0\.1:9\/x\.png' violates the following Content Security Policy directive: "default-src 'none'"/,
    );
  });

  describe('the report of a real run against a mock whose 429s lack X-RateLimit-Reset', () => {
    const out = join(work, 'run');
    let mock: MockServer | undefined;
    let finished: Finished | undefined;
    beforeAll(async () => {
      if (!chromium) return;
      const keyFile = join(work, 'mock.pem');
      // A small bucket, refilled slowly, and room to spend two of them: the exhaustion meets its 429
      // after about 40 requests.
      mock = await createMockServer({
        signingKey: keyFile,
        faults: ['429-without-x-ratelimit-reset'],
        rateLimit: { bucketSize: 40, refillPerSecond: 2 },
        report: () => {},
      });
      const target = {
        ...mockTargetDescription(),
        base_url: `${mock.url}/api/v2`,
        auth_url: mock.url,
        signing_key_file: keyFile,
      };
      writeFileSync(join(work, 'target.yaml'), stringify(target));
      finished = await run('cli/conformance.ts', [
        '--target-file',
        join(work, 'target.yaml'),
        '--grep',
        'rate-limit',
        '--exhaustion-max',
        '200',
        '--seed',
        '20261123',
        '--out',
        out,
      ]);
    }, 120_000);
    afterAll(() => mock?.close());

    it('shows its verdict, the failed clause, the replay line and a plot of every answer it recorded', async ({ skip }) => {
      needChromium(skip);
      expect(finished!.code).toBe(1);
      expect(finished!.stdout).toMatch(/reports: .*report\.html/);
      const results = resultsOf(out);
      const points = results.tests.flatMap((t) => t.rateLimit);
      const failed = results.tests.find((t) => t.clause === 'rate-limit.429.headers' && t.state === 'failed')!;
      const replay = /replay: +(curl .*)/.exec(failed.errors.join('\n'))![1]!;
      const { dom, console } = await openInChromium(join(out, 'report.html'));
      expect(console).toEqual([]);
      expect(dom).toContain('<p class="word">FAIL</p>');
      expect(clauseRow(dom, 'rate-limit.429.headers')?.slice(1)).toEqual(['failed', 'failed']);
      expect(clauseRow(dom, 'rate-limit.headers.on-success')?.slice(1)).toEqual(['verified', 'verified']);
      expect(dom).toContain(`<dt>replay</dt><dd><pre>${asText(replay)}</pre></dd>`);
      expect(dom).toContain('x-ratelimit-reset: (absent)');
      expect(points.length).toBeGreaterThan(40);
      expect(remainingLine(dom)).toHaveLength(points.filter((p) => p.remaining !== undefined).length);
      expect(count(dom, /<circle class="refused"/g)).toBe(points.filter((p) => p.status === 429).length);
      expect(count(dom, /<circle class="refused"/g)).toBeGreaterThan(0);
    });
  });
});
