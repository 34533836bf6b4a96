// Two runs' exchanges side by side: each exchange paired with the one the other run sent for the
// same reason (the same test or shared request, the same method and path, the same occurrence),
// and their observed facts compared after what always differs between runs is normalised away:
// ids of tokens and tickets, times, loopback ports, rate-limit numbers. What is left to differ is
// what a target does differently: the status, the error text, the fields of the body and their
// types, the headers.
import { readFileSync } from 'node:fs';
import type { RecordedExchange } from '../../harness/runner.ts';
import { observed } from '../../specs/index.ts';

export interface Facts {
  status: number;
  /** message, error and errorCode of an error body, normalised. */
  text: Record<string, string>;
  /** Key paths of a JSON body with the type of each value: "ticket: string". */
  fields: string[];
  /** Headers that say something: their normalised values; the rate-limit ones only as present. */
  headers: Record<string, string>;
}

export interface ExchangeDifference {
  key: string;
  /** The request, as "POST /api/v2/... (sent by <test>)". */
  request: string;
  facts: Array<{ fact: string; a: string; b: string }>;
}

export interface ExchangeComparison {
  paired: number;
  same: number;
  differing: ExchangeDifference[];
  onlyA: string[];
  onlyB: string[];
}

/** Headers that differ between any two answers (their time, their framing). */
const VOLATILE = new Set(['date', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'etag', 'x-request-id']);
const RATE_LIMIT = new Set(Object.values(observed.rate_limit.headers).map((name) => name.toLowerCase()));

/** What always differs between two runs, whatever the target: normalised away. */
export function normalised(text: string): string {
  return text
    .replace(/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g, '<token>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/https?:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+/g, '<loopback>')
    .replace(/([?&]ticket=)[^&\s"'<>\\]+/g, '$1<code>')
    .replace(/hmac-sha256:[A-Za-z0-9_-]+/g, '<digest>');
}

export function factsOf(exchange: RecordedExchange): Facts {
  const { response } = exchange;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (VOLATILE.has(name)) continue;
    headers[name] = RATE_LIMIT.has(name) ? 'present' : normalised(value);
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body ?? '');
  } catch {
    body = undefined;
  }
  const text: Record<string, string> = {};
  if (response.status >= 400 && body !== null && typeof body === 'object') {
    for (const key of ['message', 'error', 'errorCode', 'error_description']) {
      const value = (body as Record<string, unknown>)[key];
      if (value !== undefined) text[key] = normalised(typeof value === 'string' ? value : JSON.stringify(value));
    }
  }
  return { status: response.status, text, fields: fieldsOf(body, ''), headers };
}

function fieldsOf(value: unknown, at: string): string[] {
  if (Array.isArray(value)) return [`${at || '(body)'}: array`, ...value.flatMap((item) => fieldsOf(item, `${at}[]`)).filter(unique())];
  if (value === null || typeof value !== 'object') return at === '' ? [] : [`${at}: ${value === null ? 'null' : typeof value}`];
  return Object.entries(value)
    .flatMap(([key, inner]) => fieldsOf(inner, at ? `${at}.${key}` : key))
    .sort();
}

function unique(): (item: string) => boolean {
  const seen = new Set<string>();
  return (item) => !seen.has(item) && Boolean(seen.add(item));
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/**
 * The exchanges of a recording by pairing key: sender, method, normalised path, the client whose
 * token it carried (none, where it carried no token), occurrence. The client tells apart the
 * requests a test sends at the same moment, which a recording holds in the order they were answered.
 */
function keyed(file: string): Map<string, { request: string; facts: Facts }> {
  const byKey = new Map<string, { request: string; facts: Facts }>();
  const occurrences = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const exchange = JSON.parse(line) as RecordedExchange;
    const sender = exchange.sender?.test ?? exchange.sender?.shared ?? '';
    const what = `${exchange.request.method} ${normalised(pathOf(exchange.request.url))}`;
    const claims = exchange.tokens?.sent?.claims;
    const named = claims?.azp ?? claims?.sub;
    const client = claims === undefined ? 'no token' : typeof named === 'string' ? named : 'a token';
    const base = `${sender}\n${what}\n${client}`;
    const n = (occurrences.get(base) ?? 0) + 1;
    occurrences.set(base, n);
    byKey.set(`${base}\n${n}`, {
      request: `${what}${sender ? ` (sent by ${sender})` : ''}${n > 1 ? ` #${n}` : ''}`,
      facts: factsOf(exchange),
    });
  }
  return byKey;
}

export function compareExchanges(fileA: string, fileB: string): ExchangeComparison {
  const a = keyed(fileA);
  const b = keyed(fileB);
  const differing: ExchangeDifference[] = [];
  let paired = 0;
  for (const [key, left] of a) {
    const right = b.get(key);
    if (!right) continue;
    paired += 1;
    const facts = factDifferences(left.facts, right.facts);
    if (facts.length > 0) differing.push({ key, request: left.request, facts });
  }
  return {
    paired,
    same: paired - differing.length,
    differing,
    onlyA: [...a].filter(([key]) => !b.has(key)).map(([, v]) => v.request),
    onlyB: [...b].filter(([key]) => !a.has(key)).map(([, v]) => v.request),
  };
}

function factDifferences(a: Facts, b: Facts): ExchangeDifference['facts'] {
  const out: ExchangeDifference['facts'] = [];
  if (a.status !== b.status) out.push({ fact: 'status', a: String(a.status), b: String(b.status) });
  for (const key of new Set([...Object.keys(a.text), ...Object.keys(b.text)])) {
    if (a.text[key] !== b.text[key]) out.push({ fact: key, a: a.text[key] ?? '(none)', b: b.text[key] ?? '(none)' });
  }
  const onlyA = a.fields.filter((f) => !b.fields.includes(f));
  const onlyB = b.fields.filter((f) => !a.fields.includes(f));
  if (onlyA.length + onlyB.length > 0)
    out.push({ fact: 'fields', a: onlyA.join(', ') || '(none besides)', b: onlyB.join(', ') || '(none besides)' });
  for (const name of new Set([...Object.keys(a.headers), ...Object.keys(b.headers)])) {
    if (a.headers[name] !== b.headers[name])
      out.push({ fact: `header ${name}`, a: a.headers[name] ?? '(absent)', b: b.headers[name] ?? '(absent)' });
  }
  return out;
}
