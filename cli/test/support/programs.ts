// Runs the project's programs as a user would, for the end-to-end tests of the command line.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { mockTargetDescription } from '../../embedded.ts';
import { createMockServer, type FaultHooks, type MockServer } from '../../../mock/index.ts';
import type { RunResult } from '../../reporters/results.ts';
import type { HostAnswer, HostRequest } from './command-host.ts';

export const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Every file of the project, relative to its root: node_modules, reports and .git left out. */
export function projectFiles(): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
    (f) => !f.startsWith('node_modules') && !f.includes('node_modules/') && !f.startsWith('reports') && !f.startsWith('.git'),
  );
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Settings a program reads when it starts (Node's own, and the test worker's heap that
 * cli/suite-runner.ts reads as it loads): a run given one of them gets a process of its own.
 */
const READ_AT_START = ['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'CONFORMANCE_TEST_WORKER_HEAP_MB'];

/**
 * Runs `node --import tsx <script> ...args` in the project root and waits for it to exit. Tests
 * never touch the user's token cache: without an XDG_CACHE_HOME of the test's own, the run has none.
 *
 * `cli/conformance.ts` (`npm start`) is the same command run by the command host instead
 * (support/command-host.ts): its arguments, the same environment, its output and exit code, in a
 * program that stays loaded from one run to the next. `ownProcess`, or a setting read at start,
 * gives the run a process of its own, as a user's is.
 */
export function run(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 120_000,
  options: { ownProcess?: boolean } = {},
): Promise<Finished> {
  const tokenCache = env.XDG_CACHE_HOME === undefined ? { CONFORMANCE_NO_TOKEN_CACHE: 'true' } : {};
  const runEnv = { ...process.env, ...tokenCache, ...env };
  if (script === 'cli/conformance.ts' && !options.ownProcess && !READ_AT_START.some((name) => name in env)) {
    return commandHost().run(args, runEnv, timeoutMs);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: root, env: runEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not finish within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

interface HostedRun extends Finished {
  id: number;
  resolve(finished: Finished): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** The test worker's command host, started at its first run; a host that failed is replaced at the next. */
let host: CommandHost | undefined;

function commandHost(): CommandHost {
  if (host === undefined || host.ended) host = new CommandHost();
  return host;
}

class CommandHost {
  readonly #child: ChildProcess;
  /** Runs sent and not answered, oldest first: the host runs them in that order. */
  readonly #pending: HostedRun[] = [];
  #next = 0;
  ended = false;

  constructor() {
    this.#child = spawn(process.execPath, ['--import', 'tsx', 'cli/test/support/command-host.ts'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    // What the host writes outside a run's own output belongs to the run in progress.
    this.#child.stdout!.on('data', (chunk: Buffer) => this.#pending[0] && (this.#pending[0].stdout += chunk.toString()));
    this.#child.stderr!.on('data', (chunk: Buffer) => this.#pending[0] && (this.#pending[0].stderr += chunk.toString()));
    this.#child.on('message', (answer: HostAnswer) => {
      const index = this.#pending.findIndex((p) => p.id === answer.id);
      if (index < 0) return;
      const [hosted] = this.#pending.splice(index, 1);
      clearTimeout(hosted!.timer);
      hosted!.resolve({ code: answer.code, stdout: hosted!.stdout + answer.stdout, stderr: hosted!.stderr + answer.stderr });
      this.#idle();
    });
    this.#child.on('exit', (code, signal) => this.#end(`the command host exited (${signal ?? code}) during the run`));
    process.once('exit', () => this.#child.kill('SIGKILL'));
    this.#idle();
  }

  run(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Finished> {
    return new Promise((resolve, reject) => {
      const id = this.#next++;
      const timer = setTimeout(() => this.#end(`cli/conformance.ts did not finish within ${timeoutMs} ms`), timeoutMs);
      this.#pending.push({ id, code: null, stdout: '', stderr: '', resolve, reject, timer });
      this.#child.ref();
      (this.#child.channel as { ref?(): void } | undefined)?.ref?.();
      const request: HostRequest = { id, args, env };
      this.#child.send(request);
    });
  }

  /** Fails every run not answered, with what each wrote, and stops the host. */
  #end(reason: string): void {
    this.ended = true;
    for (const hosted of this.#pending.splice(0)) {
      clearTimeout(hosted.timer);
      hosted.reject(new Error(`${reason}\n${hosted.stdout}\n${hosted.stderr}`));
    }
    this.#child.kill('SIGKILL');
  }

  /** An idle host keeps no test worker alive. */
  #idle(): void {
    if (this.#pending.length > 0) return;
    this.#child.unref();
    (this.#child.channel as { unref?(): void } | undefined)?.unref?.();
  }
}

export interface Started {
  child: ChildProcess;
  url: string;
  /** Requests the mock has logged so far (when started with --log). */
  requests(): number;
  stop(): Promise<void>;
}

/** Starts the mock server program and resolves with its URL once it prints it. */
export function startMockProgram(args: string[]): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'mock/cli.ts', ...args], { cwd: root });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the mock did not start: ${output}`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /mock listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({
          child,
          url: match[1]!,
          requests: () => output.split('\n').filter((line) => /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \//.test(line)).length,
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`the mock exited with ${code}: ${output}`)));
  });
}

/** The tests of a run's results.json as "name → state". */
export function outcomes(outDir: string): Map<string, string> {
  return new Map(resultsOf(outDir).tests.map((t) => [t.name, t.state]));
}

export interface TargetFileOptions {
  /** The mock's origin (https://127.0.0.1:PORT or http://...). */
  url: string;
  dir: string;
  name: string;
  /** Written as someone's tenant: no test_double, no signing key. */
  asTenant?: boolean;
  /** The mock's signing key file, shared with the suite (not with asTenant). */
  keyFile?: string;
  change?: (description: Record<string, any>) => void;
}

/** targets/mock.yaml pointed at a mock at `url`, every client secret moved to an environment variable. */
export function writeTargetFile(options: TargetFileOptions): { path: string; env: Record<string, string> } {
  const description = mockTargetDescription() as Record<string, any>;
  delete description.signing_key_file;
  // The bucket targets/mock.yaml states is the README's hand-started mock's; a test's mock has its own.
  if (description.rate_limit) delete description.rate_limit.bucket_size;
  if (options.asTenant) delete description.test_double;
  else if (options.keyFile) description.signing_key_file = options.keyFile;
  description.base_url = `${options.url}/api/v2`;
  description.auth_url = options.url;
  const env: Record<string, string> = {};
  for (const [role, credentials] of Object.entries(
    description.roles as Record<string, { client_id: string; client_secret: string; name?: string }>,
  )) {
    const variable = `TARGET_SECRET_${role.toUpperCase()}`;
    env[variable] = credentials.client_secret;
    const { client_secret: _secret, ...rest } = credentials;
    description.roles[role] = { ...rest, client_secret_env: variable };
  }
  options.change?.(description);
  const path = join(options.dir, options.name);
  writeFileSync(path, stringify(description));
  return { path, env };
}

/** A run's results.json. */
export function resultsOf(outDir: string): RunResult {
  return JSON.parse(readFileSync(join(outDir, 'results.json'), 'utf8')) as RunResult;
}

/**
 * A test double: the mock on a port of its own, with a bucket no run spends, signing with a key
 * written to `dir`, changed by `customize`'s fault hooks; and a target file in `dir` naming it.
 */
export async function testDouble(
  dir: string,
  customize: (hooks: FaultHooks) => void,
): Promise<{ mock: MockServer; target: { path: string; env: Record<string, string> } }> {
  const keyFile = join(dir, 'key.pem');
  const mock = await createMockServer({
    port: 0,
    signingKey: keyFile,
    rateLimit: { bucketSize: 100_000, refillPerSecond: 1000 },
    customize,
  });
  return { mock, target: writeTargetFile({ url: mock.url, dir, name: 'target.yaml', keyFile }) };
}

/** A whole run (seed 7, reports in `out`) against a test double made by `testDouble`: the double, and how the run finished. */
export async function runAgainstDouble(
  dir: string,
  out: string,
  customize: (hooks: FaultHooks) => void,
): Promise<{ mock: MockServer; finished: Finished }> {
  const { mock, target } = await testDouble(dir, customize);
  const finished = await run('cli/conformance.ts', ['--target-file', target.path, '--seed', '7', '--out', out], target.env, 600_000);
  return { mock, finished };
}
