// The start every subcommand shares (check-traffic, compare, history, check-description): its
// arguments read strictly, --help printed, a bad option said in one line as a usage error (exit 2)
// and never as a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EXIT } from './options.ts';

/** Says an error in one line on stderr and gives back the exit code. */
export function sayError(code: number, message: string): number {
  process.stderr.write(`error: ${message}\n`);
  return code;
}

type Strict<T extends ParseArgsConfig> = T & { strict: true; allowPositionals: true };

/**
 * The subcommand's options and positionals, or the exit code when there is nothing to run: 0
 * after --help, 2 after an option it does not know or a value it cannot read. `say` writes the
 * error (check-traffic's redacts it first).
 */
export async function subcommandArgs<const T extends ParseArgsConfig>(
  config: T,
  usage: string,
  say: (code: number, message: string) => number | Promise<number> = sayError,
): Promise<ReturnType<typeof parseArgs<Strict<T>>> | number> {
  let parsed: ReturnType<typeof parseArgs<Strict<T>>>;
  try {
    parsed = parseArgs<Strict<T>>({ ...config, args: process.argv.slice(2), strict: true, allowPositionals: true });
  } catch (error) {
    return say(EXIT.usage, `${(error as Error).message.split('\n')[0]} (see --help)`);
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(`${usage}\n`);
    return EXIT.pass;
  }
  return parsed;
}
