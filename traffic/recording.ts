// Reads recordings: HAR 1.2 files (a browser's or a proxy's export) and NDJSON files of recorded
// exchanges (harness/exchange-record.ts; the README documents the fields). A file that is neither,
// or an entry that lacks what a judge needs, is a RecordingError naming the file and the place.
// Tokens a raw recording carries are decoded here (no signature check), and raw client secrets
// digested, so that a raw and a redacted recording are judged alike.
import { readFileSync } from 'node:fs';
import {
  bearerTokenOf,
  bodyFields,
  decodeToken,
  issuedTokenOf,
  SecretDigester,
  type RecordedExchange,
} from '../harness/exchange-record.ts';
import { REDACTED } from '../harness/redact.ts';

export class RecordingError extends Error {
  override name = 'RecordingError';
}

/** An exchange of a recording and where it is: the file, and its position there (from 1). */
export interface Recorded {
  file: string;
  position: number;
  exchange: RecordedExchange;
}

export function readRecording(file: string): Recorded[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new RecordingError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const digester = new SecretDigester();
  const har = harOf(file, text);
  const exchanges = har ? fromHar(file, har) : fromNdjson(file, text);
  return exchanges.map((exchange, i) => ({ file, position: i + 1, exchange: completed(exchange, digester) }));
}

/**
 * A HAR file is one JSON document holding "log"; an NDJSON file is a JSON object a line. A whole
 * document that parses and is not one line is HAR or nothing.
 */
function harOf(file: string, text: string): { log?: { entries?: HarEntry[] } } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const isObject = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
  if (isObject && 'log' in (parsed as object)) return parsed as { log?: { entries?: HarEntry[] } };
  if (isObject && text.trim().split('\n').length === 1) return undefined;
  throw new RecordingError(`${file} is JSON but not HAR 1.2: it has no log.entries list`);
}

interface HarHeader {
  name: string;
  value: string;
}

interface HarEntry {
  startedDateTime?: string;
  time?: number;
  request?: {
    method?: string;
    url?: string;
    headers?: HarHeader[];
    postData?: { mimeType?: string; text?: string; params?: Array<{ name: string; value?: string }> };
  };
  response?: { status?: number; headers?: HarHeader[]; content?: { text?: string; encoding?: string } };
  _tokens?: RecordedExchange['tokens'];
  _digests?: RecordedExchange['digests'];
  _sender?: RecordedExchange['sender'];
}

function fromHar(file: string, parsed: { log?: { entries?: HarEntry[] } }): RecordedExchange[] {
  const entries = parsed.log?.entries;
  if (!Array.isArray(entries)) throw new RecordingError(`${file} is JSON but not HAR 1.2: it has no log.entries list`);
  return entries.map((entry, i) => {
    const where = `${file}: log.entries[${i}]`;
    const request = entry.request;
    const response = entry.response;
    if (!request?.method || !request.url) throw new RecordingError(`${where} has no request method or url`);
    if (typeof response?.status !== 'number') throw new RecordingError(`${where} has no response status`);
    const requestHeaders = harHeaders(request.headers);
    const body = request.postData?.text ?? formOf(request.postData?.params);
    const content = response.content;
    const responseBody =
      content?.text === undefined
        ? undefined
        : content.encoding === 'base64'
          ? Buffer.from(content.text, 'base64').toString('utf8')
          : content.text;
    return {
      startedAt: entry.startedDateTime ?? new Date(0).toISOString(),
      ...(typeof entry.time === 'number' ? { durationMs: entry.time } : {}),
      request: { method: request.method.toUpperCase(), url: request.url, headers: requestHeaders, ...(body !== undefined ? { body } : {}) },
      response: {
        status: response.status,
        headers: harHeaders(response.headers),
        ...(responseBody !== undefined ? { body: responseBody } : {}),
      },
      ...(entry._tokens ? { tokens: entry._tokens } : {}),
      ...(entry._digests ? { digests: entry._digests } : {}),
      ...(entry._sender ? { sender: entry._sender } : {}),
    };
  });
}

/** HAR lists headers; HTTP/2 exports add pseudo-headers (":authority"), which are not headers. */
function harHeaders(list: HarHeader[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { name, value } of list ?? []) {
    if (name.startsWith(':')) continue;
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  return headers;
}

function formOf(params: Array<{ name: string; value?: string }> | undefined): string | undefined {
  return params ? new URLSearchParams(params.map((p): [string, string] => [p.name, p.value ?? ''])).toString() : undefined;
}

function fromNdjson(file: string, text: string): RecordedExchange[] {
  const exchanges: RecordedExchange[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${file} line ${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new RecordingError(`${where} is not JSON (${(error as Error).message}); a recording is HAR 1.2 or NDJSON of exchanges`);
    }
    exchanges.push(checkedExchange(value, where));
  });
  return exchanges;
}

/** The fields a judge cannot do without; the README lists them all. */
function checkedExchange(value: unknown, where: string): RecordedExchange {
  const e = value as Partial<RecordedExchange>;
  const problems = [
    typeof e.request?.method !== 'string' ? 'request.method (a string)' : '',
    typeof e.request?.url !== 'string' ? 'request.url (a string)' : '',
    typeof e.response?.status !== 'number' ? 'response.status (a number)' : '',
    e.request?.headers !== undefined && typeof e.request.headers !== 'object' ? 'request.headers (an object)' : '',
    e.response?.headers !== undefined && typeof e.response.headers !== 'object' ? 'response.headers (an object)' : '',
  ].filter(Boolean);
  if (problems.length > 0) throw new RecordingError(`${where} lacks ${problems.join(', ')}`);
  return {
    ...e,
    startedAt: typeof e.startedAt === 'string' ? e.startedAt : new Date(0).toISOString(),
    request: { ...e.request!, method: e.request!.method.toUpperCase(), headers: lowerCased(e.request!.headers ?? {}) },
    response: { ...e.response!, headers: lowerCased(e.response!.headers ?? {}) },
  };
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), String(value)]));
}

/** A raw recording's tokens decoded and secrets digested; a redacted one keeps what it recorded. */
function completed(exchange: RecordedExchange, digester: SecretDigester): RecordedExchange {
  const sent = exchange.tokens?.sent ?? decodeToken(bearerTokenOf(exchange.request.headers), digester);
  const issued = exchange.tokens?.issued ?? decodeToken(issuedTokenOf(exchange.response.body), digester);
  const secret = bodyFields(exchange.request.headers, exchange.request.body)?.client_secret;
  const clientSecret = exchange.digests?.clientSecret ?? (secret && secret !== REDACTED ? digester.digest(secret) : undefined);
  return {
    ...exchange,
    ...(sent || issued || exchange.tokens
      ? { tokens: { ...exchange.tokens, ...(sent ? { sent } : {}), ...(issued ? { issued } : {}) } }
      : {}),
    ...(clientSecret ? { digests: { clientSecret } } : {}),
  };
}
