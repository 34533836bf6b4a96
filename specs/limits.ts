// The limits of spec section 8, read from openapi.yaml at the places the clause registry names.
// Generators and tests take bounds from here; nothing retypes them.
import { clause, type LimitLocation } from './clauses.ts';
import { deref, operation, parameter, resolvePointer, type JsonObject } from './openapi.ts';

/**
 * A host name (RFC 1123 2.1): letters, digits and inner hyphens, in dot-separated labels, whatever
 * their length. The spec bounds the custom-domain header by length only; the mock refuses one that
 * is no host name (it becomes a ticket URL's host), and the traffic judge lets a target do so.
 */
export const HOST_NAME_PATTERN = '^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$';

export interface Bounds {
  kind: 'length' | 'value';
  min?: number;
  max?: number;
}

/** The OpenAPI schema node a limit location names (contract level, $ref resolved). */
export function schemaAt(location: LimitLocation): JsonObject {
  if (location.schema) {
    const owner = deref(resolvePointer(`#/components/schemas/${location.schema}`));
    if (!location.property) return owner;
    return deref((owner.properties as JsonObject)[location.property]);
  }
  if (location.operation && (location.in === 'path' || location.in === 'header')) {
    return parameter(location.operation, location.in, location.name!).schema;
  }
  if (location.operation && location.in === 'body') {
    const ref = operation(location.operation).requestBodyRef;
    if (!ref) throw new Error(`operation ${location.operation} has no request body`);
    const body = deref(resolvePointer(ref));
    return deref((body.properties as JsonObject)[location.property!]);
  }
  throw new Error(`cannot locate ${JSON.stringify(location)}`);
}

/** The bounds the OpenAPI document gives at a location. */
export function boundsAt(location: LimitLocation, kind: Bounds['kind']): Bounds {
  const node = schemaAt(location);
  const [minKey, maxKey] = kind === 'length' ? ['minLength', 'maxLength'] : ['minimum', 'maximum'];
  const bounds: Bounds = { kind };
  if (typeof node[minKey] === 'number') bounds.min = node[minKey];
  if (typeof node[maxKey] === 'number') bounds.max = node[maxKey];
  return bounds;
}

/** The bounds of a limit clause, read from the OpenAPI document. */
export function limit(clauseId: string): Bounds {
  const entry = clause(clauseId);
  if (!entry.limit) throw new Error(`clause ${clauseId} records no limit`);
  return boundsAt(entry.limit.location, entry.limit.kind);
}

/** Like limit(), for a clause whose limit has both ends. */
export function closedLimit(clauseId: string): Required<Bounds> {
  const bounds = limit(clauseId);
  if (bounds.min === undefined || bounds.max === undefined) {
    throw new Error(`limit ${clauseId} is open-ended: ${JSON.stringify(bounds)}`);
  }
  return bounds as Required<Bounds>;
}
