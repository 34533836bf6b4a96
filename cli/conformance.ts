// `npm start`: the conformance run. The options are parsed first, with nothing heavy loaded, so
// that --help and a bad option answer at once; then the run (cli/run.ts) is loaded. Exit codes
// (options.ts EXIT): 0 PASS, 1 FAIL, 2 bad option, target file or plan, 3 the target could not
// be tested as asked or the reports not written, 4 INCOMPLETE, 5 the suite itself erred.
import { exitWhenFlushed } from './exit.ts';
import { EXIT, HELP, UsageError, parseConformanceOptions } from './options.ts';

const fail = async (code: number, message: string): Promise<never> => {
  const { redactor } = await import('../harness/runner.ts');
  const { printable } = await import('./reporters/printable.ts');
  process.stderr.write(`error: ${printable(redactor.redact(message))}\n`);
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
    return await conformanceRun(options, {
      print: (line) => process.stdout.write(`${line}\n`),
      warn: (line) => process.stderr.write(`${line}\n`),
      env: process.env,
    });
  } catch (error) {
    if (error instanceof RunStop) return fail(error.code, error.message);
    if (error instanceof UsageError) return fail(EXIT.usage, error.message);
    throw error;
  }
}

// Anything else thrown is the suite's own error, never the target's: exit 5, with a request to report it.
main().then(
  (code) => exitWhenFlushed(code),
  (error: unknown) =>
    fail(
      EXIT.suiteError,
      `the suite itself failed (${error instanceof Error ? error.message : String(error)}); that is a bug of the suite, not a verdict on the target: please report it with this output`,
    ),
);
