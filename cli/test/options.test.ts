import { describe, expect, it } from 'vitest';
import { DEFAULTS, UsageError, envName, help, parseConformanceOptions } from '../options.ts';
import { operationKeys } from '../../specs/index.ts';

describe('parseConformanceOptions', () => {
  it('has defaults for everything, leaving to the run what depends on the target', () => {
    expect(parseConformanceOptions([])).toEqual({
      strict: false,
      allowWrites: false,
      allowRateLimitExhaustion: false,
      help: false,
      list: false,
      targetTemplate: false,
      record: false,
      requestTimeoutMs: DEFAULTS.requestTimeoutMs,
      runTimeoutSeconds: DEFAULTS.runTimeoutSeconds,
      rateShare: DEFAULTS.rateShare,
      outDir: DEFAULTS.outDir,
      tokenCache: true,
    });
  });

  it('reads the token options: --no-token-cache, and --max-tokens from 0', () => {
    expect(parseConformanceOptions(['--no-token-cache', '--max-tokens', '0'])).toMatchObject({ tokenCache: false, maxTokens: 0 });
    expect(parseConformanceOptions([], { CONFORMANCE_NO_TOKEN_CACHE: 'true', CONFORMANCE_MAX_TOKENS: '3' })).toMatchObject({
      tokenCache: false,
      maxTokens: 3,
    });
    expect(() => parseConformanceOptions(['--max-tokens', '-1'])).toThrow(UsageError);
    expect(() => parseConformanceOptions(['--max-tokens', 'many'])).toThrow(
      '--max-tokens needs a whole number from 0 to 1000000, got "many"',
    );
  });

  it('reads every option', () => {
    const options = parseConformanceOptions([
      '--target-file',
      't.yaml',
      '--strict',
      '--seed',
      '7',
      '--shard',
      '2/3',
      '--allow-writes',
      '--allow-rate-limit-exhaustion',
      '--max-requests',
      '50',
      '--request-timeout',
      '900',
      '--run-timeout',
      '30',
      '--num-runs',
      '3',
      '--grep',
      'redeliver',
      '--grep-invert',
      '429',
      '--operation',
      'vault,token',
      '--operation',
      'redeliver',
      '--rate-share',
      '0.25',
      '--exhaustion-max',
      '12',
      '--baseline',
      'known.yaml',
      '--out',
      'out',
      '--record',
      '--plan',
    ]);
    expect(options).toMatchObject({
      targetFile: 't.yaml',
      strict: true,
      seed: 7,
      shard: { index: 2, count: 3 },
      allowWrites: true,
      allowRateLimitExhaustion: true,
      maxRequests: 50,
      requestTimeoutMs: 900,
      runTimeoutSeconds: 30,
      numRuns: 3,
      grep: 'redeliver',
      grepInvert: '429',
      operations: ['vault', 'token', 'redeliver'],
      rateShare: 0.25,
      exhaustionMax: 12,
      baseline: 'known.yaml',
      outDir: 'out',
      record: true,
      list: true,
    });
  });

  it('takes every option from its environment variable, the flag winning', () => {
    const env = {
      [envName('target-file')]: 'from-env.yaml',
      CONFORMANCE_ALLOW_WRITES: 'true',
      CONFORMANCE_MAX_REQUESTS: '80',
      CONFORMANCE_OPERATION: 'vault,sso-ticket',
      CONFORMANCE_STRICT: '0',
    };
    expect(parseConformanceOptions([], env)).toMatchObject({
      targetFile: 'from-env.yaml',
      allowWrites: true,
      maxRequests: 80,
      operations: ['vault', 'sso-ticket'],
      strict: false,
    });
    expect(parseConformanceOptions(['--max-requests', '9'], env).maxRequests).toBe(9);
    expect(() => parseConformanceOptions([], { CONFORMANCE_ALLOW_WRITES: 'maybe' })).toThrow(
      'CONFORMANCE_ALLOW_WRITES needs true or false, got "maybe"',
    );
  });

  it.each([
    [['--max-requests', 'lots'], /--max-requests needs a whole number from 1 to 1000000, got "lots"/],
    [['--max-requests', '0'], /--max-requests needs a whole number from 1 to 1000000, got "0"/],
    [['--seed=-1'], /--seed needs a whole number from 0 to 2147483647, got "-1"/],
    [['--seed', '-1'], /--seed needs a whole number from 0 to 2147483647, got "-1"/],
    [['--num-runs', '-1'], /--num-runs needs a whole number from 0 to 10000, got "-1"/],
    [['--num-runs', '-0.5'], /--num-runs needs a whole number from 0 to 10000, got "-0.5"/],
    [['--request-timeout', '3000000000'], /--request-timeout needs a whole number from 1 to 600000, got "3000000000"/],
    [['--run-timeout', '5', '--request-timeout', '5000'], /--run-timeout 5 s leaves no room for a request of --request-timeout 5000 ms/],
    [['--shard', '3/2'], /--shard needs I\/N with 1 <= I <= N, got "3\/2"/],
    [['--shard', 'half'], /--shard needs I\/N/],
    [['--rate-share', '0'], /--rate-share needs a number above 0 and at most 1, got "0"/],
    [['--rate-share', '1.5'], /--rate-share needs a number above 0 and at most 1/],
    [['--grep', ''], /--grep needs a value/],
    [['--colour'], /Unknown option '--colour'/],
    [['--seed'], /--seed/],
    [['extra'], /extra/],
  ])('refuses %j with a message naming it', (argv, message) => {
    expect(() => parseConformanceOptions(argv)).toThrow(UsageError);
    expect(() => parseConformanceOptions(argv)).toThrow(message);
  });
});

describe('--operation', () => {
  it('takes every operation of specs/ and the token endpoint', () => {
    for (const op of [...operationKeys, 'token']) {
      expect(parseConformanceOptions(['--operation', op])).toMatchObject({ operations: [op] });
    }
  });

  it("names in its help what --operation takes: every operation's key, and token", () => {
    expect(help(operationKeys)).toContain(`(${[...operationKeys, 'token'].join(', ')})`);
  });
});
