// `npm run mutation:stryker`: real mutation testing of the mock with StrykerJS, the conformance
// suites as the tests (bench/stryker/stryker.config.mjs). A benchmark and a developer's tool, not a
// gate: it prints the figures and the surviving mutants, each a request the suite does not make
// or an answer it does not check. See docs/mutation-testing.md.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exitWhenFlushed } from '../../cli/exit.ts';
import { projectRoot } from '../../cli/paths.ts';
import { changedScope, DECISION_LOGIC, scopeOf, ScopeError, type Scope } from './scope.ts';
import { figuresOf, loadEquivalents, type Figures, type Mutant, type MutantStatus } from './score.ts';

const CONFIG = 'bench/stryker/stryker.config.mjs';
const EQUIVALENTS = 'bench/stryker/equivalent-mutants.yaml';
const OUT_DIR = 'reports/stryker';

const USAGE = `Usage: npm run mutation:stryker -- [--scope PATH[,PATH]]... [--changed] [--concurrency N]

Mutates the mock's code with StrykerJS and runs the whole conformance suite against each covered
mutant, the mock running in the test worker. A mutant is killed when a test fails or skips itself.
  --scope PATH       a folder or file under mock/ (repeatable, or comma-separated); default the
                     decision logic: ${DECISION_LOGIC.join(', ')}
  --changed          the mock's files changed against main (committed, staged, or not)
  --concurrency N    test runner processes (default 1: the machine is shared)
Prints the score, the score without the mutants reviewed as equivalent (${EQUIVALENTS}),
the counts, the time and every surviving mutant; reports go to ${OUT_DIR}/.`;

class UsageError extends Error {}

interface Options {
  scope: Scope | undefined;
  concurrency: number;
}

function parseOptions(argv: string[]): Options | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      options: {
        scope: { type: 'string', multiple: true },
        changed: { type: 'boolean', default: false },
        concurrency: { type: 'string', default: '1' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.help) return 'help';
  const concurrency = Number(parsed.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UsageError(`--concurrency ${parsed.concurrency}: a whole number from 1 expected`);
  if (parsed.changed && parsed.scope) throw new UsageError('--changed and --scope choose the scope each: give one');
  const scope = parsed.changed
    ? changedScope(projectRoot)
    : scopeOf(parsed.scope?.flatMap((s) => s.split(',')).filter(Boolean) ?? DECISION_LOGIC, projectRoot);
  return { scope, concurrency };
}

type StrykerResult = Awaited<ReturnType<import('@stryker-mutator/core').Stryker['runMutationTest']>>[number];

/** A Stryker result as the figures read it: the file relative to the root, the original code's first line. */
function mutantOf(result: StrykerResult, sources: Map<string, string[]>): Mutant {
  const file = relative(projectRoot, resolve(projectRoot, result.fileName));
  let lines = sources.get(file);
  if (!lines) {
    lines = readFileSync(join(projectRoot, file), 'utf8').split('\n');
    sources.set(file, lines);
  }
  const { start, end } = result.location;
  const firstLine = lines[start.line - 1] ?? '';
  const original = firstLine.slice(start.column - 1, start.line === end.line ? end.column - 1 : undefined).trim();
  return {
    file,
    line: start.line,
    column: start.column,
    mutator: result.mutatorName,
    original,
    replacement: result.replacement ?? '',
    status: result.status,
    ...(result.statusReason ? { statusReason: result.statusReason } : {}),
  };
}

const clip = (code: string, max = 70) => {
  const flat = code.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const pct = (value: number | undefined) => (value === undefined ? 'n/a' : `${value.toFixed(1)}%`);

function render(figures: Figures, scope: Scope, wallMs: number, concurrency: number): string[] {
  const count = (status: MutantStatus) => figures.byStatus[status] ?? 0;
  const covered = figures.total - count('NoCoverage') - count('Ignored') - count('Pending');
  const invalid = count('CompileError') + count('RuntimeError');
  const lines = [
    `scope: ${scope.paths.join(', ')}`,
    `mutants: ${figures.total} (killed ${count('Killed')}, timed out ${count('Timeout')}, survived ${count('Survived')}, no coverage ${count('NoCoverage')}${invalid ? `, not counted (compile or runtime error) ${invalid}` : ''})`,
    `score: ${pct(figures.score)} (${figures.detected} of ${figures.valid} detected)`,
    `non-equivalent score: ${pct(figures.nonEquivalentScore)} (${figures.detected} of ${figures.valid - figures.equivalent.length}; ${figures.equivalent.length} reviewed as equivalent in ${EQUIVALENTS} left out)`,
    `time: ${(wallMs / 1000).toFixed(0)} s with concurrency ${concurrency}${covered > 0 ? `, ${(wallMs / 1000 / covered).toFixed(1)} s per covered mutant (${covered} covered; the dry run included)` : ''}`,
    '',
    `surviving mutants, not reviewed as equivalent (${figures.survivors.length}):`,
    ...figures.survivors.map(
      (m) =>
        `  ${m.file}:${m.line}:${m.column}  ${m.mutator}${m.status === 'NoCoverage' ? ' (no coverage)' : ''}  ${clip(m.original)}  ->  ${clip(m.replacement)}`,
    ),
  ];
  if (figures.stale.length > 0) {
    lines.push('', `entries of ${EQUIVALENTS} that match no surviving mutant (review them: the code moved on, or a test now kills it):`);
    for (const { entry, killedAs } of figures.stale) {
      lines.push(
        `  ${entry.file}:${entry.line}  ${entry.mutator}  ${clip(entry.original)}  ->  ${clip(entry.replacement)}${killedAs ? `  (now ${killedAs.status.toLowerCase()})` : ''}`,
      );
    }
  }
  return lines;
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!options.scope) {
    process.stdout.write('no source file of the mock changed against main: nothing to mutate\n');
    return 0;
  }
  const equivalents = loadEquivalents(join(projectRoot, EQUIVALENTS));
  process.chdir(projectRoot);
  process.stdout.write(`StrykerJS over ${options.scope.paths.join(', ')}, concurrency ${options.concurrency}\n`);
  const { Stryker } = await import('@stryker-mutator/core');
  const started = Date.now();
  const results = await new Stryker({
    configFile: CONFIG,
    mutate: options.scope.mutate,
    concurrency: options.concurrency,
  }).runMutationTest();
  const wallMs = Date.now() - started;

  const sources = new Map<string, string[]>();
  const figures = figuresOf(
    results.map((r) => mutantOf(r, sources)),
    equivalents,
  );
  const lines = render(figures, options.scope, wallMs, options.concurrency);
  mkdirSync(join(projectRoot, OUT_DIR), { recursive: true });
  const summary = join(OUT_DIR, 'summary.txt');
  writeFileSync(join(projectRoot, summary), `${lines.join('\n')}\n`);
  process.stdout.write(`\n${lines.join('\n')}\n\nreports: ${OUT_DIR}/mutation.html, ${OUT_DIR}/mutation.json, ${summary}\n`);
  return 0;
}

main().then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    exitWhenFlushed(error instanceof UsageError || error instanceof ScopeError ? 2 : 3);
  },
);
