// `npm run compare -- A B` (npx mgmt-api-conformance compare): two runs compared, clause by
// clause, test by test and, when both kept their exchanges (npm start -- --record), exchange by
// exchange after normalising ids, times and tokens. Writes compare.md, compare.html and
// compare.json. Exit codes: 0 nothing that held in A broke in B, 1 something did, 2 a bad option
// or a directory that holds no run, 3 the reports cannot be written.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exitWhenFlushed } from './exit.ts';
import { EXIT } from './options.ts';
import { sayError, subcommandArgs } from './subcommand.ts';

const USAGE = `Usage: npm run compare -- [--out DIR] A B
       npx mgmt-api-conformance compare [--out DIR] A B

Compares two runs, each given as its report directory (or its results.json): the clauses and
tests that passed in one and failed in the other, every other change of a clause's status, and,
when both runs kept their exchanges (npm start -- --record), the exchanges whose observed facts
differ (status, error text, body fields and their types, headers), after ids, times, tokens and
rate-limit numbers are normalised away. Writes compare.md, compare.html and compare.json.

  --out DIR     where the comparison goes (default reports/compare)
  -h, --help    show this help

Exit status: 0 nothing that passed in A failed in B; 1 something did; 2 bad option or not a
run; 3 the comparison cannot be written.`;

const fail = sayError;

async function main(): Promise<number> {
  const parsed = await subcommandArgs(
    { options: { out: { type: 'string', default: 'reports/compare' }, help: { type: 'boolean', short: 'h' } } },
    USAGE,
  );
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 2) return fail(EXIT.usage, `name two runs, A and B (got ${parsed.positionals.length}; see --help)`);
  const { loadRun, CompareError } = await import('./compare/runs.ts');
  const { compareRuns } = await import('./compare/comparison.ts');
  const { renderCompareHtml, renderCompareMarkdown, headline } = await import('./compare/render.ts');
  const { redactor } = await import('../harness/runner.ts');
  let comparison;
  try {
    comparison = compareRuns(loadRun(parsed.positionals[0]!), loadRun(parsed.positionals[1]!));
  } catch (error) {
    if (error instanceof CompareError) return fail(EXIT.usage, error.message);
    throw error;
  }
  const out = resolve(parsed.values.out);
  const files: Array<[string, string]> = [
    ['compare.md', renderCompareMarkdown(comparison)],
    ['compare.html', renderCompareHtml(comparison)],
    ['compare.json', `${JSON.stringify(comparison, null, 2)}\n`],
  ];
  try {
    mkdirSync(out, { recursive: true });
    for (const [name, text] of files) writeFileSync(join(out, name), redactor.redact(text));
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    return fail(EXIT.cannotRun, `cannot write the comparison to ${err.path ?? out}: ${err.code ?? err.message}`);
  }
  const say = (line: string) => process.stdout.write(`${redactor.redact(line)}\n`);
  for (const change of [...comparison.clauses, ...comparison.tests].filter((c) => c.kind !== 'changed')) {
    say(`${change.kind === 'broke' ? 'BROKE' : 'FIXED'} ${change.id}: ${change.a} in A, ${change.b} in B`);
  }
  for (const d of comparison.exchanges?.differing.slice(0, 20) ?? []) {
    say(`DIFFERS ${d.request}: ${d.facts.map((f) => `${f.fact} ${f.a} → ${f.b}`).join('; ')}`);
  }
  say(headline(comparison));
  say(`comparison: ${files.map(([name]) => join(out, name)).join(', ')}`);
  return comparison.regressed ? EXIT.fail : EXIT.pass;
}

main().then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => exitWhenFlushed(fail(EXIT.cannotRun, error instanceof Error ? error.message : String(error))),
);
