// Reading a request body: JSON, or form-encoded where the service's API description lists that
// too (observed.request_bodies). An absent or empty body counts as {} (every ticket field is
// optional); another content type is refused with 415; bytes that are not UTF-8 JSON get the
// service's malformed-JSON answer.
//
// The form parser is flat, like the service's framework: each field is a string and a repeated
// field a list of strings (the validator then converts them to the schema's scalar types, see
// validators.ts); nested objects cannot be sent form-encoded.
import { observed } from '../../specs/index.ts';
import type { Components } from '../components.ts';
import type { Exchange } from '../exchange.ts';
import { refuse } from '../refusal.ts';
import { isFormMediaType, isJsonMediaType } from './json-body.ts';

export interface RequestBody {
  /** Form fields are strings until the validator converts them. */
  encoding: 'json' | 'form';
  value: unknown;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function readRequestBody(deps: Components, exchange: Exchange): RequestBody {
  const text = decodeUtf8(exchange.body);
  if (text !== undefined && text.trim() === '') return { encoding: 'json', value: {} };
  const contentType = exchange.headers['content-type'];
  if (observed.request_bodies.form_encoded.value && isFormMediaType(contentType)) {
    if (text === undefined) return refuse(deps, 'malformed_json');
    return { encoding: 'form', value: formFields(text) };
  }
  if (!isJsonMediaType(contentType)) refuse(deps, 'unsupported_media_type');
  if (text === undefined) refuse(deps, 'malformed_json');
  try {
    return { encoding: 'json', value: JSON.parse(text) };
  } catch {
    return refuse(deps, 'malformed_json');
  }
}

/** name=value pairs; a name given more than once becomes a list. Null-prototype, so "__proto__" is just a name. */
function formFields(text: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(text)) {
    const previous = fields[name];
    fields[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return fields;
}

function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
