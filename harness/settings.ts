// What one conformance run needs, decided once by the command line and handed to the suites.
// It crosses from the runner to the test worker through vitest's `provide`, so it is plain data.

import type { TargetFixtures } from '../specs/cards/fixtures.ts';
import type { RoleName } from '../specs/cards/index.ts';

export type { TargetFixtures } from '../specs/cards/fixtures.ts';

export { roleNames, type RoleName } from '../specs/cards/index.ts';

export interface RoleCredentials {
  clientId: string;
  clientSecret: string;
  /** The client's display name on the tenant, where the target file states it (roles.<role>.name). */
  name?: string;
}

/** A client of some token endpoint: the same tenant for another API, or a second tenant. */
export interface ForeignClient {
  tokenUrl: string;
  audience: string;
  clientId: string;
  clientSecret: string;
}

/**
 * What a real tenant can offer instead of the signing key, which it never gives: tokens that are
 * validly signed but wrong in exactly one way.
 */
export interface TokenAlternatives {
  /** A token of this tenant captured earlier that has since expired. */
  expiredToken?: string;
  /** A client of this tenant authorized for another API: a validly signed token with the wrong audience. */
  otherAudience?: ForeignClient;
  /** A client of a second tenant: the wrong issuer and a key this tenant does not publish. */
  otherTenant?: ForeignClient;
  /**
   * A client of this tenant that authenticates with a key (private_key_jwt) and has no secret: its
   * id, and its private key (a JWK, as JSON) to sign a token with a key the tenant knows, though not
   * as one of its own signing keys.
   */
  keyClient?: { clientId: string; privateKeyJwk: string };
}

/** What the target file says of the target's rate limit, when the user knows it (published figures). */
export interface DeclaredRateLimit {
  limit?: number;
  refillPerSecond?: number;
  /**
   * The bucket size a test double was started with (the embedded mock's, or the target file's
   * `bucket_size`): known exactly, unlike a tier's published figure, and not a bound the suite paces by.
   */
  startedBucket?: number;
}

export interface ResolvedTarget {
  /** Where the target was described: a file path, or "embedded mock". */
  source: string;
  baseUrl: string;
  authUrl: string;
  audience: string;
  customDomainHeader: string;
  roles: Partial<Record<RoleName, RoleCredentials>>;
  fixtures: TargetFixtures;
  /** A private JWK (JSON) of the target's signing key, when the suite holds it. */
  signingKeyJwk?: string;
  tokenAlternatives: TokenAlternatives;
  /** Another API of the tenant that the global role's client holds no grant for (its identifier), where the file names one. */
  ungrantedAudience?: string;
  rateLimit: DeclaredRateLimit;
  /**
   * The target is a test double (the embedded mock, or a target file that declares itself one):
   * writes and rate-limit exhaustion run without opt-in, and the suite need not share its rate
   * limit. A loopback address alone is no proof: a tunnel to a real tenant is loopback too.
   */
  testDouble: boolean;
}

/** What the target's rate-limit headers said before the suite started (the runner's probe). */
export interface RateLimitObservation {
  limit?: number;
  remaining?: number;
  /** X-RateLimit-Reset, in milliseconds since the epoch. */
  resetAtMs?: number;
  /** When the answer was received (ms since the epoch). */
  atMs: number;
}

export interface RunSettings {
  /** Distinguishes runs of one worker (the mutation gate runs many in one process). */
  runId: string;
  target: ResolvedTarget;
  strict: boolean;
  seed: number;
  /** Generated cases per property, on top of each test's deterministic boundary cases. */
  numRuns: number;
  allowWrites: boolean;
  allowRateLimitExhaustion: boolean;
  maxRequests: number;
  requestTimeoutMs: number;
  /** The share of the target's rate limit the suite may use outside the exhaustion tests (0..1]. */
  rateShare: number;
  /** Most requests the rate-limit exhaustion may send (one bucket's worth, bounded). */
  exhaustionMax: number;
  /** When the run must be over (ms since epoch); requests after it are refused. */
  deadline: number;
  /**
   * Gating failures whose requests are safe to repeat are sent once more before the verdict, within
   * this many requests (the plan reserves them); absent: no confirmation (the mutation gate).
   */
  confirmation?: { reserve: number };
  /** How the run gets tokens; absent: every token minted, none kept (the embedded mock, the mutation gate). */
  tokenPolicy?: TokenPolicy;
  /** The rate-limit state the runner's probe saw, so pacing starts informed. */
  rateLimitProbe?: RateLimitObservation;
  /** Which tests run: the others are left out of the run ("not selected"). */
  filter: RunFilter;
  /** Where the run's exchanges are written as they happen, redacted (--record); none when unset. */
  recordTo?: string;
  /**
   * Which rows of the request-model matrix run: every one ('full'), or its core rows ('core'), which
   * cover every element and clause at a cost a real tenant's rate limit affords. Default: full
   * against a test double, core elsewhere.
   */
  matrixScope?: 'core' | 'full';
  /**
   * Matrix mode (the mutation gate): run each test's body against every target here whose clauses
   * it cites, instead of against `target`; the outcomes go into the tests' meta.
   */
  matrix?: MatrixEntry[];
}

/** Tokens kept between runs, and how many a run may mint (harness/tokens.ts). */
export interface TokenPolicy {
  /** The token cache's directory; absent: --no-token-cache. */
  cacheDir?: string;
  /** --max-tokens: tokens the whole run may mint, the runner's preflight included. */
  maxTokens?: number;
  /** Tokens the runner minted before the suite (the preflight). */
  mintedBefore: number;
}

export interface MatrixEntry {
  id: string;
  /** The clauses whose tests run against this entry's target, or all of them. */
  clauses: string[] | 'all';
  settings: RunSettings;
  /** Only these tests (by title) run against this entry; absent, every test of its clauses does. */
  tests?: string[];
  /**
   * Once a test fails against this entry, its later tests are not run against it (their outcome is
   * "skipped" with NOT_RUN_AFTER_FAILURE): the mutation gate asks only whether a fault is caught,
   * as mutation testers stop at a mutant's first killing test.
   */
  stopAtFirstFailure?: boolean;
}

/** The skip note of a matrix entry's test not run because an earlier test already failed against it. */
export const NOT_RUN_AFTER_FAILURE = 'not run: an earlier test already failed against this entry';

export interface RunFilter {
  grep?: string;
  grepInvert?: string;
  /** Operation keys, or 'token' for the token endpoint. */
  operations?: string[];
  /** Tests --max-requests leaves out, by title, each with why (the plan's priority: cli/plan.ts). */
  leftOut?: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    settings: RunSettings;
  }
}
