// The conformance run as a command: argv and environment in, exit code out, its output written
// through `io`. `npm start` (cli/conformance.ts) gives it the process's own; the project's
// end-to-end tests give it the same from a long-lived program of theirs, so that a run does not
// pay for loading the project again. The options are parsed first, with nothing heavy loaded, so
// that --help and a bad option answer at once; then the run (cli/run.ts) is loaded. Exit codes
// (options.ts EXIT): 0 PASS, 1 FAIL, 2 bad option, target file or plan, 3 the target could not
// be tested as asked or the reports not written, 4 INCOMPLETE, 5 the suite itself erred.
import { EXIT, UsageError, help, parseConformanceOptions } from './options.ts';

export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
}

export async function conformanceCommand(argv: string[], env: NodeJS.ProcessEnv, io: CommandIo): Promise<number> {
  const fail = async (code: number, message: string): Promise<number> => {
    const { redactor } = await import('../harness/runner.ts');
    const { printable } = await import('./reporters/printable.ts');
    io.err(`error: ${printable(redactor.redact(message))}\n`);
    return code;
  };
  try {
    let options;
    try {
      options = parseConformanceOptions(argv, env);
    } catch (error) {
      if (error instanceof UsageError) return await fail(EXIT.usage, `${error.message} (see --help)`);
      throw error;
    }
    if (options.help) {
      io.out(`${help((await import('../specs/openapi.ts')).operationKeys)}\n`);
      return EXIT.pass;
    }
    if (options.targetTemplate) {
      io.out((await import('./target-template.ts')).targetTemplate());
      return EXIT.pass;
    }
    const { conformanceRun, RunStop } = await import('./run.ts');
    // A program that runs the command more than once (the project's end-to-end tests do) redacts
    // each run's secrets, not those of every run before it.
    (await import('../harness/runner.ts')).redactor.clear();
    try {
      return await conformanceRun(options, { print: (line) => io.out(`${line}\n`), warn: (line) => io.err(`${line}\n`), env });
    } catch (error) {
      if (error instanceof RunStop) return await fail(error.code, error.message);
      if (error instanceof UsageError) return await fail(EXIT.usage, error.message);
      throw error;
    }
  } catch (error) {
    // Anything else thrown is the suite's own error, never the target's: exit 5, with a request to report it.
    return fail(
      EXIT.suiteError,
      `the suite itself failed (${error instanceof Error ? error.message : String(error)}); that is a bug of the suite, not a verdict on the target: please report it with this output`,
    );
  }
}
