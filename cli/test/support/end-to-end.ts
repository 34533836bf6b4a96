// What the end-to-end files of `npm start` share: the secrets of targets/mock.yaml that must never
// appear in what a run prints or writes, the reports a run writes, and a target file for a mock
// started by hand; runs against the odd target of odd-target.ts. The runs are split over files so that vitest runs them on different workers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { expect } from 'vitest';
import { junitProblems } from './junit-schema.ts';
import { startOddTarget, type OddTarget, type OddTargetOptions } from './odd-target.ts';
import { resultsOf, root, run, writeTargetFile, type Finished } from './programs.ts';

/** The seed of every end-to-end run that compares outcomes. */
export const SEED = '20261122';

const mockTarget = parse(readFileSync(join(root, 'targets', 'mock.yaml'), 'utf8')) as {
  roles: Record<string, { client_id: string; client_secret?: string }>;
};
const secrets = Object.values(mockTarget.roles).map((role) => role.client_secret!);

/** Fails when a client secret, a token or an SSO ticket appears in any of `texts`. */
export function expectNoSecret(...texts: string[]): void {
  for (const text of texts) {
    for (const secret of secrets) expect(text.includes(secret), 'a client secret appears in the output').toBe(false);
    expect(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./.test(text), 'a token appears in the output').toBe(false);
    expect(/[?&]ticket=(?!\[redacted\])[A-Za-z0-9]{8,}/.test(text), 'an SSO ticket appears in the output').toBe(false);
  }
}

/** The four reports of a run in `out`: junit.xml, junit-observed.xml, summary.md, results.json. */
export const reports = (out: string): string[] =>
  ['junit.xml', 'junit-observed.xml', 'summary.md', 'results.json'].map((f) => readFileSync(join(out, f), 'utf8'));

/** A target file in `dir` for a mock at `url`, with every secret moved to an environment variable. */
export function targetFileFor(
  dir: string,
  url: string,
  keyFile: string | undefined,
  name: string,
  change?: (t: Record<string, any>) => void,
): { path: string; env: Record<string, string> } {
  return writeTargetFile({ url, dir, name, ...(keyFile ? { keyFile } : {}), ...(change ? { change } : {}) });
}

/** One run against an odd target, and what it wrote. */
export interface Ran {
  finished: Finished;
  out: string;
  target: OddTarget;
}

/**
 * Runs against odd targets, each with its reports and target file in `work`: as a test double
 * (every test that can run does), or as someone's tenant. The target stops when the run ends.
 */
export function oddTargetRuns(
  work: string,
): (
  options: OddTargetOptions,
  args?: string[],
  file?: { asTenant?: boolean; change?: (t: Record<string, any>) => void },
  env?: NodeJS.ProcessEnv,
) => Promise<Ran> {
  let runs = 0;
  return async (options, args = [], file = {}, env = {}) => {
    runs += 1;
    const target = await startOddTarget(options);
    const out = join(work, `out-${runs}`);
    try {
      const written = writeTargetFile({
        url: target.url,
        dir: work,
        name: `odd-${runs}.yaml`,
        ...(file.asTenant ? { asTenant: true } : {}),
        change: (t) => {
          if (!file.asTenant) t.test_double = true;
          file.change?.(t);
        },
      });
      const finished = await run('cli/conformance.ts', ['--target-file', written.path, '--out', out, ...args], { ...written.env, ...env });
      return { finished, out, target };
    } finally {
      await target.stop();
    }
  };
}

/** The verdict of the run in `out`, in results.json, a valid junit.xml and summary.md. */
export function expectReportsOf(out: string, verdict: string): void {
  expect(resultsOf(out).verdict).toBe(verdict);
  expect(junitProblems(readFileSync(join(out, 'junit.xml'), 'utf8'))).toEqual([]);
  expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain(`Result: **${verdict}**`);
}
