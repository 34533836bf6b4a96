// `npm start`: the conformance run (cli/conformance-command.ts) with this process's arguments,
// environment and output, ending with its exit code once the output is flushed.
import { conformanceCommand } from './conformance-command.ts';
import { exitWhenFlushed } from './exit.ts';

void conformanceCommand(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}).then(exitWhenFlushed);
