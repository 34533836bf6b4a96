// `npm start`: the conformance run. Parses the options, resolves the target (a target file, or the
// embedded mock), checks the target can be reached, runs the suites and exits 0 only when every
// gating test passed.
import { randomInt } from 'node:crypto';
import { loadTargetFile } from '../harness/config.ts';
import { HarnessError } from '../harness/errors.ts';
import { redactor } from '../harness/redact.ts';
import type { ResolvedTarget } from '../harness/settings.ts';
import { startEmbeddedTarget } from './embedded.ts';
import { HELP, UsageError, parseConformanceOptions } from './options.ts';
import { preflight } from './preflight.ts';
import { runSuite } from './run-suite.ts';

const print = (line: string) => process.stdout.write(`${redactor.redact(line)}\n`);
const fail = (code: number, message: string): never => {
  process.stderr.write(`error: ${redactor.redact(message)}\n`);
  process.exit(code);
};

async function main(): Promise<number> {
  const started = Date.now();
  let options;
  try {
    options = parseConformanceOptions(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) fail(2, `${error.message} (see --help)`);
    throw error;
  }
  if (options.help) {
    print(HELP);
    return 0;
  }
  let target: ResolvedTarget;
  let close = async () => {};
  try {
    if (options.targetFile) {
      target = await loadTargetFile(options.targetFile);
    } else {
      const embedded = await startEmbeddedTarget();
      target = embedded.target;
      close = embedded.close;
    }
  } catch (error) {
    if (error instanceof HarnessError) fail(2, error.message);
    throw error;
  }
  const stop = () => void close().finally(() => process.exit(130));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const seed = options.seed ?? randomInt(2 ** 31 - 1);
    print(`conformance run against ${target.source} (${target.baseUrl}), seed ${seed}${options.shard ? `, shard ${options.shard.index}/${options.shard.count}` : ''}`);
    let extraRequests: number;
    try {
      extraRequests = await preflight(target, options.requestTimeoutMs);
    } catch (error) {
      if (error instanceof HarnessError) {
        return fail(error.code === 'TOKEN_UNAVAILABLE' ? 2 : 3, `cannot run against ${target.baseUrl}: ${error.message}`);
      }
      throw error;
    }
    const { result } = await runSuite({ ...options, target, seed, extraRequests, print });
    print(`wall time of the whole run: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (!result) return fail(3, 'the suite did not report a result');
    return result.passed ? 0 : 1;
  } finally {
    await close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => fail(3, error instanceof Error ? error.message : String(error)),
);
