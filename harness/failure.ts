// How a failed conformance check reads: the clause, what was expected, what came back, enough of
// the response to understand it without rerunning, and a curl line that replays the request.
import { clause as clauseEntry, hasClause } from '../specs/index.ts';
import { toCurl } from './curl.ts';
import type { Exchange } from './http.ts';
import { redactor } from './redact.ts';

export interface ClauseCheck {
  clause: string;
  pass: boolean;
  expected: string;
  actual: string;
  exchange?: Exchange;
  /** Response headers worth showing for this check (names in lower case). */
  headers?: string[];
}

const EXCERPT_CHARS = 300;
/**
 * The most a value, an expected or an actual line of a failure keeps: a failure is kept for the
 * whole run and written to every report, so what a target sent is never kept whole.
 */
const LINE_CHARS = 1_000;

/** The body's beginning on one line; `length` is the whole body's, where `text` is only its beginning. */
export function excerpt(text: string, length = text.length): string {
  const head = text.slice(0, 4 * EXCERPT_CHARS);
  const flat = head.replace(/\s+/g, ' ').trim();
  const whole = length === head.length;
  if (whole && flat.length === 0) return '(empty body)';
  return flat.length > EXCERPT_CHARS || !whole ? `${flat.slice(0, EXCERPT_CHARS)}… (${length} chars)` : flat;
}

/** A line of a failure, on one line and capped. */
function capped(line: string): string {
  const flat = line.replace(/[\r\n]+/g, ' ');
  return flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS)}… (${line.length} chars)` : flat;
}

/**
 * How a value of the target reads in a message: JSON, capped, with undefined said as absent. A
 * value nested too deep for JSON.stringify (a target can send a megabyte of nested arrays) is
 * said to be so, rather than crashing the check that shows it.
 */
export function shownValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  let text: string;
  try {
    // JSON.stringify answers undefined only for functions and symbols, which String names well.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    text = JSON.stringify(value) ?? String(value);
  } catch {
    return `(${Array.isArray(value) ? 'an array' : 'a value'} nested too deep to show)`;
  }
  return capped(text);
}

export function describeCheck(check: ClauseCheck): string {
  const summary = hasClause(check.clause) ? clauseEntry(check.clause).summary : '(clause not in the registry)';
  const section = hasClause(check.clause) ? clauseEntry(check.clause).section : '?';
  const lines = [
    `[§${section} ${check.clause}] ${summary}`,
    `  expected: ${capped(check.expected)}`,
    `  actual:   ${capped(check.actual)}`,
  ];
  const exchange = check.exchange;
  if (exchange) {
    const contentType = exchange.headers['content-type'] ?? 'no content type';
    lines.push(`  response: ${exchange.status} ${capped(contentType)} ${excerpt(exchange.text, exchange.bodyLength)}`);
    const shown = (check.headers ?? []).map((name) => `${name}: ${exchange.headers[name] ?? '(absent)'}`);
    if (shown.length > 0) lines.push(`  headers:  ${capped(shown.join('; '))}`);
    lines.push(`  request:  ${exchange.request.method} ${exchange.request.url}`);
    lines.push(`  replay:   ${toCurl(exchange.request)}`);
    const hint = customDomainHint(check.clause, exchange);
    if (hint) lines.push(`  hint:     ${hint}`);
  }
  return redactor.redact(lines.join('\n'));
}

/**
 * A target that reads the custom domain from another header than the one sent ignores it, and
 * its custom-domain clauses then fail as if it broke them: the real service reads
 * auth0-custom-domain, where the spec says tenant-custom-domain.
 */
function customDomainHint(clause: string, exchange: Exchange): string | undefined {
  if (!clause.includes('custom-domain')) return undefined;
  const sent = Object.keys(exchange.request.headers).find((name) => name.toLowerCase().endsWith('custom-domain'));
  if (sent === undefined) return undefined;
  return `the request sent the custom domain in ${sent}; a target that reads it from another header ignores it (the real service reads auth0-custom-domain): custom_domain_header in the target file names the header to send`;
}
