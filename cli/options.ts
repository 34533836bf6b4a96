// The command line of `npm start`: parsed and validated once; a bad option is a UsageError that
// names it, printed without a stack trace.
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
  maxRequests: number;
  requestTimeoutMs: number;
  runTimeoutSeconds: number;
  numRuns: number;
  outDir: string;
  grep?: string;
  help: boolean;
}

export const DEFAULTS = {
  maxRequests: 4000,
  requestTimeoutMs: 10_000,
  runTimeoutSeconds: 600,
  numRuns: 20,
  outDir: 'reports',
} as const;

export const HELP = `Usage: npm start -- [options]

Runs the conformance suite of the management API v2 against a target and writes
reports/junit.xml and reports/summary.md. With no --target-file, it starts the mock
server on a free loopback port and runs against it.

Options:
  --target-file FILE              target description (YAML); see targets/example-tenant.yaml
  --strict                        observed-level failures fail the run too
  --seed N                        seed of every property test (default: random, printed)
  --shard I/N                     run shard I of N; merge with: npm run merge-reports
  --allow-writes                  allow redeliveries and ticket creation on a non-loopback target
  --allow-rate-limit-exhaustion   allow spending the rate limit on purpose on a non-loopback target
  --max-requests N                request budget of the run (default ${DEFAULTS.maxRequests})
  --request-timeout MS            timeout of each request (default ${DEFAULTS.requestTimeoutMs})
  --run-timeout S                 bound of the whole run in seconds (default ${DEFAULTS.runTimeoutSeconds})
  --num-runs N                    generated cases per property test (default ${DEFAULTS.numRuns})
  --grep TEXT                     run only tests whose name contains TEXT (e.g. a clause id)
  --out DIR                       where reports are written (default ${DEFAULTS.outDir})
  -h, --help                      show this help

Exit status: 0 every gating test passed; 1 a gating test failed; 2 bad option or
target file; 3 the run could not be carried out (target unreachable, suite error).`;

function positiveInteger(name: string, value: string | undefined, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || (!allowZero && Number(value) === 0) || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name} needs a ${allowZero ? 'non-negative' : 'positive'} integer, got "${value}"`);
  }
  return Number(value);
}

export function parseConformanceOptions(argv: string[]): ConformanceOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        'target-file': { type: 'string' },
        strict: { type: 'boolean', default: false },
        seed: { type: 'string' },
        shard: { type: 'string' },
        'allow-writes': { type: 'boolean', default: false },
        'allow-rate-limit-exhaustion': { type: 'boolean', default: false },
        'max-requests': { type: 'string' },
        'request-timeout': { type: 'string' },
        'run-timeout': { type: 'string' },
        'num-runs': { type: 'string' },
        grep: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!.replace(/\. To specify a positional.*$/, ''));
  }
  const v = parsed.values;
  let shard: ConformanceOptions['shard'];
  if (v.shard !== undefined) {
    const match = /^(\d+)\/(\d+)$/.exec(v.shard);
    const index = Number(match?.[1]);
    const count = Number(match?.[2]);
    if (!match || index < 1 || count < 1 || index > count) {
      throw new UsageError(`--shard needs I/N with 1 <= I <= N, got "${v.shard}"`);
    }
    shard = { index, count };
  }
  if (v['target-file'] === '') throw new UsageError('--target-file needs a file path');
  return {
    ...(v['target-file'] ? { targetFile: v['target-file'] } : {}),
    strict: v.strict ?? false,
    ...(v.seed !== undefined ? { seed: positiveInteger('seed', v.seed, 0, true) } : {}),
    ...(shard ? { shard } : {}),
    allowWrites: v['allow-writes'] ?? false,
    allowRateLimitExhaustion: v['allow-rate-limit-exhaustion'] ?? false,
    maxRequests: positiveInteger('max-requests', v['max-requests'], DEFAULTS.maxRequests),
    requestTimeoutMs: positiveInteger('request-timeout', v['request-timeout'], DEFAULTS.requestTimeoutMs),
    runTimeoutSeconds: positiveInteger('run-timeout', v['run-timeout'], DEFAULTS.runTimeoutSeconds),
    numRuns: positiveInteger('num-runs', v['num-runs'], DEFAULTS.numRuns),
    outDir: v.out ?? DEFAULTS.outDir,
    ...(v.grep ? { grep: v.grep } : {}),
    help: v.help ?? false,
  };
}
