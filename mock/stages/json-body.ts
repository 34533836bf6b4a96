// Reading a JSON request body. An absent or empty body counts as {} (every ticket field is
// optional); a body sent with another content type is refused with 415; bytes that are not UTF-8
// JSON are refused with 400 invalid_body.
import type { Components } from '../components.ts';
import type { Exchange } from '../exchange.ts';
import { refuse } from '../refusal.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function readJsonBody(deps: Components, exchange: Exchange): unknown {
  const text = decodeUtf8(exchange.body);
  if (text !== undefined && text.trim() === '') return {};
  if (!isJsonMediaType(exchange.headers['content-type'])) refuse(deps, 'unsupported_media_type');
  if (text === undefined) refuse(deps, 'invalid_body', "'The body is not valid UTF-8'");
  try {
    return JSON.parse(text);
  } catch {
    return refuse(deps, 'invalid_body', "'The body is not valid JSON'");
  }
}

/** application/json, or a +json type, with any parameters. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json' || (type !== undefined && /^application\/[a-z0-9.+-]+\+json$/.test(type));
}

function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
