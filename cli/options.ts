// The command line of `npm start`: parsed and validated once, before anything heavy is loaded, so
// that --help and a bad option answer at once. Every option also has an environment variable
// (CONFORMANCE_<NAME>, e.g. CONFORMANCE_TARGET_FILE), for CI systems that pass settings that way;
// the flag wins over the variable. A bad option is a UsageError that names it, printed without a
// stack trace. This module imports nothing but node:util.
import { parseArgs } from 'node:util';

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface ConformanceOptions {
  targetFile?: string;
  strict: boolean;
  seed?: number;
  shard?: { index: number; count: number };
  allowWrites: boolean;
  allowRateLimitExhaustion: boolean;
  /** undefined: the default (raised against the embedded mock to what its run needs). */
  maxRequests?: number;
  requestTimeoutMs: number;
  runTimeoutSeconds: number;
  /** Generated cases per property; undefined: the default for the target (embedded mock or not). */
  numRuns?: number;
  rateShare: number;
  /** Most requests the rate-limit exhaustion may send; undefined: the default for the target. */
  exhaustionMax?: number;
  /** Reuse tokens of earlier runs and keep this run's (false: --no-token-cache). */
  tokenCache: boolean;
  /** Most tokens the run may mint (--max-tokens); undefined: no bound. */
  maxTokens?: number;
  outDir: string;
  grep?: string;
  grepInvert?: string;
  operations?: string[];
  baseline?: string;
  /** Which rows of the request-model matrix run; undefined: every row against a test double, the core ones elsewhere. */
  matrixScope?: 'core' | 'full';
  /** Keep the run's exchanges, redacted, in exchanges.ndjson beside its reports. */
  record: boolean;
  list: boolean;
  /** Print the example target file (cli/target-template.ts) and stop. */
  targetTemplate: boolean;
  help: boolean;
}

export const DEFAULTS = {
  maxRequests: 4000,
  requestTimeoutMs: 10_000,
  runTimeoutSeconds: 600,
  /** Generated cases per property against the embedded mock; none elsewhere unless asked. */
  embeddedNumRuns: 20,
  rateShare: 0.5,
  /** The exhaustion may send two buckets and a few more: a real tenant's is 10 (free) to 50 (production). */
  exhaustionMax: 120,
  outDir: 'reports',
} as const;

/**
 * Exit codes: what a CI step reads, each blaming one party. 1: the target broke a clause. 2: the
 * local input (options, target file, baseline, the plan against --max-requests; nothing sent).
 * 3: the target could not be tested as asked (unreachable, its token endpoint unusable, answers
 * the test worker could not hold), or the reports cannot be written. 4: some clause not verified,
 * each with its reason. 5: the suite itself erred (a bug to report).
 */
export const EXIT = { pass: 0, fail: 1, usage: 2, cannotRun: 3, incomplete: 4, suiteError: 5 } as const;

/** A run's exit code, from its verdict and whether (and why) it stopped. */
export function exitCodeOf(result: {
  verdict: 'PASS' | 'FAIL' | 'INCOMPLETE' | 'ERROR';
  info: { stopped?: { cause: 'target' | 'rate-limit' | 'suite' } };
}): number {
  switch (result.verdict) {
    case 'PASS':
      return EXIT.pass;
    case 'FAIL':
      return EXIT.fail;
    case 'ERROR':
      return EXIT.suiteError;
    case 'INCOMPLETE':
      return result.info.stopped?.cause === 'target' ? EXIT.cannotRun : EXIT.incomplete;
  }
}

/** The usage text; `operations`: the operations' keys (specs/openapi.ts operationKeys), which --operation takes with token. */
export const help = (operations: readonly string[]): string => `Usage: npm start -- [options]      (or: npx mgmt-api-conformance [options])

Runs the conformance suite of the management API v2 against a target and writes
reports/junit.xml, junit-observed.xml, summary.md, results.json and report.html.
With no --target-file, it starts the mock server on a free loopback port and runs against it.

Target and run:
  --target-file FILE              target description (YAML); see targets/example-tenant.yaml
  --target-template               print a target file with every role and fixture this
                                  version reads, each with what it is (that example file)
  --strict                        observed-level failures gate the run too
  --seed N                        seed of the generated cases (default: random, printed)
  --num-runs N                    generated cases per property test, on top of each test's
                                  deterministic boundary cases (default ${DEFAULTS.embeddedNumRuns} against
                                  the embedded mock, 0 against any other target)
  --list, --plan                  print every test, its clause and planned requests, the
                                  total, and the request-model matrix; send nothing
  --matrix core|full              rows of the request-model matrix to run: full (default
                                  against a test double) or core (default elsewhere: every
                                  element and clause, at a cost a tenant's rate limit affords)
Filters:
  --grep TEXT                     only tests whose title contains TEXT (e.g. a clause id)
  --grep-invert TEXT              leave out tests whose title contains TEXT
  --operation OP[,OP]             only tests that send to these operations
                                  (${[...operations, 'token'].join(', ')})
  --shard I/N                     run shard I of N; merge with: npm run merge-reports
Someone's tenant:
  --allow-writes                  allow redeliveries and ticket creation on a target that is
                                  not a test double
  --allow-rate-limit-exhaustion   allow spending its rate limit on purpose (one bucket)
  --rate-share F                  share of the target's rate limit the suite may use, 0 < F <= 1
                                  (default ${DEFAULTS.rateShare}; split between shards)
  --max-requests N                request budget of the run (default ${DEFAULTS.maxRequests}); a plan over
                                  it keeps tests by priority, the rest skipped (INCOMPLETE);
                                  with --list, shows what it keeps
  --exhaustion-max N              most requests the rate-limit exhaustion may send
                                  (default ${DEFAULTS.exhaustionMax}; the embedded mock's bucket against it)
  --max-tokens N                  most tokens the run may mint; past it, tests that need a new
                                  token are skipped (0: only tokens from the token cache)
  --no-token-cache                mint every token, keep none (default: tokens are reused from
                                  earlier runs while they live, in $XDG_CACHE_HOME or ~/.cache,
                                  under mgmt-api-conformance/, encrypted with each client's secret)
  --request-timeout MS            timeout of each request (default ${DEFAULTS.requestTimeoutMs})
  --run-timeout S                 bound of the whole run in seconds (default ${DEFAULTS.runTimeoutSeconds})
Reports:
  --out DIR                       where reports are written (default ${DEFAULTS.outDir})
  --baseline FILE                 known failures of this target (YAML), reported but not gating
  --record                        keep every exchange of the run, redacted, in exchanges.ndjson
                                  beside the reports (for check-traffic and compare)
  -h, --help                      show this help

Every option has an environment variable: CONFORMANCE_ and its name in capitals,
e.g. CONFORMANCE_TARGET_FILE=t.yaml, CONFORMANCE_ALLOW_WRITES=true. Flags win.
Targets behind an HTTP proxy: HTTPS_PROXY, HTTP_PROXY and NO_PROXY are honoured.

Exit status: 0 PASS, every gating clause verified; 1 FAIL, the target broke a gating
clause; 2 bad option, target file, baseline or plan (over --max-requests), nothing sent;
3 the target could not be tested as asked (unreachable, its token endpoint unusable,
answers too large for the test worker; reports written with the reason) or the reports
cannot be written; 4 INCOMPLETE, some gating clause was not verified (missing opt-in,
fixture, role, token alternative, budget or time), listed with the reason; 5 ERROR, the
suite itself erred (a bug of the suite, to report).`;

const FLAGS = {
  'target-file': { type: 'string' },
  strict: { type: 'boolean' },
  seed: { type: 'string' },
  shard: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  'allow-rate-limit-exhaustion': { type: 'boolean' },
  'max-requests': { type: 'string' },
  'request-timeout': { type: 'string' },
  'run-timeout': { type: 'string' },
  'num-runs': { type: 'string' },
  'rate-share': { type: 'string' },
  'exhaustion-max': { type: 'string' },
  'max-tokens': { type: 'string' },
  'no-token-cache': { type: 'boolean' },
  grep: { type: 'string' },
  'grep-invert': { type: 'string' },
  operation: { type: 'string', multiple: true },
  baseline: { type: 'string' },
  out: { type: 'string' },
  matrix: { type: 'string' },
  record: { type: 'boolean' },
  list: { type: 'boolean' },
  plan: { type: 'boolean' },
  'target-template': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type FlagName = keyof typeof FLAGS;

/** CONFORMANCE_TARGET_FILE for target-file. */
export function envName(flag: string): string {
  return `CONFORMANCE_${flag.toUpperCase().replace(/-/g, '_')}`;
}

/** What each whole-number option accepts: a value outside it is refused with the range. */
const RANGES = {
  seed: { min: 0, max: 2 ** 31 - 1 },
  'num-runs': { min: 0, max: 10_000 },
  'max-requests': { min: 1, max: 1_000_000 },
  'exhaustion-max': { min: 1, max: 1_000_000 },
  // A timer cannot wait longer than 2^31 - 1 ms; a request or a run has no business near that.
  'request-timeout': { min: 1, max: 600_000 },
  'run-timeout': { min: 1, max: 86_400 },
  // 0 is a run that mints nothing: every token from the cache, or none at all.
  'max-tokens': { min: 0, max: 1_000_000 },
} as const;

function integer(name: keyof typeof RANGES, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const { min, max } = RANGES[name];
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max) {
    throw new UsageError(`--${name} needs a whole number from ${min} to ${max}, got "${value}"`);
  }
  return number;
}

function fraction(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || !(number > 0 && number <= 1))
    throw new UsageError(`--${name} needs a number above 0 and at most 1, got "${value}"`);
  return number;
}

function boolean(name: string, value: string | boolean | undefined): boolean {
  if (value === undefined || typeof value === 'boolean') return value ?? false;
  if (/^(1|true|yes)$/i.test(value)) return true;
  if (/^(0|false|no|)$/i.test(value)) return false;
  throw new UsageError(`${envName(name)} needs true or false, got "${value}"`);
}

/** Flag values, with the environment filling what the command line leaves out. */
function valuesWithEnvironment(argv: string[], env: NodeJS.ProcessEnv): Partial<Record<FlagName, string | boolean | string[]>> {
  let parsed;
  try {
    parsed = parseArgs({ args: negativeValuesJoined(argv), strict: true, allowPositionals: false, options: FLAGS });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!.replace(/\. To specify a positional.*$/, ''));
  }
  const values: Partial<Record<FlagName, string | boolean | string[]>> = { ...parsed.values };
  for (const name of Object.keys(FLAGS) as FlagName[]) {
    const fromEnv = env[envName(name)];
    if (values[name] !== undefined || fromEnv === undefined || name === 'help') continue;
    values[name] = FLAGS[name].type === 'boolean' ? boolean(name, fromEnv) : name === 'operation' ? fromEnv.split(',') : fromEnv;
  }
  return values;
}

/**
 * "--num-runs -1": parseArgs takes "-1" for an option and says only that the argument is
 * ambiguous. A value that reads as a negative number is the option's, so its range check can say
 * what it accepts.
 */
function negativeValuesJoined(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const name = argv[i]!.startsWith('--') ? argv[i]!.slice(2) : '';
    const next = argv[i + 1];
    if ((FLAGS as Record<string, { type: string }>)[name]?.type === 'string' && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${argv[i]}=${next}`);
      i += 1;
    } else out.push(argv[i]!);
  }
  return out;
}

export function parseConformanceOptions(argv: string[], env: NodeJS.ProcessEnv = {}): ConformanceOptions {
  const v = valuesWithEnvironment(argv, env);
  const text = (name: FlagName) => v[name] as string | undefined;
  let shard: ConformanceOptions['shard'];
  if (text('shard') !== undefined) {
    const match = /^(\d+)\/(\d+)$/.exec(text('shard')!);
    const index = Number(match?.[1]);
    const count = Number(match?.[2]);
    if (!match || index < 1 || count < 1 || index > count) {
      throw new UsageError(`--shard needs I/N with 1 <= I <= N, got "${text('shard')}"`);
    }
    shard = { index, count };
  }
  for (const name of ['target-file', 'out', 'grep', 'grep-invert', 'baseline'] as const) {
    if (text(name) === '') throw new UsageError(`--${name} needs a value`);
  }
  const operations = (v.operation as string[] | undefined)?.flatMap((o) => o.split(',')).map((o) => o.trim());
  // Each one is checked against the operations of specs/ when the run is prepared (cli/run.ts):
  // parsing loads nothing of specs/, so that --help and a bad option answer at once.
  const matrixScope = text('matrix');
  if (matrixScope !== undefined && matrixScope !== 'core' && matrixScope !== 'full') {
    throw new UsageError(`--matrix needs core or full, got "${matrixScope}"`);
  }
  const seed = integer('seed', text('seed'));
  const numRuns = integer('num-runs', text('num-runs'));
  const exhaustionMax = integer('exhaustion-max', text('exhaustion-max'));
  const requestTimeoutMs = integer('request-timeout', text('request-timeout')) ?? DEFAULTS.requestTimeoutMs;
  const runTimeoutSeconds = integer('run-timeout', text('run-timeout')) ?? DEFAULTS.runTimeoutSeconds;
  // A request is sent only with its whole timeout before the run's bound (harness/http.ts).
  if (runTimeoutSeconds * 1000 <= requestTimeoutMs) {
    throw new UsageError(
      `--run-timeout ${runTimeoutSeconds} s leaves no room for a request of --request-timeout ${requestTimeoutMs} ms: the run's bound must be longer than one request's`,
    );
  }
  const maxTokens = integer('max-tokens', text('max-tokens'));
  return {
    ...(text('target-file') ? { targetFile: text('target-file')! } : {}),
    strict: boolean('strict', v.strict as boolean | undefined),
    ...(seed !== undefined ? { seed } : {}),
    ...(shard ? { shard } : {}),
    allowWrites: boolean('allow-writes', v['allow-writes'] as boolean | undefined),
    allowRateLimitExhaustion: boolean('allow-rate-limit-exhaustion', v['allow-rate-limit-exhaustion'] as boolean | undefined),
    ...(text('max-requests') !== undefined ? { maxRequests: integer('max-requests', text('max-requests'))! } : {}),
    requestTimeoutMs,
    runTimeoutSeconds,
    ...(numRuns !== undefined ? { numRuns } : {}),
    rateShare: fraction('rate-share', text('rate-share')) ?? DEFAULTS.rateShare,
    ...(exhaustionMax !== undefined ? { exhaustionMax } : {}),
    tokenCache: !boolean('no-token-cache', v['no-token-cache'] as boolean | undefined),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    outDir: text('out') ?? DEFAULTS.outDir,
    ...(text('grep') ? { grep: text('grep')! } : {}),
    ...(text('grep-invert') ? { grepInvert: text('grep-invert')! } : {}),
    ...(operations?.length ? { operations } : {}),
    ...(text('baseline') ? { baseline: text('baseline')! } : {}),
    ...(matrixScope ? { matrixScope } : {}),
    record: boolean('record', v.record as boolean | undefined),
    list: boolean('list', v.list as boolean | undefined) || boolean('plan', v.plan as boolean | undefined),
    targetTemplate: boolean('target-template', v['target-template'] as boolean | undefined),
    help: boolean('help', v.help as boolean | undefined),
  };
}
