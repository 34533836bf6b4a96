// compare.md and compare.html: the two runs, then what passed in one and failed in the other
// (clauses, then tests), every other change of a clause, and the exchanges whose observed facts
// differ, fact by fact. The HTML fetches nothing and runs no script.
import { createHash } from 'node:crypto';
import { html, Markup } from '../reporters/html-markup.ts';
import { STYLE } from '../reporters/html.ts';
import { runName, type Comparison, type RunFacts } from './comparison.ts';
import type { Change } from './runs.ts';

/** Exchanges listed in the reports; compare.json holds them all. */
const EXCHANGES_SHOWN = 200;

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function headline(c: Comparison): string {
  const broke = c.clauses.filter((x) => x.kind === 'broke').length;
  const fixed = c.clauses.filter((x) => x.kind === 'fixed').length;
  const tests = c.tests.filter((x) => x.kind !== 'changed').length;
  const exchanges = c.exchanges
    ? `; ${c.exchanges.differing.length} of ${c.exchanges.paired} paired exchanges differ, ${c.exchanges.onlyA.length} only in A, ${c.exchanges.onlyB.length} only in B`
    : '; exchanges not compared (a run without exchanges.ndjson: run it with --record)';
  return `${broke} clauses passed in A and failed in B, ${fixed} the other way, ${c.clauses.length - broke - fixed} changed otherwise; ${tests} tests passed in one and failed in the other${exchanges}`;
}

function runRow(label: string, f: RunFacts): string {
  return `| ${label} | ${cell(runName(f))} | ${cell(f.target)} | ${f.startedAt} | ${f.seed} | ${cell(f.commit)} | ${f.verdict} |`;
}

export function renderCompareMarkdown(c: Comparison): string {
  const lines = [
    '# Comparison of two runs',
    '',
    `${headline(c)}.`,
    '',
    '| Run | Reports | Target | Started | Seed | Commit | Verdict |',
    '|---|---|---|---|---|---|---|',
    runRow('A', c.a),
    runRow('B', c.b),
    '',
  ];
  const section = (title: string, changes: Change[]) => {
    if (changes.length === 0) return;
    lines.push(`## ${title}`, '', '| | A | B |', '|---|---|---|', ...changes.map((x) => `| ${cell(x.id)} | ${x.a} | ${x.b} |`), '');
  };
  section(
    'Clauses that passed in A and failed in B',
    c.clauses.filter((x) => x.kind === 'broke'),
  );
  section(
    'Clauses that failed in A and passed in B',
    c.clauses.filter((x) => x.kind === 'fixed'),
  );
  section(
    'Tests that passed in one and failed in the other',
    c.tests.filter((x) => x.kind !== 'changed'),
  );
  section(
    'Clauses whose status changed otherwise',
    c.clauses.filter((x) => x.kind === 'changed'),
  );
  section(
    'Tests that ran in one only, or were skipped in one',
    c.tests.filter((x) => x.kind === 'changed'),
  );
  if (c.exchanges) {
    const { differing, onlyA, onlyB } = c.exchanges;
    if (differing.length > 0) {
      lines.push('## Exchanges whose observed facts differ', '', '| Exchange | Fact | A | B |', '|---|---|---|---|');
      for (const d of differing.slice(0, EXCHANGES_SHOWN))
        for (const f of d.facts) lines.push(`| ${cell(d.request)} | ${f.fact} | ${cell(f.a)} | ${cell(f.b)} |`);
      if (differing.length > EXCHANGES_SHOWN) lines.push('', `... and ${differing.length - EXCHANGES_SHOWN} more in compare.json.`);
      lines.push('');
    }
    for (const [title, list] of [
      ['Exchanges only in A', onlyA],
      ['Exchanges only in B', onlyB],
    ] as const) {
      if (list.length === 0) continue;
      lines.push(`## ${title} (${list.length})`, '', ...list.slice(0, EXCHANGES_SHOWN).map((r) => `- ${cell(r)}`), '');
    }
  }
  return lines.join('\n');
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const CSP = `default-src 'none'; style-src ${sha256(STYLE)}; script-src 'none'; base-uri 'none'; form-action 'none'`;

function changesTable(id: string, title: string, changes: Change[]): Markup {
  if (changes.length === 0) return html``;
  return html`<section id="${id}"><h2>${title} (${changes.length})</h2>
<table><thead><tr><th></th><th>A</th><th>B</th></tr></thead><tbody>
${changes.map((x) => html`<tr><td><code>${x.id}</code></td><td>${x.a}</td><td>${x.b}</td></tr>\n`)}</tbody></table></section>`;
}

export function renderCompareHtml(c: Comparison): string {
  const runRows = (
    [
      ['A', c.a],
      ['B', c.b],
    ] as const
  ).map(
    ([label, f]) =>
      html`<tr><th scope="row">${label}</th><td><code>${runName(f)}</code></td><td>${f.target}</td><td>${f.startedAt}</td><td>${f.seed}</td><td>${f.commit}</td><td>${f.verdict}</td></tr>\n`,
  );
  const differing = c.exchanges?.differing.slice(0, EXCHANGES_SHOWN) ?? [];
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>Comparison of two runs</title>
<style>${new Markup(STYLE)}</style>
</head>
<body>
<h1>Comparison of two runs</h1>
<p>${headline(c)}.</p>
<table class="facts"><thead><tr><th>Run</th><th>Reports</th><th>Target</th><th>Started</th><th>Seed</th><th>Commit</th><th>Verdict</th></tr></thead><tbody>
${runRows}</tbody></table>
${changesTable(
  'clauses-broke',
  'Clauses that passed in A and failed in B',
  c.clauses.filter((x) => x.kind === 'broke'),
)}
${changesTable(
  'clauses-fixed',
  'Clauses that failed in A and passed in B',
  c.clauses.filter((x) => x.kind === 'fixed'),
)}
${changesTable(
  'tests',
  'Tests that passed in one and failed in the other',
  c.tests.filter((x) => x.kind !== 'changed'),
)}
${changesTable(
  'clauses-changed',
  'Clauses whose status changed otherwise',
  c.clauses.filter((x) => x.kind === 'changed'),
)}
${changesTable(
  'tests-changed',
  'Tests that ran in one only, or were skipped in one',
  c.tests.filter((x) => x.kind === 'changed'),
)}
${
  differing.length > 0
    ? html`<section id="exchanges"><h2>Exchanges whose observed facts differ (${c.exchanges!.differing.length})</h2>
<table><thead><tr><th>Exchange</th><th>Fact</th><th>A</th><th>B</th></tr></thead><tbody>
${differing.flatMap((d) => d.facts.map((f) => html`<tr><td><code>${d.request}</code></td><td>${f.fact}</td><td>${f.a}</td><td>${f.b}</td></tr>\n`))}</tbody></table></section>`
    : html``
}
</body>
</html>
`.text;
}
