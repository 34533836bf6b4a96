// `npm run check-description -- FILE [--previous OLD]` (npx mgmt-api-conformance
// check-description): the service's published API description (a copy the user downloads; the
// project does not ship it) against specs/, for the three operations: every difference (fields,
// bounds, formats, statuses, scopes, causes of refusal, lifecycle marks), mapped to the clauses it
// touches and the tests citing them, and what is new since a previous copy. Writes
// description.md, description.html and description.json. Exit codes: 0 specs/' observed level is up
// to date with the description, 1 it is not (the differences to act on are listed first), 2 a bad
// option or a file that is not an OpenAPI description of the operations, 3 the reports cannot be written.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exitWhenFlushed } from './exit.ts';
import { EXIT } from './options.ts';
import { sayError, subcommandArgs } from './subcommand.ts';

const USAGE = `Usage: npm run check-description -- [--previous OLD] [--out DIR] FILE
       npx mgmt-api-conformance check-description [--previous OLD] [--out DIR] FILE

Compares the service's published OpenAPI description (FILE, JSON or YAML: a copy you download;
see the README) with specs/ for the three operations: parameters, body fields and their bounds and
formats, success answers, statuses, scopes, causes of refusal and lifecycle marks. Each difference
says whether specs/' observed level is out of date there, or the description only goes beyond the
spec (the contract stays the spec's), and which clauses and tests it touches. With --previous, also
what changed in the description since that copy. Writes description.md, description.html and
description.json.

  --previous OLD   an earlier copy of the description: report what is new since
  --out DIR        where the reports go (default reports/description)
  -h, --help       show this help

Exit status: 0 the observed level is up to date with FILE; 1 it is not; 2 bad option or file;
3 the reports cannot be written.`;

const fail = sayError;

async function main(): Promise<number> {
  const parsed = await subcommandArgs(
    {
      options: {
        previous: { type: 'string' },
        out: { type: 'string', default: 'reports/description' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    USAGE,
  );
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return fail(EXIT.usage, 'name one description FILE (see --help)');
  const { readDescription, DescriptionError } = await import('./description/vendor.ts');
  const { checkDescription } = await import('./description/check.ts');
  const { headline, renderDescriptionHtml, renderDescriptionMarkdown, show } = await import('./description/render.ts');
  let check;
  try {
    check = checkDescription(readDescription(positionals[0]!), values.previous ? readDescription(values.previous) : undefined);
  } catch (error) {
    if (error instanceof DescriptionError) return fail(EXIT.usage, error.message);
    throw error;
  }
  const out = resolve(values.out);
  const files: Array<[string, string]> = [
    ['description.md', renderDescriptionMarkdown(check)],
    ['description.html', renderDescriptionHtml(check)],
    ['description.json', `${JSON.stringify(check, null, 2)}\n`],
  ];
  try {
    mkdirSync(out, { recursive: true });
    for (const [name, text] of files) writeFileSync(join(out, name), text);
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    return fail(EXIT.cannotRun, `cannot write the reports to ${err.path ?? out}: ${err.code ?? err.message}`);
  }
  const say = (line: string) => process.stdout.write(`${line}\n`);
  for (const r of check.rows.filter((row) => row.standing === 'observed out of date')) {
    say(
      `OUT OF DATE ${r.subject} ${r.where} ${r.what}: specs/ observed ${show(r.observed)}, description ${show(r.description)}; clauses ${r.clauses.join(', ') || '(none)'}`,
    );
  }
  for (const r of check.previous?.rows ?? [])
    say(`NEW ${r.subject} ${r.where} ${r.what}: ${show(r.before)} → ${show(r.now)}; clauses ${r.clauses.join(', ') || '(none)'}`);
  say(headline(check));
  say(`reports: ${files.map(([name]) => join(out, name)).join(', ')}`);
  return check.rows.some((r) => r.standing === 'observed out of date') || check.missing.length > 0 ? EXIT.fail : EXIT.pass;
}

main().then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => exitWhenFlushed(fail(EXIT.cannotRun, error instanceof Error ? error.message : String(error))),
);
