// What a token request asks for, read off the exchange the way the endpoint reads it (a form or
// JSON body of string parameters; the client's id from the body or from HTTP Basic), for a fault
// that answers otherwise after the endpoint has answered. Nothing here refuses: a request it cannot
// read is left to the endpoint's own answer.
import type { Exchange } from '../../../../exchange.ts';
import { isFormMediaType, isJsonMediaType } from '../../../../stages/json-body.ts';

export type TokenParameters = Record<string, string>;

/** The request's string parameters (each given once), and the Basic user name as client_id where the body names none. */
export function tokenRequestOf(exchange: Exchange): TokenParameters {
  const params = bodyParameters(exchange);
  const basic = /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(exchange.headers.authorization ?? '')?.[1];
  const user = basic === undefined ? undefined : Buffer.from(basic, 'base64').toString('utf8').split(':')[0];
  return params.client_id === undefined && user ? { ...params, client_id: decodeURIComponent(user) } : params;
}

function bodyParameters(exchange: Exchange): TokenParameters {
  const contentType = exchange.headers['content-type'];
  const text = exchange.body.toString('utf8');
  if (isFormMediaType(contentType)) {
    const form = new URLSearchParams(text);
    return Object.fromEntries(
      [...new Set(form.keys())].filter((name) => form.getAll(name).length === 1).map((name) => [name, form.get(name)!]),
    );
  }
  if (!isJsonMediaType(contentType)) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}
