// The harness's closed catalogue of errors. Each has a stable code so the command line can tell
// "the target broke the contract" (a test failure) from "the harness could not run" (these).

export type HarnessErrorCode =
  | 'CONFIG_INVALID'
  | 'TARGET_UNREACHABLE'
  | 'TARGET_TIMEOUT'
  | 'TARGET_GARBAGE'
  | 'BUDGET_EXHAUSTED'
  | 'RUN_DEADLINE'
  | 'RATE_LIMIT_WAIT'
  | 'TOKEN_UNAVAILABLE'
  /** --max-tokens is spent: no more tokens are minted this run. */
  | 'TOKEN_BUDGET'
  /** The token endpoint's quota of issued tokens (its quota header) is spent for a client. */
  | 'TOKEN_QUOTA'
  /** The suite broke its own plan (sent more than planned, used what it did not declare): a suite bug. */
  | 'PLAN_VIOLATION';

export class HarnessError extends Error {
  readonly code: HarnessErrorCode;
  constructor(code: HarnessErrorCode, message: string) {
    super(message);
    this.name = 'HarnessError';
    this.code = code;
  }
}

/** A target file or option that cannot be used; the CLI prints it and exits 2. */
export class ConfigError extends HarnessError {
  constructor(message: string) {
    super('CONFIG_INVALID', message);
    this.name = 'ConfigError';
  }
}

/** The harness errors that say the target misbehaved on a request (hung, reset, answered garbage). */
const TARGET_CODES: ReadonlySet<HarnessErrorCode> = new Set(['TARGET_UNREACHABLE', 'TARGET_TIMEOUT', 'TARGET_GARBAGE']);

/** Whether an error, or one it wraps (fast-check wraps a property's), is the target misbehaving. */
export function isTargetError(error: unknown): boolean {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    if (e instanceof HarnessError && TARGET_CODES.has(e.code)) return true;
  }
  return false;
}
