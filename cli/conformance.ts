// `npm start`: the conformance run. The options are parsed first, with nothing heavy loaded, so
// that --help and a bad option answer at once; then the run (cli/run.ts) is loaded. Exit codes:
// 0 PASS, 1 FAIL, 2 bad option, target file or plan, 3 the run could not be carried out,
// 4 INCOMPLETE.
import { exitWhenFlushed } from './exit.ts';
import { EXIT, HELP, UsageError, parseConformanceOptions } from './options.ts';

const fail = async (code: number, message: string): Promise<never> => {
  const { redactor } = await import('../harness/redact.ts');
  process.stderr.write(`error: ${redactor.redact(message)}\n`);
  exitWhenFlushed(code);
  return new Promise<never>(() => {});
};

async function main(): Promise<number> {
  let options;
  try {
    options = parseConformanceOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof UsageError) return fail(EXIT.usage, `${error.message} (see --help)`);
    throw error;
  }
  if (options.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.pass;
  }
  const { conformanceRun, RunStop } = await import('./run.ts');
  try {
    return await conformanceRun(options, { print: (line) => process.stdout.write(`${line}\n`), env: process.env });
  } catch (error) {
    if (error instanceof RunStop) return fail(error.code, error.message);
    if (error instanceof UsageError) return fail(EXIT.usage, error.message);
    throw error;
  }
}

main().then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => fail(EXIT.cannotRun, error instanceof Error ? error.message : String(error)),
);
