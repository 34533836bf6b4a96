// description.md and description.html: the description read, the operations it lacks, the
// differences where specs/' observed level is out of date (first: they are what to act on), the
// departures observed.yaml keeps on purpose, the rest where the description goes beyond the spec,
// and what is new since the previous copy; each with its clauses and the tests citing them.
import { createHash } from 'node:crypto';
import { html, join as joinMarkup, Markup } from '../reporters/html-markup.ts';
import { STYLE } from '../reporters/html.ts';
import type { DescriptionCheck, NewRow, Row, Standing } from './check.ts';

const STANDINGS: Standing[] = ['observed out of date', 'departure (kept)', 'contract differs (kept)'];
/** Tests listed per row; the JSON has them all. */
const TESTS_SHOWN = 4;

export const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const testsOf = (row: Row) =>
  `${row.tests.slice(0, TESTS_SHOWN).join(', ')}${row.tests.length > TESTS_SHOWN ? `, and ${row.tests.length - TESTS_SHOWN} more` : ''}`;

export function headline(check: DescriptionCheck): string {
  const count = (standing: Standing) => check.rows.filter((r) => r.standing === standing).length;
  const found = 3 - check.missing.length;
  const since = check.previous ? `; ${check.previous.rows.length} changes since the previous copy` : '';
  return `${found} of the 3 operations described; ${count('observed out of date')} differences where specs/' observed level is out of date, ${count('departure (kept)')} departures kept on purpose, ${count('contract differs (kept)')} where the description differs from the spec, whose contract stays${since}`;
}

export function renderDescriptionMarkdown(check: DescriptionCheck): string {
  const lines = [
    '# The published API description against specs/',
    '',
    `\`${check.file}\`: ${check.title}, version ${check.version}. ${headline(check)}.`,
    '',
    ...(check.missing.length > 0 ? [`Operations the description lacks: ${check.missing.join(', ')}.`, ''] : []),
  ];
  for (const standing of STANDINGS) {
    const rows = check.rows.filter((r) => r.standing === standing);
    if (rows.length === 0) continue;
    lines.push(
      `## ${standing[0]!.toUpperCase()}${standing.slice(1)} (${rows.length})`,
      '',
      '| Operation | Where | What | Spec | specs/ observed | Description | Clauses | Tests |',
      '|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.subject} | \`${cell(r.where)}\` | ${cell(r.what)} | ${cell(show(r.spec))} | ${cell(show(r.observed))} | ${cell(show(r.description))} | ${r.clauses.map((c) => `\`${c}\``).join(' ') || '(none)'} | ${cell(testsOf(r)) || '(none)'} |`,
      ),
      ...rows.filter((r) => r.reason).map((r) => `- ${r.subject} \`${cell(r.where)}\` ${cell(r.what)}: ${cell(r.reason!)}`),
      '',
    );
  }
  if (check.previous) lines.push(...newSinceMarkdown(check.previous));
  return lines.join('\n');
}

function newSinceMarkdown(previous: NonNullable<DescriptionCheck['previous']>): string[] {
  if (previous.rows.length === 0)
    return [`## New since \`${previous.file}\``, '', 'Nothing: the three operations are described alike in both copies.', ''];
  return [
    `## New since \`${previous.file}\` (version ${previous.version})`,
    '',
    '| Operation | Where | What | Before | Now | Clauses |',
    '|---|---|---|---|---|---|',
    ...previous.rows.map(
      (r: NewRow) =>
        `| ${r.subject} | \`${cell(r.where)}\` | ${cell(r.what)} | ${cell(show(r.before))} | ${cell(show(r.now))} | ${r.clauses.map((c) => `\`${c}\``).join(' ') || '(none)'} |`,
    ),
    '',
  ];
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const CSP = `default-src 'none'; style-src ${sha256(STYLE)}; script-src 'none'; base-uri 'none'; form-action 'none'`;
const codes = (ids: string[]) =>
  ids.length === 0
    ? html`(none)`
    : joinMarkup(
        ids.map((id) => html`<code>${id}</code>`),
        ' ',
      );

export function renderDescriptionHtml(check: DescriptionCheck): string {
  const sections = STANDINGS.map((standing) => {
    const rows = check.rows.filter((r) => r.standing === standing);
    if (rows.length === 0) return html``;
    return html`<section><h2>${standing[0]!.toUpperCase()}${standing.slice(1)} (${rows.length})</h2>
<table><thead><tr><th>Operation</th><th>Where</th><th>What</th><th>Spec</th><th>specs/ observed</th><th>Description</th><th>Clauses</th><th>Tests</th></tr></thead><tbody>
${rows.map(
  (r) =>
    html`<tr><td>${r.subject}</td><td><code>${r.where}</code></td><td>${r.what}</td><td>${show(r.spec)}</td><td>${show(r.observed)}</td><td>${show(r.description)}${r.reason ? html`<div class="muted">kept: ${r.reason}</div>` : ''}</td><td>${codes(r.clauses)}</td><td class="muted">${testsOf(r)}</td></tr>\n`,
)}</tbody></table></section>`;
  });
  const previous = check.previous;
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>The published API description against specs/</title>
<style>${new Markup(STYLE)}</style>
</head>
<body>
<h1>The published API description against specs/</h1>
<p><code>${check.file}</code>: ${check.title}, version ${check.version}. ${headline(check)}.</p>
${check.missing.length > 0 ? html`<p>Operations the description lacks: ${check.missing.join(', ')}.</p>` : ''}
${sections}
${
  previous
    ? html`<section><h2>New since <code>${previous.file}</code> (${previous.rows.length})</h2>
<table><thead><tr><th>Operation</th><th>Where</th><th>What</th><th>Before</th><th>Now</th><th>Clauses</th></tr></thead><tbody>
${previous.rows.map((r) => html`<tr><td>${r.subject}</td><td><code>${r.where}</code></td><td>${r.what}</td><td>${show(r.before)}</td><td>${show(r.now)}</td><td>${codes(r.clauses)}</td></tr>\n`)}</tbody></table></section>`
    : ''
}
</body>
</html>
`.text;
}
