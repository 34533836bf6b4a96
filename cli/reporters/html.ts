// report.html: the run for a reader in a browser. The verdict and what it means, the run's facts,
// the gating clauses left unverified and why, the failures (gating first) with their request,
// response and replay line, the coverage per operation, a plot of the target's
// X-RateLimit-Remaining over the run, and the clause matrix (last: it is long). One file: its
// style and script are inline, the plot is an SVG drawn here, and its Content-Security-Policy lets
// it fetch nothing. Every text is escaped on the way in (html-markup.ts).
import { createHash } from 'node:crypto';
import { requestsPlanned } from './console.ts';
import { pacingLine } from '../pacing-report.ts';
import { quotaLine, tokensLine } from '../token-report.ts';
import { lineAfter } from './failure-summary.ts';
import { html, join, Markup } from './html-markup.ts';
import { rateLimitPlot } from './html-plot.ts';
import { tallyText } from './console.ts';
import {
  BUG_REPORT,
  operationCoverage,
  stoppedLine,
  unverifiedReasons,
  type ClauseStatus,
  type RunResult,
  type TestOutcome,
} from './results.ts';
import { VERDICT_TEXT } from './summary.ts';

const STATUS_CLASS: Record<ClauseStatus, string> = {
  verified: 'verified',
  failed: 'failed',
  'failed (known)': 'known',
  partial: 'partial',
  'not verified': 'unverified',
  'not selected': 'unselected',
  'not testable': 'untestable',
  gap: 'gap',
};

/** The labelled lines of a failure (harness/failure.ts writes them), in the order a reader wants them. */
const FAILURE_FIELDS = ['expected', 'actual', 'response', 'headers', 'request', 'replay', 'hint'] as const;

export const STYLE = `
:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --wash: #f6f8fa; --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --blue: #0969da;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); }
body { max-width: 1120px; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.4rem; margin: 0 0 1rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 .6rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; margin: 0 0 .3rem; }
code, pre { font: 13px/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
pre { margin: 0; padding: .4rem .6rem; background: var(--wash); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
table { width: 100%; border-collapse: collapse; }
th, td { padding: .3rem .5rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: var(--wash); }
.n { text-align: right; font-variant-numeric: tabular-nums; }
.muted, .clause-summary { color: var(--muted); }
.clause-summary { font-size: .85rem; }
.verdict { padding: 1rem 1.25rem; border-radius: 8px; color: #fff; }
.verdict p { margin: .2rem 0; }
.verdict .word { font-size: 2rem; font-weight: 700; letter-spacing: .04em; }
.verdict-PASS { background: var(--pass); } .verdict-FAIL { background: var(--fail); } .verdict-INCOMPLETE { background: var(--warn); } .verdict-ERROR { background: var(--muted); }
.facts th { width: 1%; white-space: nowrap; background: none; font-weight: 600; }
.tight { white-space: nowrap; } #clause-matrix .note { width: 32%; } #not-verified .why { width: 40%; } #not-verified code { white-space: nowrap; }
.failure { margin: 1rem 0; padding: .2rem 0 .2rem 1rem; border-left: 4px solid var(--fail); }
.failure.observed, .failure.known { border-color: var(--warn); } .failure.suite-error { border-color: var(--muted); }
.failure dl { display: grid; grid-template-columns: max-content 1fr; gap: .3rem .8rem; margin: .5rem 0; }
.failure dt { font-weight: 600; }
.failure dd { margin: 0; min-width: 0; }
.status { font-weight: 600; white-space: nowrap; }
.s-verified .status { color: var(--pass); } .s-failed .status { color: var(--fail); }
.s-known .status, .s-partial .status, .s-unverified .status { color: var(--warn); }
.s-unselected .status, .s-untestable .status, .s-gap .status { color: var(--muted); font-weight: 400; }
.controls { display: flex; gap: 1rem; align-items: center; margin: .5rem 0; }
#clause-matrix th { cursor: pointer; user-select: none; }
#clause-matrix th[aria-sort=ascending]::after { content: " ▲"; } #clause-matrix th[aria-sort=descending]::after { content: " ▼"; }
.legend span { margin-right: 1.2rem; } .legend span::before { content: ""; display: inline-block; width: 1.2rem; height: 0; margin-right: .35rem; vertical-align: middle; }
.legend .remaining::before { border-top: 2px solid var(--blue); } .legend .limit::before { border-top: 2px dashed var(--muted); }
.legend .refused::before { width: .6rem; height: .6rem; border-radius: 50%; background: var(--fail); }
svg.plot { width: 100%; height: auto; }
svg.plot text { font: 12px system-ui, sans-serif; fill: var(--ink); }
svg.plot .grid { stroke: #eaeef2; } svg.plot .axis { stroke: var(--muted); }
svg.plot .remaining { fill: none; stroke: var(--blue); stroke-width: 1.5; stroke-linejoin: round; }
svg.plot .limit { fill: none; stroke: var(--muted); stroke-width: 1.5; stroke-dasharray: 6 4; }
svg.plot .refused { fill: var(--fail); }
@media print { .controls { display: none; } }
`;

// Filters and sorts the clause matrix; the controls stay hidden where the script does not run.
const SCRIPT = `
(() => {
  const table = document.getElementById('clause-matrix');
  const controls = document.getElementById('clause-filter');
  if (!table || !controls) return;
  const rows = Array.from(table.tBodies[0].rows);
  const search = controls.querySelector('input');
  const outcome = controls.querySelector('select');
  const shown = controls.querySelector('output');
  const filter = () => {
    const words = search.value.trim().toLowerCase();
    let count = 0;
    for (const row of rows) {
      row.hidden = !row.textContent.toLowerCase().includes(words) || (outcome.value !== '' && row.dataset.status !== outcome.value);
      if (!row.hidden) count += 1;
    }
    shown.value = count + ' of ' + rows.length + ' clauses shown';
  };
  table.tHead.addEventListener('click', (event) => {
    const th = event.target.closest('th');
    if (!th) return;
    const descending = th.getAttribute('aria-sort') === 'ascending';
    for (const cell of th.parentElement.cells) cell.removeAttribute('aria-sort');
    th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
    const key = (row) => row.cells[th.cellIndex].dataset.sort ?? row.cells[th.cellIndex].textContent;
    rows.sort((a, b) => key(a).localeCompare(key(b), 'en', { numeric: true }) * (descending ? -1 : 1));
    table.tBodies[0].append(...rows);
  });
  search.addEventListener('input', filter);
  outcome.addEventListener('change', filter);
  controls.hidden = false;
  filter();
})();
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Nothing may be fetched: only this page's own style and script, by their hashes, apply. */
const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; base-uri 'none'; form-action 'none'`;

export function renderHtml(result: RunResult): string {
  const failed = result.tests.filter((t) => t.state === 'failed');
  const page = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${result.verdict}: management API v2 conformance, ${result.info.target}</title>
<style>${new Markup(STYLE)}</style>
</head>
<body>
<h1>Conformance report: management API v2</h1>
${verdictBanner(result)}
${runFacts(result)}
${notVerified(result)}
${problemsOutsideTests(result)}
${failures(
  'gating-failures',
  'Gating failures',
  failed.filter((t) => t.gating),
)}
${failures(
  'observed-failures',
  'Observed failures, not gating',
  failed.filter((t) => !t.gating && !t.known),
)}
${failures(
  'known-failures',
  'Known failures, in the baseline, not gating',
  failed.filter((t) => t.known),
)}
${failures(
  'suite-errors',
  "Suite errors, the suite's and not the target's",
  result.tests.filter((t) => t.state === 'error'),
)}
${fixedKnownFailures(result)}
${coverage(result)}
<section id="rate-limit">
<h2>The target's rate limit over the run</h2>
${rateLimitPlot(result.tests)}
</section>
${clauseMatrix(result)}
${skippedTests(result)}
<footer><p class="muted">Written by ${result.info.version} (commit ${result.info.commit}) for the run started ${result.info.startedAt}.</p></footer>
<script>${new Markup(SCRIPT)}</script>
</body>
</html>
`;
  return page.text;
}

function verdictBanner(result: RunResult): Markup {
  const tally = (name: string, t: RunResult['contract']) => `${name}: ${tallyText(t)}`;
  return html`<section id="verdict" class="verdict verdict-${result.verdict}">
<p class="word">${result.verdict}</p>
<p class="meaning">${sentence(VERDICT_TEXT[result.verdict])}</p>
${result.verdict === 'ERROR' ? html`<p>${BUG_REPORT}</p>` : ''}
<p>${tally('Contract', result.contract)}. ${tally('Observed', result.observed)} ${result.info.strict ? '(gating: --strict)' : '(not gating)'}.</p>
</section>`;
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

function runFacts(result: RunResult): Markup {
  const { info } = result;
  const rows: Array<[string, Markup | string]> = [
    ['Target', info.target],
    ['Base URL', html`<code>${info.baseUrl}</code>`],
    [
      'Flags',
      info.flags.length > 0
        ? join(
            info.flags.map((flag) => html`<code>${flag}</code>`),
            ' ',
          )
        : '(none)',
    ],
    ['Suite', `${info.version} (commit ${info.commit})`],
    ['Started', info.startedAt],
    ['Wall time', `${(info.wallMs / 1000).toFixed(1)} s`],
    ['Seed', html`${info.seed} (replay with <code>--seed ${info.seed}</code>)`],
    ['Requests', `${result.requests} sent, ${requestsPlanned(info)}`],
    ["Waiting for the target's rate limit", `${(info.waitedMs / 1000).toFixed(1)} s`],
    ['429s outside the exhaustion', String(info.unplanned429s)],
    ...(info.pacing ? [["The target's rate limit", pacingLine(info.pacing)] as [string, string]] : []),
    ...(info.tokens ? [['Tokens', tokensLine(info.tokens)] as [string, string]] : []),
    ...(info.tokens && quotaLine(info.tokens) ? [['Token quota', quotaLine(info.tokens)!] as [string, string]] : []),
    ...(info.shard ? [['Shard', `${info.shard.index}/${info.shard.count}`] as [string, string]] : []),
  ];
  return html`<section id="run">
<h2>The run</h2>
<table class="facts"><tbody>
${rows.map(([label, value]) => html`<tr><th scope="row">${label}</th><td>${value}</td></tr>\n`)}</tbody></table>
${info.stopped ? html`<p><strong>${stoppedLine(info.stopped)}</strong></p>` : ''}
</section>`;
}

function notVerified(result: RunResult): Markup {
  const unverified = unverifiedReasons(result);
  if (unverified.length === 0) return html``;
  // A filtered run leaves dozens of clauses unverified for one reason: a row per reason reads better.
  const byReason = new Map<string, string[]>();
  for (const u of unverified) {
    const why = u.reasons.join('; ');
    byReason.set(why, [...(byReason.get(why) ?? []), u.id]);
  }
  return html`<section id="not-verified">
<h2>Gating clauses not verified (${unverified.length})</h2>
<table><thead><tr><th>Why</th><th>Clauses</th></tr></thead><tbody>
${[...byReason].map(
  ([why, ids]) =>
    html`<tr><td class="why">${why}</td><td>${join(
      ids.map((id) => html`<code>${id}</code>`),
      ', ',
    )}</td></tr>\n`,
)}</tbody></table>
</section>`;
}

function problemsOutsideTests(result: RunResult): Markup {
  return html`${result.unhandled.length > 0 ? html`<section id="errors"><h2>Errors outside tests</h2>${result.unhandled.map((e) => html`<pre>${e}</pre>`)}</section>` : ''}
${result.untagged.length > 0 ? html`<section id="untagged"><h2>Tests without a known clause tag</h2><ul>${result.untagged.map((t) => html`<li>${t}</li>`)}</ul></section>` : ''}`;
}

function failures(id: string, heading: string, tests: TestOutcome[]): Markup {
  if (tests.length === 0) return html``;
  return html`<section id="${id}">
<h2>${heading} (${tests.length})</h2>
${tests.map(failure)}
</section>`;
}

function failure(test: TestOutcome): Markup {
  const text = test.errors.join('\n\n');
  const fields = FAILURE_FIELDS.flatMap((label) => {
    const value = lineAfter(text, `${label}:`);
    return value === undefined ? [] : [{ label, value }];
  });
  const kind = test.state === 'error' ? 'suite-error' : test.gating ? 'gating' : test.known ? 'known' : 'observed';
  return html`<article class="failure ${kind}">
<h3>${test.name}</h3>
<p class="muted"><code>${test.file}${test.line ? `:${test.line}` : ''}</code>${test.clause ? html` · clause <code>${test.clause}</code> (§${test.section ?? '?'}, ${test.level ?? '?'})` : ''}${test.known ? ` · known failure: ${test.known.reason}` : ''}</p>
${
  fields.length > 0
    ? html`<dl>${fields.map((f) => html`<dt>${f.label}</dt><dd><pre>${f.value}</pre></dd>`)}</dl>
<details><summary>The failure in full</summary><pre>${text}</pre></details>`
    : html`<p>${test.failure ?? 'failed'}</p><pre>${text}</pre>`
}
</article>
`;
}

function fixedKnownFailures(result: RunResult): Markup {
  if (result.fixedKnownFailures.length === 0) return html``;
  return html`<section id="fixed-known-failures"><h2>Known failures that passed</h2>
<p>The baseline can shrink: these are listed as known failures but passed.</p>
<ul>${result.fixedKnownFailures.map((name) => html`<li>${name}</li>`)}</ul></section>`;
}

function clauseMatrix(result: RunResult): Markup {
  const statuses = Object.keys(STATUS_CLASS) as ClauseStatus[];
  const count = (status: ClauseStatus) => result.clauses.filter((c) => c.status === status && c.level === 'contract').length;
  const rows = result.clauses.map((c) => {
    const total = c.passed + c.failed + c.errored + c.skipped;
    const note = c.status === 'not testable' ? (c.note ?? '') : c.status === 'gap' ? '' : c.reasons.join('; ');
    return html`<tr class="s-${STATUS_CLASS[c.status]}" data-status="${c.status}"><td><code>${c.id}</code><div class="clause-summary">${c.summary}</div></td><td class="tight">${c.section}</td><td class="tight">${c.level}${c.gating && c.level !== 'contract' ? ' (gating)' : ''}</td><td class="n tight" data-sort="${total}">${total === 0 ? '0' : `${c.passed}/${total}`}</td><td class="status">${c.status}</td><td class="note">${note}</td></tr>\n`;
  });
  return html`<section id="clauses">
<h2>Clauses</h2>
<p>Contract clauses: ${count('verified')} verified, ${count('failed')} failed, ${count('partial')} partial, ${count('not verified')} not verified, ${count('not selected')} not selected, ${count('not testable')} not black-box testable. Tests: passed of those that cite the clause.</p>
<div id="clause-filter" class="controls" hidden>
<label>Filter <input type="search" placeholder="clause, level, reason…"></label>
<label>Outcome <select><option value="">any</option>${statuses.map((s) => html`<option>${s}</option>`)}</select></label>
<output></output>
</div>
<table id="clause-matrix"><thead><tr><th>Clause</th><th>§</th><th>Level</th><th class="n">Tests</th><th>Outcome</th><th>Note</th></tr></thead><tbody>
${rows}</tbody></table>
</section>`;
}

function coverage(result: RunResult): Markup {
  return html`<section id="operations">
<h2>Per operation</h2>
<table><thead><tr><th>Operation</th><th class="n">Tests sending to it</th><th class="n">Passed</th><th class="n">Failed</th><th class="n">Skipped</th><th class="n">Requests</th></tr></thead><tbody>
${operationCoverage(result.tests).map((r) => html`<tr><td>${r.operation}</td><td class="n">${r.tests}</td><td class="n">${r.passed}</td><td class="n">${r.failed}</td><td class="n">${r.skipped}</td><td class="n">${r.requests}</td></tr>\n`)}</tbody></table>
</section>`;
}

function skippedTests(result: RunResult): Markup {
  const skipped = result.tests.filter((t) => t.state === 'skipped');
  if (skipped.length === 0) return html``;
  return html`<section id="skipped">
<h2>Skipped tests (${skipped.length})</h2>
<details><summary>Each skipped test with its reason</summary><ul>
${skipped.map((t) => html`<li>${t.name}: [${t.skip?.category ?? 'skipped'}] ${t.skip?.reason ?? ''}</li>\n`)}</ul></details>
</section>`;
}
