// `npm run history -- DIR` (npx mgmt-api-conformance history): the per-clause history of the runs
// whose results.json lie under DIR (a CI job's archive of report directories): history.html,
// history.md and history.json, with when each clause last changed and how often it flipped.
// Exit codes: 0 written, 2 a bad option or no run under DIR, 3 the reports cannot be written.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exitWhenFlushed } from './exit.ts';
import { EXIT } from './options.ts';
import { sayError, subcommandArgs } from './subcommand.ts';

const USAGE = `Usage: npm run history -- [--out DIR] FOLDER
       npx mgmt-api-conformance history [--out DIR] FOLDER

Reads every run's results.json under FOLDER (report directories, at any depth; shards' own
results left out) and writes the history of each clause, oldest run first: its status in every
run, when it last changed and how often it flipped between passing and failing.
Writes history.html, history.md and history.json.

  --out DIR     where the history goes (default reports/history)
  -h, --help    show this help`;

const fail = sayError;

async function main(): Promise<number> {
  const parsed = await subcommandArgs(
    { options: { out: { type: 'string', default: 'reports/history' }, help: { type: 'boolean', short: 'h' } } },
    USAGE,
  );
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 1) return fail(EXIT.usage, 'name one FOLDER of runs (see --help)');
  const { historyOf } = await import('./history/history.ts');
  const { CompareError } = await import('./compare/runs.ts');
  const { renderHistoryHtml, renderHistoryMarkdown } = await import('./history/render.ts');
  let history;
  try {
    history = historyOf(resolve(parsed.positionals[0]!));
  } catch (error) {
    if (error instanceof CompareError) return fail(EXIT.usage, error.message);
    throw error;
  }
  const out = resolve(parsed.values.out);
  const files: Array<[string, string]> = [
    ['history.html', renderHistoryHtml(history)],
    ['history.md', renderHistoryMarkdown(history)],
    ['history.json', `${JSON.stringify(history, null, 2)}\n`],
  ];
  try {
    mkdirSync(out, { recursive: true });
    for (const [name, text] of files) writeFileSync(join(out, name), text);
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    return fail(EXIT.cannotRun, `cannot write the history to ${err.path ?? out}: ${err.code ?? err.message}`);
  }
  const flipped = history.clauses.filter((c) => c.flips > 0);
  process.stdout.write(`${history.runs.length} runs, ${history.runs[0]!.startedAt} to ${history.runs.at(-1)!.startedAt}\n`);
  for (const c of flipped) process.stdout.write(`FLIPPED ${c.id}: ${c.flips} times; now ${c.statuses.at(-1) ?? 'unknown'}\n`);
  process.stdout.write(`${flipped.length} clauses flipped, ${history.clauses.filter((c) => c.changes > 0).length} changed\n`);
  process.stdout.write(`history: ${files.map(([name]) => join(out, name)).join(', ')}\n`);
  return EXIT.pass;
}

main().then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => exitWhenFlushed(fail(EXIT.cannotRun, error instanceof Error ? error.message : String(error))),
);
