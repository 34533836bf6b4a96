// The parameters of a token request as the endpoint will read them (form-encoded or JSON body, and
// HTTP Basic client credentials), for a fault that decides something from them before the endpoint
// runs. Parameters sent twice, and bodies that do not parse, give what they give: the endpoint
// refuses those itself.
import type { Exchange } from '../../../../exchange.ts';
import { isFormMediaType, isJsonMediaType } from '../../../../stages/json-body.ts';

export type TokenFields = Record<string, string>;

/** The names the endpoint reads; anything else in a request is a parameter it does not know. */
export const TOKEN_PARAMETER_NAMES: readonly string[] = [
  'grant_type',
  'client_id',
  'client_secret',
  'client_assertion',
  'client_assertion_type',
  'audience',
  'scope',
];

/** Every parameter of the body, by name (a repeated one by its first value), strings only. */
export function tokenBodyFields(exchange: Exchange): TokenFields {
  const text = exchange.body.toString('utf8');
  const contentType = exchange.headers['content-type'];
  if (isFormMediaType(contentType)) {
    const form = new URLSearchParams(text);
    return Object.fromEntries([...new Set(form.keys())].map((name) => [name, form.get(name)!]));
  }
  if (isJsonMediaType(contentType)) {
    try {
      const value: unknown = JSON.parse(text);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
      return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    } catch {
      return {};
    }
  }
  return {};
}

/** The client id and secret the request authenticates with: HTTP Basic, else the body's. */
export function clientCredentialsOf(exchange: Exchange): { clientId?: string; clientSecret?: string } {
  const basic = /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(exchange.headers.authorization ?? '')?.[1];
  if (basic !== undefined) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
  }
  const fields = tokenBodyFields(exchange);
  return { clientId: fields.client_id, clientSecret: fields.client_secret };
}

function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
