// What a StrykerJS run mutates: folders or files of the mock named with --scope, the files of the
// mock changed against main with --changed, or by default the mock's decision logic. Only the
// mock's own source is mutated: its tests (mock/test/) are not what the suite tests, and its
// deliberate faults (mock/faults/) are switched off in the runs, so no mutant there can be reached.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, normalize, relative } from 'node:path';

/** The mock's decision logic: authentication, the routes, the request stages, validation, the limiter. */
export const DECISION_LOGIC: readonly string[] = ['mock/auth', 'mock/routes', 'mock/stages', 'mock/validators.ts', 'mock/rate-limiter.ts'];

const NEVER_MUTATED: readonly string[] = ['mock/test', 'mock/faults'];

export class ScopeError extends Error {}

export interface Scope {
  /** The folders and files, as given (relative to the project root). */
  paths: string[];
  /** Stryker's `mutate` patterns for them. */
  mutate: string[];
}

/** The scope of the given folders and files of the mock (relative to the project root). */
export function scopeOf(paths: readonly string[], root: string): Scope {
  if (paths.length === 0) throw new ScopeError('the scope is empty');
  const clean = paths.map((given) => {
    const path = normalize(given).replace(/\/+$/, '');
    const full = join(root, path);
    if (isAbsolute(path) || relative(join(root, 'mock'), full).startsWith('..')) {
      throw new ScopeError(`--scope ${given}: only the mock's own source (a folder or file under mock/) is mutated`);
    }
    if (NEVER_MUTATED.some((excluded) => path === excluded || path.startsWith(`${excluded}/`))) {
      throw new ScopeError(`--scope ${given}: ${NEVER_MUTATED.join(' and ')} are never mutated (tests of the mock, faults switched off)`);
    }
    if (!existsSync(full)) throw new ScopeError(`--scope ${given}: no such folder or file`);
    if (statSync(full).isFile() && !path.endsWith('.ts')) throw new ScopeError(`--scope ${given}: not a TypeScript file`);
    return path;
  });
  const unique = [...new Set(clean)];
  const mutate = unique.map((path) => (statSync(join(root, path)).isDirectory() ? `${path}/**/*.ts` : path));
  // A folder above them (mock itself) would take them in again.
  return { paths: unique, mutate: [...mutate, ...NEVER_MUTATED.map((excluded) => `!${excluded}/**`)] };
}

/**
 * The mock's source files changed on this branch and in the work tree, against the point where
 * it left `base` (main), untracked files included; undefined when nothing under mock/ changed.
 */
export function changedScope(root: string, base = 'main'): Scope | undefined {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  let forkPoint: string;
  try {
    forkPoint = git('merge-base', 'HEAD', base);
  } catch {
    throw new ScopeError(`--changed: no branch ${base} to compare with in this clone (git merge-base HEAD ${base} failed)`);
  }
  const changed = [
    ...git('diff', '--name-only', '--diff-filter=AMR', forkPoint, '--', 'mock').split('\n'),
    ...git('ls-files', '--others', '--exclude-standard', '--', 'mock').split('\n'),
  ].filter((path) => path.endsWith('.ts') && !NEVER_MUTATED.some((excluded) => path.startsWith(`${excluded}/`)));
  return changed.length === 0 ? undefined : scopeOf(changed, root);
}
