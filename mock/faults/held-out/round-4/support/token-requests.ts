// Reading and rewriting a token request the way a fault's front end does: the client's HTTP Basic
// credentials (decoded as the endpoint decodes them, or written back), and parameters set in the
// body whatever its encoding (form or JSON). A body that does not parse is left for the endpoint.
import type { Exchange } from '../../../../exchange.ts';
import { isFormMediaType, isJsonMediaType } from '../../../../stages/json-body.ts';

export interface BasicCredentials {
  clientId: string;
  clientSecret: string;
}

/** Basic credentials are form-encoded before base64 (RFC 6749 section 2.3.1); undefined when not decodable. */
export function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** The Basic credentials of an Authorization value, decoded once as the endpoint decodes them. */
export function basicCredentialsOf(authorization: string | undefined): BasicCredentials | undefined {
  const encoded = /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(authorization ?? '')?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  const clientId = formDecode(decoded.slice(0, colon));
  const clientSecret = formDecode(decoded.slice(colon + 1));
  return clientId && clientSecret !== undefined ? { clientId, clientSecret } : undefined;
}

/** An Authorization value for Basic credentials, each form-encoded first. */
export function basicAuthorization({ clientId, clientSecret }: BasicCredentials): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`, 'utf8').toString('base64')}`;
}

/** The request's body with these parameters set (form-encoded or JSON); other bodies unchanged. */
export function withTokenParameters(exchange: Exchange, parameters: Record<string, string>): Exchange {
  const contentType = exchange.headers['content-type'];
  const text = exchange.body.toString('utf8');
  if (isFormMediaType(contentType)) {
    const form = new URLSearchParams(text);
    for (const [name, value] of Object.entries(parameters)) form.set(name, value);
    return { ...exchange, body: Buffer.from(form.toString(), 'utf8') };
  }
  if (isJsonMediaType(contentType)) {
    const fields = jsonObject(text);
    return fields ? { ...exchange, body: Buffer.from(JSON.stringify({ ...fields, ...parameters }), 'utf8') } : exchange;
  }
  return exchange;
}

/** The JSON object a text holds; undefined for anything else. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
