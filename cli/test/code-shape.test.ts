// The project's shape, as the contributor's guide promises it: suites/ holds only tests (and its
// README), and no function runs over 80 lines of its own (its named inner helpers aside) unless a
// comment just above it says why, starting "Long:". Tests themselves are left out: a table of
// cases is as long as its cases. And vitest.config.ts starts first only files that exist.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectFiles, root } from './support/programs.ts';

const MOST_LINES = 80;
const WHY = /(?:\/\/|\*)\s*Long:/;

function lineOf(source: ts.SourceFile, position: number): number {
  return source.getLineAndCharacterOfPosition(position).line;
}

function spanOf(source: ts.SourceFile, node: ts.Node): number {
  return lineOf(source, node.end) - lineOf(source, node.getStart(source)) + 1;
}

/** The comment just above a function, or above the statement that holds it (`const f = () => ...`). */
function leadingComment(source: ts.SourceFile, node: ts.Node): string {
  let holder: ts.Node = node;
  while (holder.parent && !ts.isSourceFile(holder.parent) && !ts.isBlock(holder.parent) && !ts.isClassLike(holder.parent)) {
    holder = holder.parent;
  }
  const ranges = ts.getLeadingCommentRanges(source.text, holder.getFullStart()) ?? [];
  return ranges.map((r) => source.text.slice(r.pos, r.end)).join('\n');
}

/** Functions over the bound with no "Long:" comment, as "file:line name (N lines)". */
export function longFunctions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      let own = spanOf(source, node);
      const helpers = (inner: ts.Node): void => {
        if ((ts.isFunctionDeclaration(inner) || ts.isMethodDeclaration(inner)) && inner.body) own -= spanOf(source, inner);
        else ts.forEachChild(inner, helpers);
      };
      ts.forEachChild(node, helpers);
      if (own > MOST_LINES && !WHY.test(leadingComment(source, node))) {
        const named = node.name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
        found.push(`${file}:${lineOf(source, node.getStart(source)) + 1} ${named ? named.getText(source) : '(anonymous)'} (${own} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the code', () => {
  it(`has no function over ${MOST_LINES} lines of its own without a "Long:" comment saying why`, () => {
    const sources = projectFiles().filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('/test/'));
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.flatMap((file) => longFunctions(file, readFileSync(join(root, file), 'utf8')))).toEqual([]);
  });

  it('finds a long function without a reason, and lets one with a reason or made of helpers pass (the check can fail)', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const long = `function long() {\n${body(90)}\n}\n`;
    const explained = `// Long: a table, one entry per case.\nfunction explained() {\n${body(90)}\n}\n`;
    const arrow = `const arrow = () => {\n${body(90)}\n};\n`;
    const helpers = `function outer() {\n  function a() {\n${body(50)}\n  }\n  function b() {\n${body(50)}\n  }\n  return [a, b];\n}\n`;
    expect([long, explained, arrow, helpers].flatMap((text, i) => longFunctions(`f${i}.ts`, text))).toEqual([
      'f0.ts:1 long (92 lines)',
      'f2.ts:1 arrow (92 lines)',
    ]);
  });
});

describe('suites/', () => {
  it('holds only test files and its README (support code lives in harness/suite/)', () => {
    const files = projectFiles().filter((f) => f.startsWith('suites/') && /\.[a-z]+$/.test(f));
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => !f.endsWith('.test.ts') && f !== 'suites/README.md')).toEqual([]);
  });
});

describe('vitest.config.ts', () => {
  it('starts first only files that exist, each named once', async () => {
    const { SLOWEST_FILES } = await import('../../vitest.config.ts');
    const files = new Set(projectFiles());
    expect(SLOWEST_FILES.filter((name) => !files.has(name))).toEqual([]);
    expect(new Set(SLOWEST_FILES).size).toBe(SLOWEST_FILES.length);
  });
});
