// A long-lived program that runs `npm start`'s command (cli/conformance-command.ts) once per
// message from its parent, for the end-to-end tests: the project is loaded once per test worker
// instead of once per run (about 9 of the 13 CPU seconds a short run costs in a fresh process on
// the 2-core machine). Each run gets the arguments and the whole environment the parent gives it,
// its own output and its exit code, one run at a time; the environment is the process's own while
// the run lasts. Whatever else the program writes goes to its stdout and stderr, which the parent
// adds to the run in progress. It ends with its parent's channel.
import { conformanceCommand } from '../../conformance-command.ts';

export interface HostRequest {
  id: number;
  args: string[];
  env: NodeJS.ProcessEnv;
}

export interface HostAnswer {
  id: number;
  code: number;
  stdout: string;
  stderr: string;
}

let queue = Promise.resolve();

process.on('message', (request: HostRequest) => {
  queue = queue.then(async () => {
    let stdout = '';
    let stderr = '';
    // The run's environment is the process's while it runs, as a program's own is: the test
    // worker's thread that vitest starts for the run copies it.
    for (const name of Object.keys(process.env)) delete process.env[name];
    Object.assign(process.env, request.env);
    const code = await conformanceCommand(request.args, process.env, {
      out: (text) => (stdout += text),
      err: (text) => (stderr += text),
    });
    const answer: HostAnswer = { id: request.id, code, stdout, stderr };
    process.send!(answer);
  });
});
process.on('disconnect', () => process.exit(0));
