import { describe, expect, it } from 'vitest';
import { DEFAULTS, UsageError, parseConformanceOptions } from '../options.ts';

describe('parseConformanceOptions', () => {
  it('has defaults for everything', () => {
    expect(parseConformanceOptions([])).toEqual({
      strict: false, allowWrites: false, allowRateLimitExhaustion: false, help: false,
      maxRequests: DEFAULTS.maxRequests, requestTimeoutMs: DEFAULTS.requestTimeoutMs,
      runTimeoutSeconds: DEFAULTS.runTimeoutSeconds, numRuns: DEFAULTS.numRuns, outDir: DEFAULTS.outDir,
    });
  });

  it('reads every option', () => {
    const options = parseConformanceOptions([
      '--target-file', 't.yaml', '--strict', '--seed', '7', '--shard', '2/3', '--allow-writes',
      '--allow-rate-limit-exhaustion', '--max-requests', '50', '--request-timeout', '900',
      '--run-timeout', '30', '--num-runs', '3', '--grep', 'redeliver', '--out', 'out',
    ]);
    expect(options).toMatchObject({
      targetFile: 't.yaml', strict: true, seed: 7, shard: { index: 2, count: 3 }, allowWrites: true,
      allowRateLimitExhaustion: true, maxRequests: 50, requestTimeoutMs: 900, runTimeoutSeconds: 30,
      numRuns: 3, grep: 'redeliver', outDir: 'out',
    });
  });

  it.each([
    [['--max-requests', 'lots'], /--max-requests needs a positive integer, got "lots"/],
    [['--max-requests', '0'], /--max-requests needs a positive integer/],
    [['--seed=-1'], /--seed needs a non-negative integer/],
    [['--seed', '-1'], /'--seed' argument is ambiguous/],
    [['--shard', '3/2'], /--shard needs I\/N with 1 <= I <= N, got "3\/2"/],
    [['--shard', 'half'], /--shard needs I\/N/],
    [['--colour'], /Unknown option '--colour'/],
    [['--seed'], /--seed/],
    [['extra'], /extra/],
  ])('refuses %j with a message naming it', (argv, message) => {
    expect(() => parseConformanceOptions(argv)).toThrow(UsageError);
    expect(() => parseConformanceOptions(argv)).toThrow(message);
  });
});
