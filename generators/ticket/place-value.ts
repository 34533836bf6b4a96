// Puts a value at a field path inside a JSON value, copying what it changes. A name sets that
// property. "[]" as the last segment inserts the value into the array at an index picked by
// `position`; "[]" elsewhere goes into an existing item picked by `position`. A missing array is
// taken as empty; a missing object is an error, because inventing one could make it invalid.
import type { JsonObject } from '../../specs/index.ts';
import { ANY_ITEM, formatFieldPath } from './ticket-schema.ts';

export function placeValue(container: unknown, path: readonly string[], value: unknown, position: number): unknown {
  const [segment, ...rest] = path;
  if (segment === undefined) return value;
  if (segment === ANY_ITEM) {
    if (container !== undefined && !Array.isArray(container)) throw new Error(`not an array at ${formatFieldPath(path)}`);
    const items = [...((container as unknown[] | undefined) ?? [])];
    if (rest.length === 0) {
      items.splice(position % (items.length + 1), 0, value);
      return items;
    }
    if (items.length === 0) throw new Error(`no item to place a value in at ${formatFieldPath(path)}`);
    const at = position % items.length;
    items[at] = placeValue(items[at], rest, value, position);
    return items;
  }
  if (container === null || typeof container !== 'object' || Array.isArray(container)) {
    throw new Error(`not an object at ${formatFieldPath(path)}`);
  }
  const object: JsonObject = { ...(container as JsonObject) };
  object[segment] = placeValue(object[segment], rest, value, position);
  return object;
}
