// The harness as the command line sees it: the one module cli/ imports from harness/ (the suites
// have theirs, index.ts). Reading a target file, the plan vocabulary, the preflight, the redactor,
// the errors that stop a run, and the settings that cross into the test worker.
export { loadTargetFile, readBoundedText, resolveTarget } from './config.ts';
export { ConfigError, HarnessError } from './errors.ts';
export { PREFLIGHT_REQUESTS, preflight, waitPastBound, type Preflight, type PreflightBreach } from './preflight.ts';
export {
  evaluatePlan,
  leavesClauseUnverified,
  parseSkipNote,
  PLANNING,
  sharedKeys,
  type EvaluatedPlan,
  type PlanRegistry,
  type SkipCategory,
  type TestPlan,
} from './plan.ts';
export { redactor } from './redact.ts';
export type { RateLimitPoint } from './conformance.ts';
export type { MatrixEntry, RateLimitObservation, ResolvedTarget, RunSettings } from './settings.ts';
export { NOT_RUN_AFTER_FAILURE } from './settings.ts';
export type { RecordedExchange } from './exchange-record.ts';
export { orderSuiteFiles, shardOf } from './suite/order.ts';
export { defaultTokenCacheDir } from './token-cache.ts';
export { cachedTokenKeys, TOKEN_REUSE_MARGIN_MS, type TokenUse } from './tokens.ts';
export type { TokenPolicy } from './settings.ts';
export type { Confirmation } from './confirm.ts';
export type { PacingReport } from './pacer.ts';
export { describeQuota, supersedes } from './token-quota.ts';
