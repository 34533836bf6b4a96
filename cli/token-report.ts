// What a run spent of the tenant's machine-to-machine tokens, for every report: tokens minted
// (the preflight's and the tests') and reused from the cache, the cache used, --max-tokens, the
// last quota header each client was sent (the token endpoint's own account of what is left), and
// what went wrong with the cache. Never a token, a secret or anything derived from one.
import { describeQuota, supersedes, type TokenPolicy, type TokenUse } from '../harness/runner.ts';

export interface TokenReport {
  /** The cache directory, or why there is none. */
  cache: string;
  minted: number;
  reused: number;
  maxTokens?: number;
  /** Each client (a role or an alternative) whose answers carried the quota header: what the last one said. */
  quotas: Array<{ client: string; quota: string; at: number }>;
  problems: string[];
}

/** Per test: what it spent (the meta a test records). */
export interface TestTokenUse {
  minted: number;
  reused: number;
  quotas: TokenUse['quotas'];
  problems: string[];
}

export function tokenReport(
  policy: TokenPolicy | undefined,
  cacheOff: string,
  parts: ReadonlyArray<{ use: Omit<TestTokenUse, 'problems'>; problems: readonly string[] }>,
): TokenReport {
  const latest = new Map<string, { header: string; at: number }>();
  for (const { use } of parts) {
    for (const [client, seen] of Object.entries(use.quotas)) {
      const kept = latest.get(client);
      if (kept === undefined || supersedes(seen, kept)) latest.set(client, seen);
    }
  }
  return {
    cache: policy?.cacheDir ?? cacheOff,
    minted: parts.reduce((sum, p) => sum + p.use.minted, 0),
    reused: parts.reduce((sum, p) => sum + p.use.reused, 0),
    ...(policy?.maxTokens !== undefined ? { maxTokens: policy.maxTokens } : {}),
    quotas: [...latest].map(([client, seen]) => ({ client, quota: describeQuota(seen.header), at: seen.at })),
    problems: [...new Set(parts.flatMap((p) => p.problems))],
  };
}

/** Shards of one run: their counts summed, the latest quota of each client, the first shard's cache. */
export function mergeTokenReports(reports: ReadonlyArray<TokenReport | undefined>): TokenReport | undefined {
  const present = reports.filter((r): r is TokenReport => r !== undefined);
  if (present.length === 0) return undefined;
  const latest = new Map<string, TokenReport['quotas'][number]>();
  for (const quota of present.flatMap((r) => r.quotas))
    if ((latest.get(quota.client)?.at ?? -1) <= quota.at) latest.set(quota.client, quota);
  return {
    cache: present[0]!.cache,
    minted: present.reduce((sum, r) => sum + r.minted, 0),
    reused: present.reduce((sum, r) => sum + r.reused, 0),
    ...(present[0]!.maxTokens !== undefined ? { maxTokens: present[0]!.maxTokens } : {}),
    quotas: [...latest.values()],
    problems: [...new Set(present.flatMap((r) => r.problems))],
  };
}

/** "2 minted (at most 5), 7 reused from the token cache (~/.cache/...)". */
export function tokensLine(report: TokenReport): string {
  return `${report.minted} minted${report.maxTokens !== undefined ? ` (at most ${report.maxTokens}, --max-tokens)` : ''}, ${report.reused} reused; token cache: ${report.cache}`;
}

/** "global: per_hour 7 of 10 left (resets in 59 min); ...", or undefined when no answer carried the quota header. */
export function quotaLine(report: TokenReport): string | undefined {
  return report.quotas.length > 0 ? report.quotas.map((q) => `${q.client}: ${q.quota}`).join('; ') : undefined;
}
