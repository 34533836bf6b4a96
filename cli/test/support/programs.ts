// Runs the project's programs as a user would, for the end-to-end tests of the command line.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '../../reporters/results.ts';

export const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node --import tsx <script> ...args` in the project root and waits for it to exit. */
export function run(script: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: root, env: { ...process.env, ...env } });
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
  const results = JSON.parse(readFileSync(join(outDir, 'results.json'), 'utf8')) as { tests: Array<{ name: string; state: string }> };
  return new Map(results.tests.map((t) => [t.name, t.state]));
}

/** A run's results.json. */
export function resultsOf(outDir: string): RunResult {
  return JSON.parse(readFileSync(join(outDir, 'results.json'), 'utf8')) as RunResult;
}
