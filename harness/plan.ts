// The request plan of a test: what it needs and how many requests it sends, declared with the
// test and evaluated before anything is sent. `--list` prints it, the runner checks its total
// against --max-requests, and the session holds each test to it while it runs (a test that would
// send more than it planned, or use something it did not declare, is a suite bug and fails).
//
// Requests come in two kinds. A test's own requests are its cases. Shared requests are sent once
// per run and read by every test that declares them: the token of a role, the JWKS, a read of a
// fixture, one ticket, the rate-limit exhaustion. The plan's total counts each shared key once.
import { operationKeys, type OperationKey } from '../specs/index.ts';
import { fixtureField } from '../specs/cards/fixtures.ts';
import type { RoleName, RunSettings, TargetFixtures } from './settings.ts';

/** Why a test does not run; the reports group unverified clauses by it. */
export type SkipCategory =
  /** The user did not opt in to writes or to spending the rate limit. */
  | 'opt-in'
  /** The target file lacks a role or a fixture the test needs. */
  | 'config'
  /** A token only the signing key or a real-tenant alternative can make; neither is configured. */
  | 'alternative'
  /** Only the target's own signing key can make the token, and no real tenant gives it. */
  | 'not-applicable'
  | 'budget'
  | 'time'
  /** The target's rate limit would keep the suite waiting past its bound. */
  | 'rate-limit'
  /** An earlier result the test builds on did not come (e.g. no 429 to inspect). */
  | 'depends'
  /** The run's filter (--grep, --operation) left the test out. */
  | 'not-selected'
  /** Generated cases only, and the run asks for none: other tests cover the clause deterministically. */
  | 'random-only'
  /** The same request without the defect was not accepted (or could not be sent): a refusal proves nothing. */
  | 'control'
  /** An extended row of the matrix: run against test doubles, or with --matrix full; the core rows check its clause. */
  | 'extended'
  /** It failed once, and passed when its requests were sent once more (harness/confirm.ts). */
  | 'not-reproduced';

export const skipCategories: readonly SkipCategory[] = [
  'opt-in',
  'config',
  'alternative',
  'not-applicable',
  'budget',
  'time',
  'rate-limit',
  'depends',
  'not-selected',
  'random-only',
  'control',
  'extended',
  'not-reproduced',
];

/**
 * Planning mode: while the runner imports the suite files to plan a run (cli/planner.ts), this
 * global holds a registry and `conformance()` records each test in it instead of registering it.
 */
export const PLANNING = Symbol.for('mgmt-api-conformance.planning');

export interface PlanRegistry {
  file: string;
  add(title: string, plan: TestPlan): void;
}

/** A skip note carries its category in front: "[opt-in] writes to ... need --allow-writes". */
export function skipNote(category: SkipCategory, reason: string): string {
  return `[${category}] ${reason}`;
}

export function parseSkipNote(note: string | undefined): { category: SkipCategory | undefined; reason: string } {
  const match = /^\[([a-z-]+)\] ([\s\S]*)$/.exec(note ?? '');
  if (match && (skipCategories as readonly string[]).includes(match[1]!)) return { category: match[1] as SkipCategory, reason: match[2]! };
  return { category: undefined, reason: note ?? '' };
}

/** Tokens a test may need that only the signing key, or a configured real-tenant alternative, can make. */
export type MintedToken =
  /** Expired: signing key, or token_alternatives.expired_token_env. */
  | 'expired'
  /** Validly signed for another audience: signing key, or token_alternatives.other_audience. */
  | 'wrong-audience'
  /** Validly signed by another issuer with a key the target does not publish: signing key, or token_alternatives.other_tenant. */
  | 'wrong-issuer'
  /** Any other claim change (near misses): the signing key only. */
  | 'signing-key';

export type Need =
  | { role: RoleName }
  | { fixture: keyof TargetFixtures }
  | { writes: true }
  | { exhaustion: true }
  | { token: MintedToken }
  /** A condition on the target's configuration; returns the skip reason when it does not hold. */
  | { check: (context: PlanContext) => string | undefined; category: SkipCategory };

/** Builders, so a plan reads `needs: [role('non_global'), fixture('eventStream'), writes]`. */
export const role = (name: RoleName): Need => ({ role: name });
export const fixture = (name: keyof TargetFixtures): Need => ({ fixture: name });
export const writes: Need = { writes: true };
export const exhaustion: Need = { exhaustion: true };
export const minted = (token: MintedToken): Need => ({ token });
/** A test of generated cases only: it runs when the run asks for generated cases (--num-runs). */
export const generatedCases: Need = {
  check: (context) =>
    context.numRuns > 0
      ? undefined
      : 'generated cases only, and this run asks for none (--num-runs N adds them); deterministic tests cover the clause',
  category: 'random-only',
};

/** What a plan is evaluated against: the run's settings (target, opt-ins, generated cases). */
export type PlanContext = RunSettings;

type OrFunction<T> = T | ((context: PlanContext) => T);

export interface TestPlan {
  /** The test's own requests to a conforming target: its deterministic cases plus generated ones. */
  requests: OrFunction<number>;
  /** The operation the test sends to, where its clause id does not start with it (for --operation). */
  operation?: OperationFilter;
  needs?: OrFunction<Need[]>;
  /** Keys of the shared requests it reads (see sharedKeys). Tokens of needed roles are added. */
  shared?: OrFunction<string[]>;
}

/** What --operation filters on: an operation, or the token endpoint. */
export type OperationFilter = OperationKey | 'token';

/** A plan evaluated for one run: plain data, so it travels in the test's meta to the reports. */
export interface EvaluatedPlan {
  requests: number;
  operation?: OperationFilter;
  shared: string[];
  roles: RoleName[];
  fixtures: Array<keyof TargetFixtures>;
  tokens: MintedToken[];
  writes: boolean;
  exhaustion: boolean;
  skip?: { category: SkipCategory; reason: string };
}

/** The keys of shared requests, in one place, so a plan and a call name them alike. */
export const sharedKeys = {
  token: (name: string) => `token ${name}`,
  /**
   * The exchange that issued a role's token in this run, for tests of the token endpoint: the
   * token of `token` may come from the cache, this one is minted (or is the run's own mint).
   */
  tokenExchange: (role: string) => `token exchange ${role}`,
  jwks: 'jwks',
  exhaustion: 'rate-limit exhaustion',
} as const;

const resolve = <T>(value: OrFunction<T> | undefined, context: PlanContext, fallback: T): T =>
  value === undefined ? fallback : typeof value === 'function' ? (value as (c: PlanContext) => T)(context) : value;

const OPERATION_PREFIXES: readonly OperationFilter[] = [...operationKeys, 'token'];

/** The operation a test sends to: declared, or the first segment of the clause id it cites. */
function operationOf(title: string, plan: TestPlan): OperationFilter | undefined {
  if (plan.operation) return plan.operation;
  const first = /^\[§[0-9.]+ ([a-z-]+)\./.exec(title)?.[1];
  return (OPERATION_PREFIXES as readonly string[]).includes(first ?? '') ? (first as OperationFilter) : undefined;
}

/** Why the run's filter leaves a test out, if it does. */
function filteredOut(title: string, operation: OperationFilter | undefined, context: PlanContext): string | undefined {
  const { grep, grepInvert, operations } = context.filter;
  if (grep !== undefined && !title.includes(grep)) return `its title does not contain "${grep}" (--grep)`;
  if (grepInvert !== undefined && title.includes(grepInvert)) return `its title contains "${grepInvert}" (--grep-invert)`;
  if (operations !== undefined && (operation === undefined || !operations.includes(operation))) {
    return `it sends to ${operation ?? 'several operations'}, not ${operations.join(', ')} (--operation)`;
  }
  return undefined;
}

export function evaluatePlan(title: string, plan: TestPlan, context: PlanContext): EvaluatedPlan {
  const needs = resolve(plan.needs, context, []);
  const roles = needs.flatMap((n) => ('role' in n ? [n.role] : []));
  const operation = operationOf(title, plan);
  const out: EvaluatedPlan = {
    requests: resolve(plan.requests, context, 0),
    ...(operation ? { operation } : {}),
    shared: [...new Set([...resolve(plan.shared, context, []), ...roles.map((r) => sharedKeys.token(r))])],
    roles,
    fixtures: needs.flatMap((n) => ('fixture' in n ? [n.fixture] : [])),
    tokens: needs.flatMap((n) => ('token' in n ? [n.token] : [])),
    writes: needs.some((n) => 'writes' in n),
    exhaustion: needs.some((n) => 'exhaustion' in n),
  };
  if (out.exhaustion && !out.shared.includes(sharedKeys.exhaustion)) out.shared.push(sharedKeys.exhaustion);
  for (const token of out.tokens) out.shared.push(...alternativeShared(token, context));
  const notSelected = filteredOut(title, operation, context);
  const leftOut = context.filter.leftOut?.[title];
  const skip = notSelected
    ? { category: 'not-selected' as const, reason: notSelected }
    : leftOut !== undefined
      ? { category: 'budget' as const, reason: leftOut }
      : firstUnmet(needs, context);
  if (skip) out.skip = skip;
  return out;
}

/** A real-tenant alternative is fetched from its token endpoint once per run. */
function alternativeShared(token: MintedToken, context: PlanContext): string[] {
  if (context.target.signingKeyJwk !== undefined) return [];
  if (token === 'wrong-audience' && context.target.tokenAlternatives.otherAudience) return [sharedKeys.token('other_audience')];
  if (token === 'wrong-issuer' && context.target.tokenAlternatives.otherTenant) return [sharedKeys.token('other_tenant')];
  return [];
}

function firstUnmet(needs: Need[], context: PlanContext): EvaluatedPlan['skip'] {
  const { target } = context;
  for (const need of needs) {
    if ('role' in need && !target.roles[need.role]) {
      return { category: 'config', reason: `role ${need.role} is not configured (roles.${need.role} in the target file)` };
    }
    if ('fixture' in need) {
      const value = target.fixtures[need.fixture];
      if (value === undefined || (Array.isArray(value) && value.length === 0)) {
        const field = fixtureField(need.fixture);
        return { category: 'config', reason: `fixture ${field} is not configured (fixtures.${field} in the target file)` };
      }
    }
    if ('writes' in need && !target.testDouble && !context.allowWrites) {
      return {
        category: 'opt-in',
        reason: 'it makes the target write; against a target that is not a test double that needs --allow-writes',
      };
    }
    if ('exhaustion' in need && !target.testDouble && !context.allowRateLimitExhaustion) {
      return {
        category: 'opt-in',
        reason:
          "it spends the target's rate limit on purpose; against a target that is not a test double that needs --allow-rate-limit-exhaustion",
      };
    }
    if ('token' in need) {
      const missing = missingTokenSource(need.token, context);
      if (missing) return missing;
    }
    if ('check' in need) {
      const reason = need.check(context);
      if (reason !== undefined) return { category: need.category, reason };
    }
  }
  return undefined;
}

function missingTokenSource(token: MintedToken, context: PlanContext): EvaluatedPlan['skip'] {
  const { target } = context;
  if (target.signingKeyJwk !== undefined) return undefined;
  const alternatives = target.tokenAlternatives;
  switch (token) {
    case 'expired':
      return alternatives.expiredToken
        ? undefined
        : {
            category: 'alternative',
            reason:
              'needs an expired token: signing_key_file, or token_alternatives.expired_token_env (a token captured earlier that has since expired)',
          };
    case 'wrong-audience':
      return alternatives.otherAudience
        ? undefined
        : {
            category: 'alternative',
            reason:
              'needs a token for another audience: signing_key_file, or token_alternatives.other_audience (a client of this tenant authorized for another API)',
          };
    case 'wrong-issuer':
      return alternatives.otherTenant
        ? undefined
        : {
            category: 'alternative',
            reason: 'needs a token from another issuer: signing_key_file, or token_alternatives.other_tenant (a client of a second tenant)',
          };
    case 'signing-key':
      return {
        category: 'not-applicable',
        reason: "only the target's own signing key can make this token (signing_key_file); a real tenant never gives it",
      };
  }
}

/** Whether a skip leaves its clause unverified: all do, but what cannot apply to the target and redundant random repetitions. */
export function leavesClauseUnverified(category: SkipCategory | undefined): boolean {
  return category !== 'not-applicable' && category !== 'random-only' && category !== 'extended';
}
