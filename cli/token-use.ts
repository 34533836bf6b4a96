// How a run gets its tokens, decided by the runner: the token cache (off with --no-token-cache,
// and for the embedded mock, whose tokens cost nothing and whose address changes every run),
// --max-tokens, and which shared token requests the cache already answers (the plan counts them
// as free). After the run, what it spent, from the preflight and every test.
import {
  cachedTokenKeys,
  defaultTokenCacheDir,
  TOKEN_REUSE_MARGIN_MS,
  type Preflight,
  type ResolvedTarget,
  type TokenPolicy,
} from '../harness/runner.ts';
import type { ConformanceOptions } from './options.ts';
import type { TestOutcome } from './reporters/results.ts';
import { tokenReport, type TokenReport } from './token-report.ts';

export interface RunTokens {
  policy: TokenPolicy;
  /** Shared token requests the cache answers (cost nothing in the plan). */
  cached: ReadonlySet<string>;
  /** Why there is no cache, for the report. */
  cacheOff: string;
}

export function tokenPolicyOf(
  options: Pick<ConformanceOptions, 'tokenCache' | 'maxTokens'>,
  target: ResolvedTarget,
  embedded: boolean,
  env: NodeJS.ProcessEnv,
  deadline: number,
): RunTokens {
  const cacheDir = options.tokenCache && !embedded ? defaultTokenCacheDir(env) : undefined;
  const policy: TokenPolicy = {
    ...(cacheDir !== undefined ? { cacheDir } : {}),
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    mintedBefore: 0,
  };
  return {
    policy,
    cached: cacheDir !== undefined ? cachedTokenKeys(target, cacheDir, deadline + TOKEN_REUSE_MARGIN_MS) : new Set(),
    cacheOff: embedded ? 'off (the embedded mock: its tokens cost nothing)' : 'off (--no-token-cache)',
  };
}

export function tokenReportOf(tokens: RunTokens, preflight: Preflight | undefined, tests: readonly TestOutcome[]): TokenReport {
  return tokenReport(tokens.policy, tokens.cacheOff, [
    ...(preflight ? [{ use: preflight.tokens, problems: preflight.cacheProblems }] : []),
    ...tests.flatMap((t) => (t.tokens ? [{ use: t.tokens, problems: t.tokens.problems }] : [])),
  ]);
}
