// The project's imports: no module is in an import cycle (type-only and dynamic imports count:
// each still ties two files together), and the command line reaches the harness through its one
// entry point, harness/runner.ts.
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectFiles, root } from './support/programs.ts';

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+\.ts)['"]|import\(\s*['"](\.[^'"]+\.ts)['"]\s*\)/g;

/** Every TypeScript file of the project (node_modules aside) and the project files it imports. */
function importGraph(): Map<string, string[]> {
  const files = projectFiles().filter((f) => f.endsWith('.ts'));
  return new Map(
    files.map((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      return [normalize(file), [...text.matchAll(IMPORT)].map((m) => normalize(join(dirname(file), m[1] ?? m[2]!)))];
    }),
  );
}

/** One cycle through each strongly connected group of files, as "a -> b -> a". */
function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]) => {
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), file, next].join(' -> '));
      else if (!state.has(next)) visit(next, [...path, file]);
    }
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file, []);
  return found;
}

describe('imports', () => {
  const graph = importGraph();

  it('form no cycle', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph)).toEqual([]);
  });

  it('find a cycle where there is one (the check can fail)', () => {
    const looped = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(cycles(looped)).toEqual(['a.ts -> b.ts -> c.ts -> a.ts']);
  });

  it('of the command line reach the harness through harness/runner.ts only', () => {
    const reached = [...graph]
      .filter(([file]) => file.startsWith('cli/') && !file.startsWith('cli/test/'))
      .flatMap(([file, imports]) =>
        imports.filter((i) => i.startsWith('harness/') && i !== 'harness/runner.ts').map((i) => `${file} -> ${i}`),
      );
    expect(reached).toEqual([]);
  });
});
