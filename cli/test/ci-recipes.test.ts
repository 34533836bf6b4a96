// The CI recipes in ci-recipes/: each is valid YAML (where it is YAML), runs the suite in shards
// with one seed and merges them, and every command line it holds parses as our options.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseConformanceOptions } from '../options.ts';
import { root } from './support/programs.ts';

const recipes = ['github-actions.yml', 'gitlab-ci.yml', 'Jenkinsfile'];
const text = (name: string) => readFileSync(join(root, 'ci-recipes', name), 'utf8');

/** The command lines that run the suite, with the CI's variables given sample values. */
function commandLines(source: string): string[][] {
  return [...source.matchAll(/npx mgmt-api-conformance([^'\n|]*)/g)].map((m) =>
    m[1]!
      .replace(/\$CI_NODE_TOTAL/g, '2')
      .replace(/\$\{\{[^}]+\}\}|\$[A-Z_]+/g, '1')
      .trim()
      .split(/\s+/)
      .filter(Boolean),
  );
}

describe.each(recipes)('ci-recipes/%s', (name) => {
  const source = text(name);

  it('parses', () => {
    if (name.endsWith('.yml')) expect(() => parse(source)).not.toThrow();
    else expect(source).toMatch(/^pipeline \{/m);
  });

  it('runs two shards with one seed, then merges them into the gate', () => {
    const lines = commandLines(source);
    const runs = lines.filter((args) => args[0] !== 'merge-reports');
    expect(runs.length).toBeGreaterThanOrEqual(1);
    for (const args of runs) {
      const options = parseConformanceOptions(args);
      expect(options.shard?.count).toBe(2);
      expect(options.seed).toBeDefined();
    }
    expect(lines.some((args) => args[0] === 'merge-reports' && args.includes('--shards'))).toBe(true);
  });

  it('publishes the gate and the observed level', () => {
    expect(source).toContain('reports/junit.xml');
    expect(source).toContain('junit-observed.xml');
  });
});

describe('the token cache in the recipes', () => {
  const kept: Record<string, RegExp> = {
    'github-actions.yml': /uses: actions\/cache@v4\n\s+with:\n\s+path: ~\/\.cache\/mgmt-api-conformance\n/,
    'gitlab-ci.yml':
      /XDG_CACHE_HOME: \$CI_PROJECT_DIR\/\.cache\n\s+cache:\n\s+key: conformance-tokens\n\s+paths: \[\.cache\/mgmt-api-conformance\/\]/,
    Jenkinsfile: /sh 'XDG_CACHE_HOME="\$WORKSPACE@tmp\/cache" npx mgmt-api-conformance --shard 1\/2/,
  };

  it.each(recipes)('%s keeps it between runs and says why that is safe', (name) => {
    const source = text(name);
    expect(source).toMatch(kept[name]!);
    const prose = source.replace(/\n\s*(#|\/\/)\s*/g, ' ');
    expect(prose).toMatch(/encrypted with a key derived from its client's secret/);
  });
});
