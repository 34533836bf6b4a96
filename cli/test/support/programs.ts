// Runs the project's programs as a user would, for the end-to-end tests of the command line.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { mockTargetDescription } from '../../embedded.ts';
import type { RunResult } from '../../reporters/results.ts';

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
 * Runs `node --import tsx <script> ...args` in the project root and waits for it to exit. Tests
 * never touch the user's token cache: without an XDG_CACHE_HOME of the test's own, the run has none.
 */
export function run(script: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): Promise<Finished> {
  const tokenCache = env.XDG_CACHE_HOME === undefined ? { CONFORMANCE_NO_TOKEN_CACHE: 'true' } : {};
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: root,
      env: { ...process.env, ...tokenCache, ...env },
    });
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
  if (options.asTenant) delete description.test_double;
  else if (options.keyFile) description.signing_key_file = options.keyFile;
  description.base_url = `${options.url}/api/v2`;
  description.auth_url = options.url;
  const env: Record<string, string> = {};
  for (const [role, credentials] of Object.entries(description.roles as Record<string, { client_id: string; client_secret: string }>)) {
    const variable = `TARGET_SECRET_${role.toUpperCase()}`;
    env[variable] = credentials.client_secret;
    description.roles[role] = { client_id: credentials.client_id, client_secret_env: variable };
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
