// The plot of report.html: X-RateLimit-Remaining of every answer of the management interface the
// tests saw, in the order they came, over the run's time; X-RateLimit-Limit as a dashed line; each
// 429 marked. An SVG drawn here, axes labelled, so the report needs no chart library.
import type { RateLimitPoint } from '../../harness/runner.ts';
import { html, type Markup } from './html-markup.ts';
import type { TestOutcome } from './results.ts';

const WIDTH = 960;
const HEIGHT = 330;
const MARGIN = { left: 76, right: 24, top: 16, bottom: 56 };
const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;

export function rateLimitPlot(tests: readonly TestOutcome[]): Markup {
  const points = tests.flatMap((t) => t.rateLimit).sort((a, b) => a.at - b.at);
  if (points.length === 0) {
    return html`<p id="rate-limit-caption">No test received an answer from the management interface in this run, so there are no rate-limit headers to plot.</p>`;
  }
  const first = points[0]!.at;
  const secondsOf = (p: RateLimitPoint) => (p.at - first) / 1000;
  const xTicks = ticks(secondsOf(points.at(-1)!));
  const yTicks = ticks(Math.max(...points.map((p) => Math.max(p.limit ?? 0, p.remaining ?? 0))));
  const xOf = (seconds: number) => round(MARGIN.left + (seconds / xTicks.at(-1)!) * PLOT_WIDTH);
  const x = (p: RateLimitPoint) => xOf(secondsOf(p));
  const y = (value: number) => round(MARGIN.top + PLOT_HEIGHT - (value / yTicks.at(-1)!) * PLOT_HEIGHT);
  const bottom = MARGIN.top + PLOT_HEIGHT;
  const withRemaining = points.filter((p) => p.remaining !== undefined);
  const refused = points.filter((p) => p.status === 429);
  return html`${caption(points)}
<p class="legend" aria-hidden="true"><span class="remaining">X-RateLimit-Remaining</span><span class="limit">X-RateLimit-Limit</span><span class="refused">a 429 answer</span></p>
<svg class="plot" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="rate-limit-caption" xmlns="http://www.w3.org/2000/svg">
${yTicks.map((v) => html`<line class="grid" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(v)}" y2="${y(v)}"/><text x="${MARGIN.left - 8}" y="${y(v) + 4}" text-anchor="end">${label(v)}</text>\n`)}
${xTicks.map((s) => html`<line class="axis" x1="${xOf(s)}" x2="${xOf(s)}" y1="${bottom}" y2="${bottom + 5}"/><text x="${xOf(s)}" y="${bottom + 20}" text-anchor="middle">${label(s)}</text>\n`)}
<line class="axis" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${bottom}" y2="${bottom}"/>
<line class="axis" x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${bottom}"/>
<text x="${MARGIN.left + PLOT_WIDTH / 2}" y="${HEIGHT - 10}" text-anchor="middle">seconds since the first answer (${new Date(first).toISOString().slice(11, 19)} UTC)</text>
<text transform="translate(18 ${MARGIN.top + PLOT_HEIGHT / 2}) rotate(-90)" text-anchor="middle">requests (X-RateLimit-*)</text>
${limitLine(points, x, y)}
<polyline class="remaining" points="${withRemaining.map((p) => `${x(p)},${y(p.remaining!)}`).join(' ')}"/>
${refused.map((p) => html`<circle class="refused" cx="${x(p)}" cy="${y(p.remaining ?? 0)}" r="4.5"><title>429 at ${secondsOf(p).toFixed(3)} s, X-RateLimit-Remaining ${p.remaining ?? '(absent)'}</title></circle>\n`)}
</svg>`;
}

/** One sentence of what the plot shows, for the reader who does not look at it, and for a screen reader. */
function caption(points: RateLimitPoint[]): Markup {
  const remaining = points.flatMap((p) => (p.remaining === undefined ? [] : [p.remaining]));
  const limits = [...new Set(points.flatMap((p) => (p.limit === undefined ? [] : [p.limit])))].sort((a, b) => a - b);
  const refused = points.filter((p) => p.status === 429).length;
  const seconds = ((points.at(-1)!.at - points[0]!.at) / 1000).toFixed(1);
  const parts = [
    `${points.length} ${points.length === 1 ? 'answer' : 'answers'} of the management interface over ${seconds} s`,
    remaining.length > 0
      ? `X-RateLimit-Remaining went from ${remaining[0]} to ${remaining.at(-1)}, lowest ${Math.min(...remaining)}`
      : 'none carried X-RateLimit-Remaining',
    limits.length === 0
      ? 'none carried X-RateLimit-Limit'
      : limits.length === 1
        ? `X-RateLimit-Limit was ${limits[0]}`
        : `X-RateLimit-Limit varied from ${limits[0]} to ${limits.at(-1)}`,
    refused === 0 ? 'no answer was 429' : `${refused} ${refused === 1 ? 'answer was' : 'answers were'} 429 (marked)`,
  ];
  const missing = points.length - remaining.length;
  const unplotted =
    missing > 0 && remaining.length > 0
      ? ` ${missing} ${missing === 1 ? 'answer' : 'answers'} without X-RateLimit-Remaining ${missing === 1 ? 'is' : 'are'} not on the line.`
      : '';
  return html`<p id="rate-limit-caption">${parts.join('; ')}.${unplotted}</p>`;
}

/** X-RateLimit-Limit as steps: it holds until an answer says otherwise. */
function limitLine(points: RateLimitPoint[], x: (p: RateLimitPoint) => number, y: (v: number) => number): Markup {
  const limited = points.filter((p) => p.limit !== undefined);
  if (limited.length === 0) return html``;
  let path = `M${x(limited[0]!)} ${y(limited[0]!.limit!)}`;
  limited.forEach((p, i) => {
    if (i > 0 && p.limit !== limited[i - 1]!.limit) path += ` H${x(p)} V${y(p.limit!)}`;
  });
  return html`<path class="limit" d="${path} H${x(limited.at(-1)!)}"/>`;
}

/** Round steps (1, 2, 2.5 or 5 times a power of ten) from 0 to at least `max`, about five of them. */
export function ticks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough)!;
  const count = Math.max(1, Math.ceil(max / step - 1e-9));
  return Array.from({ length: count + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

const round = (value: number) => Math.round(value * 10) / 10;
const label = (value: number) => String(Number(value.toPrecision(6)));
