// Talking to the mock in tests: undici requests, a parsed view of the answer, and tokens of the
// fixture clients obtained through the token endpoint as a real client would.
import { request } from 'undici';
import type { MockServer } from '../../index.ts';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
}

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
  /** A JSON value to send, or a string/Buffer sent as is. */
  body?: unknown;
}

export async function call(mock: MockServer, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers };
  let body: string | Buffer | undefined;
  if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await request(`${mock.url}${path}`, { method: method as 'GET', headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.body.text();
  return { status: response.statusCode, headers: flatten(response.headers), text, json: parse(text) };
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The credentials of a fixture client, by its name in the fixtures file. */
export function client(mock: MockServer, name: string): { client_id: string; client_secret: string } {
  const found = mock.fixtures.data.clients.find((c) => c.name === name);
  if (!found?.client_secret) throw new Error(`no fixture client named ${name} with a secret`);
  return { client_id: found.client_id, client_secret: found.client_secret };
}

/** A token request with the fixture client's credentials and the canonical audience, plus overrides. */
export function tokenRequest(mock: MockServer, name: string, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const fields: Record<string, string | undefined> = {
    grant_type: 'client_credentials',
    ...client(mock, name),
    audience: mock.audience,
    ...overrides,
  };
  return Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));
}

/** An access token of a fixture client, from the token endpoint. */
export async function tokenFor(mock: MockServer, name: string, scope?: string): Promise<string> {
  const answer = await call(mock, 'POST', '/oauth/token', { body: tokenRequest(mock, name, { scope }) });
  const token = (answer.json as { access_token?: string } | undefined)?.access_token;
  if (answer.status !== 200 || !token) throw new Error(`no token for ${name}: ${answer.status} ${answer.text}`);
  return token;
}
