// `npm run mutation:stryker`: real mutation testing of the mock with StrykerJS, the conformance
// suites as the tests (bench/stryker/stryker.config.mjs). A benchmark and a developer's tool, not a
// gate: it prints the figures and the surviving mutants, each a request the suite does not make
// or an answer it does not check. See docs/mutation-testing.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exitWhenFlushed } from '../../cli/exit.ts';
import { projectRoot } from '../../cli/paths.ts';
import { changedScope, DECISION_LOGIC, scopeOf, ScopeError, type Scope } from './scope.ts';
import { figuresOf, loadEquivalents, type Figures, type Mutant, type MutantStatus } from './score.ts';

const CONFIG = 'bench/stryker/stryker.config.mjs';
const EQUIVALENTS = 'bench/stryker/equivalent-mutants.yaml';
const OUT_DIR = 'reports/stryker';
/** Where the Stryker config has its JSON reporter write. */
const REPORT = `${OUT_DIR}/mutation.json`;

const USAGE = `Usage: npm run mutation:stryker -- [--scope PATH[,PATH]]... [--changed] [--concurrency N]
       npm run mutation:stryker -- --from REPORT[,REPORT]...

Mutates the mock's code with StrykerJS and runs the whole conformance suite against each covered
mutant, the mock running in the test worker. A mutant is killed when a test fails or skips itself.
  --scope PATH       a folder or file under mock/ (repeatable, or comma-separated); default the
                     decision logic: ${DECISION_LOGIC.join(', ')}
  --changed          the mock's files changed against main (committed, staged, or not)
  --concurrency N    test runner processes (default 1: the machine is shared)
  --from REPORT      mutate nothing: the figures of earlier runs' JSON reports, added up, read
                     with today's list of equivalent mutants (repeatable, or comma-separated)
Prints the score, the score without the mutants reviewed as equivalent (${EQUIVALENTS}),
the counts, the time and every surviving mutant; reports go to ${OUT_DIR}/.`;

class UsageError extends Error {}

type Options = { scope: Scope | undefined; concurrency: number } | { from: string[] };

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
        from: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.help) return 'help';
  if (parsed.from) {
    if (parsed.scope || parsed.changed) throw new UsageError('--from reads earlier runs: it takes no --scope or --changed');
    return { from: parsed.from.flatMap((f) => f.split(',')).filter(Boolean) };
  }
  const concurrency = Number(parsed.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UsageError(`--concurrency ${parsed.concurrency}: a whole number from 1 expected`);
  if (parsed.changed && parsed.scope) throw new UsageError('--changed and --scope choose the scope each: give one');
  const scope = parsed.changed
    ? changedScope(projectRoot)
    : scopeOf(parsed.scope?.flatMap((s) => s.split(',')).filter(Boolean) ?? DECISION_LOGIC, projectRoot);
  return { scope, concurrency };
}

/** The part of Stryker's JSON report (mutation-testing-report-schema) the figures read. */
interface JsonReport {
  files: Record<
    string,
    {
      source: string;
      mutants: Array<{
        mutatorName: string;
        replacement?: string;
        status: MutantStatus;
        statusReason?: string;
        location: { start: { line: number; column: number }; end: { line: number; column: number } };
      }>;
    }
  >;
}

/** The mutants of a report, each with the first line of the code it replaces, as it was when mutated. */
function mutantsOf(path: string): Mutant[] {
  let report: JsonReport;
  try {
    report = JSON.parse(readFileSync(path, 'utf8')) as JsonReport;
  } catch (error) {
    throw new UsageError(`${path}: not a readable Stryker JSON report (${(error as Error).message})`);
  }
  if (typeof report?.files !== 'object' || report.files === null) throw new UsageError(`${path}: not a Stryker JSON report (no files)`);
  return Object.entries(report.files).flatMap(([file, { source, mutants }]) => {
    const lines = source.split('\n');
    return mutants.map((m) => {
      const { start, end } = m.location;
      const first = lines[start.line - 1] ?? '';
      return {
        file,
        line: start.line,
        column: start.column,
        mutator: m.mutatorName,
        original: first.slice(start.column - 1, start.line === end.line ? end.column - 1 : undefined).trim(),
        replacement: m.replacement ?? '',
        status: m.status,
        ...(m.statusReason ? { statusReason: m.statusReason } : {}),
      };
    });
  });
}

const clip = (code: string, max = 70) => {
  const flat = code.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const pct = (value: number | undefined) => (value === undefined ? 'n/a' : `${value.toFixed(1)}%`);

function render(figures: Figures, scope: string, run: { wallMs: number; concurrency: number } | undefined): string[] {
  const count = (status: MutantStatus) => figures.byStatus[status] ?? 0;
  const covered = figures.total - count('NoCoverage') - count('Ignored') - count('Pending');
  const invalid = count('CompileError') + count('RuntimeError');
  const lines = [
    `scope: ${scope}`,
    `mutants: ${figures.total} (killed ${count('Killed')}, timed out ${count('Timeout')}, survived ${count('Survived')}, no coverage ${count('NoCoverage')}${invalid ? `, not counted (compile or runtime error) ${invalid}` : ''})`,
    `score: ${pct(figures.score)} (${figures.detected} of ${figures.valid} detected)`,
    `non-equivalent score: ${pct(figures.nonEquivalentScore)} (${figures.detected} of ${figures.valid - figures.equivalent.length}; ${figures.equivalent.length} reviewed as equivalent in ${EQUIVALENTS} left out)`,
    run
      ? `time: ${(run.wallMs / 1000).toFixed(0)} s with concurrency ${run.concurrency}${covered > 0 ? `, ${(run.wallMs / 1000 / covered).toFixed(1)} s per covered mutant (${covered} covered; the dry run included)` : ''}`
      : `time: not in the report (${covered} covered mutants)`,
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
  const equivalents = loadEquivalents(join(projectRoot, EQUIVALENTS));
  if ('from' in options) {
    const mutants = options.from.flatMap((path) => mutantsOf(resolve(path)));
    const scope = [...new Set(mutants.map((m) => m.file))].sort().join(', ');
    process.stdout.write(
      `${render(figuresOf(mutants, equivalents), `${scope} (from ${options.from.join(', ')})`, undefined).join('\n')}\n`,
    );
    return 0;
  }
  if (!options.scope) {
    process.stdout.write('no source file of the mock changed against main: nothing to mutate\n');
    return 0;
  }
  process.chdir(projectRoot);
  process.stdout.write(`StrykerJS over ${options.scope.paths.join(', ')}, concurrency ${options.concurrency}\n`);
  const { Stryker } = await import('@stryker-mutator/core');
  const started = Date.now();
  await new Stryker({ configFile: CONFIG, mutate: options.scope.mutate, concurrency: options.concurrency }).runMutationTest();
  const wallMs = Date.now() - started;

  const lines = render(figuresOf(mutantsOf(join(projectRoot, REPORT)), equivalents), options.scope.paths.join(', '), {
    wallMs,
    concurrency: options.concurrency,
  });
  const summary = join(OUT_DIR, 'summary.txt');
  writeFileSync(join(projectRoot, summary), `${lines.join('\n')}\n`);
  process.stdout.write(`\n${lines.join('\n')}\n\nreports: ${OUT_DIR}/mutation.html, ${REPORT}, ${summary}\n`);
  return 0;
}

main().then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    exitWhenFlushed(error instanceof UsageError || error instanceof ScopeError ? 2 : 3);
  },
);
