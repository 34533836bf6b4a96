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

export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length === 0) return '(empty body)';
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}… (${text.length} chars)` : flat;
}

export function describeCheck(check: ClauseCheck): string {
  const summary = hasClause(check.clause) ? clauseEntry(check.clause).summary : '(clause not in the registry)';
  const section = hasClause(check.clause) ? clauseEntry(check.clause).section : '?';
  const lines = [`[§${section} ${check.clause}] ${summary}`, `  expected: ${check.expected}`, `  actual:   ${check.actual}`];
  const exchange = check.exchange;
  if (exchange) {
    const contentType = exchange.headers['content-type'] ?? 'no content type';
    lines.push(`  response: ${exchange.status} ${contentType} ${excerpt(exchange.text)}`);
    const shown = (check.headers ?? []).map((name) => `${name}: ${exchange.headers[name] ?? '(absent)'}`);
    if (shown.length > 0) lines.push(`  headers:  ${shown.join('; ')}`);
    lines.push(`  request:  ${exchange.request.method} ${exchange.request.url}`);
    lines.push(`  replay:   ${toCurl(exchange.request)}`);
  }
  return redactor.redact(lines.join('\n'));
}
