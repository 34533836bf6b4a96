// End to end, the tenant's tokens: against a token endpoint that counts what it issues (the mock
// with a quota of issued tokens), a second run within the token lifetime mints only what the tests
// of the token endpoint ask for themselves (the preflight and every other test reuse the cache), and says so with the quota header's account; the cache file holds
// no token or secret and nothing reaches the reports; --no-token-cache mints every token again;
// --max-tokens stops minting, skipping what needed a new token with that reason.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mock/index.ts';
import { observed } from '../../specs/index.ts';
import { resultsOf, run, writeTargetFile, type Finished } from './support/programs.ts';

const work = mkdtempSync(join(tmpdir(), 'token-budget-e2e-'));
const cacheHome = join(work, 'xdg-cache');
const keyFile = join(work, 'signing-key.pem');

let mock: MockServer;
let target: { path: string; env: Record<string, string> };
const runs: Array<{ finished: Finished; issued: number; out: string }> = [];

async function conformance(name: string, extra: string[] = []): Promise<{ finished: Finished; issued: number; out: string }> {
  const before = mock.components.tokenQuotas.issued;
  const out = join(work, name);
  // The tests that get tokens of every role, and the token endpoint's: a short run (INCOMPLETE, being
  // filtered). The rows' twins beside the less common and the open forms get no token of their own.
  const args = ['--target-file', target.path, '--out', out, '--operation', 'token,vault', '--grep-invert', '(beside ', ...extra];
  const finished = await run('cli/conformance.ts', args, {
    ...target.env,
    XDG_CACHE_HOME: cacheHome,
  });
  return { finished, issued: mock.components.tokenQuotas.issued - before, out };
}

beforeAll(async () => {
  mock = await createMockServer({ signingKey: keyFile, tokenQuota: { perHour: 100, perDay: 1000 }, report: () => {} });
  target = writeTargetFile({ url: mock.url, dir: work, name: 'counted.yaml', keyFile });
  runs.push(await conformance('first'), await conformance('second'));
}, 240_000);

afterAll(async () => {
  await mock?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the token cache', () => {
  it('lets a second run within the token lifetime mint only what the token endpoint tests need', () => {
    const [first, second] = runs;
    for (const { out } of [first!, second!]) expect(resultsOf(out).tests.filter((t) => t.state === 'failed')).toEqual([]);
    // Every token the second run got minted is one a test of the token endpoint asked for itself.
    const minting = resultsOf(second!.out).tests.filter((t) => (t.tokens?.minted ?? 0) > 0);
    // (its clause the token endpoint's, or a scope rule it bears on, in a file of the token endpoint's tests)
    const ofTheTokenEndpoint = (t: (typeof minting)[number]) =>
      t.clause?.split('.')[0] === 'token' || /^suites\/(token\/|matrix\/token-requests)/.test(t.file ?? '');
    expect(minting.filter((t) => !ofTheTokenEndpoint(t)).map((t) => t.name)).toEqual([]);
    expect(minting.reduce((sum, t) => sum + t.tokens!.minted, 0)).toBe(second!.issued);
    expect(second!.issued).toBeLessThan(first!.issued);
    expect(second!.finished.stdout).toMatch(
      new RegExp(`^tokens: ${second!.issued} minted, [1-9]\\d* reused; token cache: ${cacheHome}/mgmt-api-conformance$`, 'm'),
    );
  });

  it('reports, from the token endpoint itself, what is left of the quota', () => {
    const global = parse(readFileSync(target.path, 'utf8')) as { roles: { global: { client_id: string } } };
    const left = 100 - mock.components.tokenQuotas.issuedTo(global.roles.global.client_id);
    expect(runs[1]!.finished.stdout).toContain(`token quota (${observed.tokens.quota.header}): global: per_hour ${left} of 100 left`);
    expect(resultsOf(runs[1]!.out).info.tokens).toMatchObject({
      minted: runs[1]!.issued,
      quotas: expect.arrayContaining([expect.objectContaining({ client: 'global' })]),
    });
  });

  it('keeps the cache file 0600, without a token or a secret in it or in any report', () => {
    const file = join(cacheHome, 'mgmt-api-conformance', 'tokens.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const secrets = Object.values(target.env);
    const texts = [readFileSync(file, 'utf8'), ...readdirSync(runs[1]!.out).map((f) => readFileSync(join(runs[1]!.out, f), 'utf8'))];
    for (const text of [...texts, runs[1]!.finished.stdout]) {
      expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.eyJ/);
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });

  it('is left alone with --no-token-cache: every token minted again', async () => {
    const uncached = await conformance('uncached', ['--no-token-cache']);
    expect(resultsOf(uncached.out).tests.filter((t) => t.state === 'failed')).toEqual([]);
    expect(uncached.issued).toBe(runs[0]!.issued);
    expect(uncached.finished.stdout).toMatch(/^tokens: \d+ minted, 0 reused; token cache: off \(--no-token-cache\)$/m);
  }, 120_000);
});

describe('--max-tokens', () => {
  it('stops minting: with 0, only cached tokens are used and the token endpoint tests are skipped for the budget', async () => {
    const bounded = await conformance('no-mint', ['--max-tokens', '0']);
    expect(bounded.issued).toBe(0);
    expect(bounded.finished.code).toBe(4);
    const results = resultsOf(bounded.out);
    expect(results.tests.filter((t) => t.state === 'failed')).toEqual([]);
    const skipped = results.tests.find((t) => t.clause === 'token.endpoint');
    expect(skipped?.skip).toEqual({ category: 'budget', reason: expect.stringMatching(/^--max-tokens 0 is spent \(0 minted this run\)/) });
    expect(bounded.finished.stdout).toMatch(/^tokens: 0 minted \(at most 0, --max-tokens\), \d+ reused/m);
  }, 120_000);
});

// A cached token is only as good as the key it was signed with: a tenant that rotated its signing
// key, or another server that had this address, refuses it. The preflight mints the global role's
// token again where the target refuses it; every other role's cached token signed under another
// key (kid) than that one is minted again too, instead of failing the tests that send it.
describe('a server at the same address with another signing key', () => {
  it('gets every token of its own minted again, and no test fails for a token of the old key', async () => {
    const port = Number(new URL(mock.url).port);
    await mock.close();
    // A new key in the same file: the target file's signing key is the new server's.
    rmSync(keyFile);
    mock = await createMockServer({
      port,
      signingKey: keyFile,
      tokenQuota: { perHour: 100, perDay: 1000 },
      report: () => {},
    });
    const rekeyed = await conformance('rekeyed');
    expect(
      resultsOf(rekeyed.out)
        .tests.filter((t) => t.state === 'failed')
        .map((t) => t.name),
    ).toEqual([]);
    // Every token minted again: the target refused the cached global token, so every token the
    // cache held from it goes (the key client's too, though its kid was never read).
    expect(rekeyed.issued).toBe(runs[0]!.issued);
    // Reused: only the global role's, which the preflight minted again.
    expect(rekeyed.finished.stdout).toMatch(/^tokens: \d+ minted, 1 reused;/m);
  }, 120_000);
});

// A tenant may replace its key under the same name (kid), and a token may name no key at all: then
// the kid says nothing. Where the target refuses the cached global token, every token the cache
// holds from this tenant is minted again.
describe('a key replaced under the same kid', () => {
  async function restartWithNamedKey(): Promise<void> {
    const port = Number(new URL(mock.url).port);
    await mock.close();
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    writeFileSync(keyFile, JSON.stringify({ ...(await exportJWK(privateKey)), kid: 'tenant-signing-key' }), { mode: 0o600 });
    mock = await createMockServer({ port, signingKey: keyFile, tokenQuota: { perHour: 100, perDay: 1000 }, report: () => {} });
  }

  it('gets every token of the tenant minted again, and no test fails for a token of the old key', async () => {
    await restartWithNamedKey();
    const named = await conformance('named');
    expect(resultsOf(named.out).tests.filter((t) => t.state === 'failed')).toEqual([]);
    await restartWithNamedKey();
    const replaced = await conformance('replaced-in-place');
    expect(
      resultsOf(replaced.out)
        .tests.filter((t) => t.state === 'failed')
        .map((t) => t.name),
    ).toEqual([]);
    expect(replaced.issued).toBe(runs[0]!.issued);
    expect(replaced.finished.stdout).toMatch(/^tokens: \d+ minted, 1 reused;/m);
  }, 240_000);
});
