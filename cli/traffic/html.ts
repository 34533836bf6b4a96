// report.html of check-traffic: what summary.md says, for a browser, in one file that fetches
// nothing and runs no script (the run report's style, a Content-Security-Policy that allows only
// it). Every text is escaped on the way in (html-markup.ts).
import { createHash } from 'node:crypto';
import { operationKeys } from '../../specs/index.ts';
import { html, Markup } from '../reporters/html-markup.ts';
import { STYLE } from '../reporters/html.ts';
import type { TrafficResult } from './result.ts';
import { COVERAGE_TEXT, judgedLine, reachedLine, TRAFFIC_VERDICT_TEXT } from './summary.ts';

const EXTRA_STYLE = `.c-held .status { color: var(--pass); } .c-broken .status { color: var(--fail); }
.c-not-reached .status, .c-not-testable .status, .c-gap .status { color: var(--muted); font-weight: 400; }`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src ${sha256(STYLE + EXTRA_STYLE)}; script-src 'none'; base-uri 'none'; form-action 'none'`;

const ENDPOINTS = [...operationKeys, 'token'];

export function renderTrafficHtml(result: TrafficResult): string {
  const { traffic } = result;
  const failed = result.tests.filter((t) => t.state === 'failed');
  const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${result.verdict}: passive conformance, ${judgedLine(result)}</title>
<style>${new Markup(STYLE + EXTRA_STYLE)}</style>
</head>
<body>
<h1>Passive conformance report: management API v2</h1>
<section id="verdict" class="verdict verdict-${result.verdict}">
<p class="word">${result.verdict}</p>
<p class="meaning">${sentence(TRAFFIC_VERDICT_TEXT[result.verdict])}</p>
<p>${sentence(judgedLine(result))} ${sentence(reachedLine(result))} Nothing was sent.</p>
</section>
<section id="recordings">
<h2>Recordings</h2>
<table><thead><tr><th>Recording</th><th class="n">Judged</th><th class="n">Read</th>${ENDPOINTS.map((e) => html`<th class="n">${e}</th>`)}</tr></thead><tbody>
${traffic.files.map((f) => html`<tr><td><code>${f.file}</code></td><td class="n">${f.judged}</td><td class="n">${f.exchanges}</td>${ENDPOINTS.map((e) => html`<td class="n">${f.byEndpoint[e] ?? 0}</td>`)}</tr>\n`)}</tbody></table>
</section>
${[
  ['gating-failures', 'Gating clauses broken', failed.filter((t) => t.gating)],
  ['observed-failures', 'Observed clauses broken, not gating', failed.filter((t) => !t.gating)],
].map(([id, heading, tests]) =>
  (tests as typeof failed).length === 0
    ? html``
    : html`<section id="${id as string}"><h2>${heading as string}</h2>
${(tests as typeof failed).map((t) => html`<article class="failure ${t.gating ? 'gating' : 'observed'}"><h3>${t.name}</h3>${t.errors.map((e) => html`<pre>${e}</pre>`)}</article>\n`)}</section>`,
)}
<section id="coverage">
<h2>Coverage per clause</h2>
<p>Exchanges: the recorded exchanges that bore on the clause; held and broke count them. A clause no exchange reached is not claimed.</p>
<table><thead><tr><th>Clause</th><th>§</th><th>Level</th><th class="n">Exchanges</th><th class="n">Held</th><th class="n">Broke</th><th>Result</th></tr></thead><tbody>
${traffic.coverage.map(
  (c) =>
    html`<tr class="c-${c.result.replace(' ', '-')}"><td><code>${c.id}</code><div class="clause-summary">${c.summary}</div></td><td class="tight">${c.section}</td><td class="tight">${c.level}</td><td class="n">${c.exchanges}</td><td class="n">${c.held}</td><td class="n">${c.broke}</td><td class="status">${COVERAGE_TEXT[c.result]}</td></tr>\n`,
)}</tbody></table>
</section>
<footer><p class="muted">Written by ${result.info.version} (commit ${result.info.commit}), ${result.info.startedAt}.</p></footer>
</body>
</html>
`.text;
}
