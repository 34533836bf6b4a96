// Small readings of a request the round's faults share: the weight an Accept header gives a media
// type, and the fields of a ticket body, JSON or form-encoded.
import type { Exchange } from '../../../exchange.ts';
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';

type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The quality an Accept header gives `type` (RFC 9110 12.5.1): that of its most specific range,
 * 0 where none matches; an absent header accepts everything at 1.
 */
export function qualityOf(accept: string | undefined, type: string): number {
  if (accept === undefined) return 1;
  const [major] = type.split('/');
  let best = { specificity: -1, q: 0 };
  for (const range of accept.split(',')) {
    const [name = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const specificity = name === type ? 2 : name === `${major}/*` ? 1 : name === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const q = parameters.find((p) => p.startsWith('q='));
    best = { specificity, q: q === undefined ? 1 : Number(q.slice(2)) || 0 };
  }
  return best.q;
}

/** The fields of a ticket body as the service's parser reads them (a leading BOM dropped); undefined when it does not parse. */
export function ticketFields(exchange: Exchange): Json | undefined {
  const text = exchange.body.toString('utf8').replace(/^\uFEFF/, '');
  const type = exchange.headers['content-type'];
  if (isFormMediaType(type)) return Object.fromEntries(new URLSearchParams(text));
  if (!isJsonMediaType(type)) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
