// The order of the suite's files, apart from vitest so the planner can use it too (see
// sequencer.ts): by path, the files that read every answer so far last (the rate-limit files, then
// every error's body, every success's shape), and the exhaustion at the very end.
const LAST = [
  'suites/rate-limit/',
  'suites/errors/every-error.test.ts',
  'suites/operations/every-success.test.ts',
  'suites/rate-limit/exhaustion.test.ts',
];

function rank(path: string): number {
  return LAST.reduce((place, marker, index) => (path.includes(marker) ? index + 1 : place), 0);
}

export function orderSuiteFiles(paths: readonly string[]): string[] {
  return [...paths].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Shard I of N: every Nth file of the order, so each shard holds a slice of every area. */
export function shardOf<T>(ordered: readonly T[], shard: { index: number; count: number } | undefined): T[] {
  return shard ? ordered.filter((_, position) => position % shard.count === shard.index - 1) : [...ordered];
}
