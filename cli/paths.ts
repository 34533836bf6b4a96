// Where the project is, and what it is: for the run, the reports and the child processes.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));
export const suiteConfig = join(projectRoot, 'harness', 'suite', 'vitest.config.ts');

/** The suite's package version, from package.json. */
export function suiteVersion(): string {
  const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  return `${manifest.name} ${manifest.version}`;
}

/** The commit the suite runs from, when it runs from a git checkout (a packed copy has none). */
export function suiteCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2_000,
    })
      .toString()
      .trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2_000,
    })
      .toString()
      .trim();
    return dirty ? `${commit} (with local changes)` : commit;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
