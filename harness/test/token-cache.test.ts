// The token cache: a token comes back only for the same endpoint, client, audience and secret,
// and only while it outlives what the caller asks; the file is 0600 in a 0700 directory and holds
// neither the token nor the secret; a file that is not a cache, or cannot be written, never fails
// anything; the quota header reads as what is left.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultTokenCacheDir, TokenCache, type TokenCacheKey } from '../token-cache.ts';
import { describeQuota, parseQuotaHeader, quotaSpentUntil, supersedes } from '../token-quota.ts';

const work = mkdtempSync(join(tmpdir(), 'token-cache-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let dirs = 0;
const newDir = () => join(work, `cache-${++dirs}`, 'mgmt-api-conformance');

const KEY: TokenCacheKey = {
  tokenUrl: 'https://tenant.example.com/oauth/token/',
  clientId: 'client-a',
  audience: 'https://tenant.example.com/api/v2/',
  clientSecret: 'the-secret-of-client-a-0123456789',
};
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2lnbmF0dXJl';
const IN_A_DAY = Date.now() + 86_400_000;

describe('TokenCache', () => {
  it('gives back a token for the same endpoint, client, audience and secret', () => {
    const cache = new TokenCache(newDir());
    cache.put(KEY, TOKEN, IN_A_DAY);
    expect(new TokenCache(cache.dir).get(KEY, Date.now())).toEqual({ token: TOKEN, expiresAt: IN_A_DAY });
  });

  it('gives nothing for another endpoint, client, audience, or a changed secret', () => {
    const cache = new TokenCache(newDir());
    cache.put(KEY, TOKEN, IN_A_DAY);
    for (const other of [
      { ...KEY, tokenUrl: 'https://other.example.com/oauth/token/' },
      { ...KEY, clientId: 'client-b' },
      { ...KEY, audience: 'https://reports.example.com/' },
      { ...KEY, clientSecret: 'the-secret-of-client-a-0123456780' },
    ])
      expect(cache.get(other, Date.now())).toBeUndefined();
  });

  it('gives nothing that would expire before the time the caller needs it until', () => {
    const cache = new TokenCache(newDir());
    cache.put(KEY, TOKEN, Date.now() + 600_000);
    expect(cache.get(KEY, Date.now() + 599_000)).toBeDefined();
    expect(cache.get(KEY, Date.now() + 600_000)).toBeUndefined();
  });

  it('keeps its file 0600 in a 0700 directory, holding neither the token nor the secret', () => {
    const cache = new TokenCache(newDir());
    cache.put(KEY, TOKEN, IN_A_DAY);
    const file = join(cache.dir, 'tokens.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(cache.dir).mode & 0o777).toBe(0o700);
    const text = readFileSync(file, 'utf8');
    for (const secret of [TOKEN, KEY.clientSecret, 'eyJ', KEY.clientId]) expect(text).not.toContain(secret);
  });

  it('narrows a directory and a file a CI cache restored with wider modes', () => {
    const dir = newDir();
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    const cache = new TokenCache(dir);
    cache.put(KEY, TOKEN, IN_A_DAY);
    chmodSync(join(dir, 'tokens.json'), 0o644);
    cache.put({ ...KEY, clientId: 'client-b' }, TOKEN, IN_A_DAY);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'tokens.json')).mode & 0o777).toBe(0o600);
  });

  it('does not use an entry written without the secret (it does not decrypt)', () => {
    const cache = new TokenCache(newDir());
    cache.put(KEY, TOKEN, IN_A_DAY);
    const file = join(cache.dir, 'tokens.json');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { entries: Record<string, { data: string }> };
    for (const entry of Object.values(stored.entries))
      entry.data = Buffer.from('eyJmb3JnZWQ.eyJmb3JnZWQ.c2ln-and-a-tag-00').toString('base64');
    writeFileSync(file, JSON.stringify(stored));
    expect(cache.get(KEY, Date.now())).toBeUndefined();
  });

  it('treats a file that is not a cache as empty, says so once, and replaces it', () => {
    const dir = newDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tokens.json'), 'not json at all');
    const cache = new TokenCache(dir);
    expect(cache.get(KEY, Date.now())).toBeUndefined();
    cache.put(KEY, TOKEN, IN_A_DAY);
    expect(cache.get(KEY, Date.now())?.token).toBe(TOKEN);
    expect(cache.problems).toEqual([`${join(dir, 'tokens.json')} is not a token cache (not JSON); it will be replaced`]);
  });

  it('remembers nothing, without failing, where it cannot write', () => {
    const parent = join(work, 'read-only');
    mkdirSync(parent, { recursive: true, mode: 0o500 });
    chmodSync(parent, 0o500);
    const cache = new TokenCache(join(parent, 'mgmt-api-conformance'));
    expect(() => cache.put(KEY, TOKEN, IN_A_DAY)).not.toThrow();
    // root may write anywhere; elsewhere the failure is said once.
    if (process.getuid?.() !== 0) expect(cache.problems[0]).toMatch(/cannot be written \(EACCES\); tokens are not kept$/);
    else expect(cache.get(KEY, Date.now())?.token).toBe(TOKEN);
    chmodSync(parent, 0o700);
  });

  it('forgets a dropped token', () => {
    const cache = new TokenCache(newDir());
    cache.put(KEY, TOKEN, IN_A_DAY);
    cache.drop(KEY);
    expect(cache.get(KEY, Date.now())).toBeUndefined();
  });
});

describe('defaultTokenCacheDir', () => {
  it('is under an absolute XDG_CACHE_HOME, else under ~/.cache', () => {
    expect(defaultTokenCacheDir({ XDG_CACHE_HOME: '/var/cache/ci' })).toBe('/var/cache/ci/mgmt-api-conformance');
    expect(defaultTokenCacheDir({ XDG_CACHE_HOME: 'relative/dir' })).toMatch(/\/\.cache\/mgmt-api-conformance$/);
    expect(defaultTokenCacheDir({})).toMatch(/\/\.cache\/mgmt-api-conformance$/);
  });
});

describe('the token quota header', () => {
  it('reads as what is left of each bucket', () => {
    const value = 'b=per_hour;q=10;r=7;t=3540,b=per_day;q=50;r=47;t=43200';
    expect(parseQuotaHeader(value)).toEqual([
      { bucket: 'per_hour', quota: 10, remaining: 7, resetsIn: 3540 },
      { bucket: 'per_day', quota: 50, remaining: 47, resetsIn: 43200 },
    ]);
    expect(describeQuota(value)).toBe('per_hour 7 of 10 left (resets in 59 min), per_day 47 of 50 left (resets in 12 h)');
    expect(quotaSpentUntil(value, 0)).toBeUndefined();
    expect(quotaSpentUntil('b=per_hour;q=10;r=0;t=60,b=per_day;q=50;r=40;t=43200', 1000)).toBe(61_000);
  });

  // Answers are seen in the order they come back: two minted in the same millisecond, or the later
  // count's answer seen first, must not leave the report one token behind.
  it('keeps the later account of the quota, whatever order its answers are seen in', () => {
    const header = (left: number, resetsIn: number) => `b=per_hour;q=100;r=${left};t=${resetsIn}`;
    expect(supersedes({ header: header(69, 3000), at: 1000 }, { header: header(70, 3000), at: 1000 })).toBe(true);
    expect(supersedes({ header: header(70, 3000), at: 1000 }, { header: header(69, 3000), at: 1000 })).toBe(false);
    expect(supersedes({ header: header(70, 3000), at: 1005 }, { header: header(69, 3000), at: 1000 })).toBe(false);
    // A window that ends an hour later has started again: more left, and the later account.
    expect(supersedes({ header: header(99, 3600), at: 600_000 }, { header: header(1, 60), at: 500_000 })).toBe(true);
    expect(supersedes({ header: header(1, 60), at: 500_000 }, { header: header(99, 3600), at: 600_000 })).toBe(false);
    // Unreadable ones by when they were seen.
    expect(supersedes({ header: 'x', at: 2 }, { header: header(5, 10), at: 1 })).toBe(true);
    expect(supersedes({ header: 'x', at: 1 }, { header: header(5, 10), at: 2 })).toBe(false);
  });

  it('is shown escaped and capped when it is not that', () => {
    expect(describeQuota('b=per_hour;q=ten')).toBe('unreadable: "b=per_hour;q=ten"');
    expect(describeQuota('\u001b[2J' + 'x'.repeat(300))).toMatch(/^unreadable: "\\u001b\[2Jx+…"$/);
  });
});
