// history.html and history.md: the runs, oldest first, then a row per clause with its status now,
// when it last changed, how often it changed and flipped, and its status in every run (a cell per
// run, the status in its title). Clauses that flipped come first. The HTML fetches nothing and runs
// no script.
import { createHash } from 'node:crypto';
import { html, Markup } from '../reporters/html-markup.ts';
import { STYLE } from '../reporters/html.ts';
import type { ClauseHistory, History } from './history.ts';

const EXTRA_STYLE = `.runs td, .runs th { white-space: nowrap; }
.timeline { display: flex; gap: 2px; }
.timeline span { display: inline-block; width: .7rem; height: .9rem; border-radius: 2px; background: #eaeef2; }
.timeline .verified { background: var(--pass); } .timeline .failed, .timeline .failed-known { background: var(--fail); }
.timeline .partial, .timeline .not-verified { background: var(--warn); }`;
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const CSP = `default-src 'none'; style-src ${sha256(STYLE + EXTRA_STYLE)}; script-src 'none'; base-uri 'none'; form-action 'none'`;

const cssClass = (status: string | undefined) => (status ?? 'unknown').replace(/[^a-z]+/g, '-').replace(/-$/, '');

/** Clauses that flipped first (most flips first), then those that changed, then the rest, in registry order. */
export function ordered(history: History): ClauseHistory[] {
  return [...history.clauses].sort((a, b) => b.flips - a.flips || b.changes - a.changes);
}

function lastChanged(history: History, c: ClauseHistory): string {
  if (!c.lastChanged) return history.runs.length > 1 ? 'never' : '(one run)';
  return `${history.runs[c.lastChanged.run]!.startedAt} (${c.lastChanged.from} → ${c.lastChanged.to})`;
}

export function renderHistoryMarkdown(history: History): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    '# Per-clause history',
    '',
    `${history.runs.length} runs under \`${history.folder}\`, oldest first.`,
    '',
    '| # | Started | Target | Verdict | Commit | results.json |',
    '|---|---|---|---|---|---|',
    ...history.runs.map(
      (r, i) => `| ${i + 1} | ${r.startedAt} | ${cell(r.target)} | ${r.verdict} | ${cell(r.commit)} | \`${cell(r.file)}\` |`,
    ),
    '',
    '| Clause | Level | Now | Last changed | Changes | Flips | Statuses, run by run |',
    '|---|---|---|---|---|---|---|',
    ...ordered(history).map(
      (c) =>
        `| \`${c.id}\` | ${c.level} | ${c.statuses.at(-1) ?? '(unknown)'} | ${cell(lastChanged(history, c))} | ${c.changes} | ${c.flips} | ${c.statuses.map((s) => s ?? '-').join(', ')} |`,
    ),
    '',
  ].join('\n');
}

export function renderHistoryHtml(history: History): string {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>Per-clause history of ${history.runs.length} runs</title>
<style>${new Markup(STYLE + EXTRA_STYLE)}</style>
</head>
<body>
<h1>Per-clause history</h1>
<p>${history.runs.length} runs under <code>${history.folder}</code>, oldest first. A flip is a clause that passed in one run and failed in the next, or the other way.</p>
<section id="runs"><h2>Runs</h2>
<table class="runs"><thead><tr><th>#</th><th>Started</th><th>Target</th><th>Verdict</th><th>Commit</th><th>results.json</th></tr></thead><tbody>
${history.runs.map((r, i) => html`<tr><td>${i + 1}</td><td>${r.startedAt}</td><td>${r.target}</td><td>${r.verdict}</td><td>${r.commit}</td><td><code>${r.file}</code></td></tr>\n`)}</tbody></table></section>
<section id="clauses"><h2>Clauses</h2>
<table><thead><tr><th>Clause</th><th>Level</th><th>Now</th><th>Last changed</th><th class="n">Changes</th><th class="n">Flips</th><th>Run by run</th></tr></thead><tbody>
${ordered(history).map(
  (c) =>
    html`<tr><td><code>${c.id}</code><div class="clause-summary">${c.summary}</div></td><td class="tight">${c.level}</td><td class="tight">${c.statuses.at(-1) ?? '(unknown)'}</td><td>${lastChanged(history, c)}</td><td class="n">${c.changes}</td><td class="n">${c.flips}</td><td><div class="timeline">${c.statuses.map((s, i) => html`<span class="${cssClass(s)}" title="run ${i + 1}: ${s ?? 'unknown'}"></span>`)}</div></td></tr>\n`,
)}</tbody></table></section>
</body>
</html>
`.text;
}
