// The JSON Schema types, and the types a schema node's `type` keyword names.
import type { JsonObject } from '../../specs/index.ts';

export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

/** The types a node accepts by its `type` keyword; empty when the node has none (any type). */
export function typesOfNode(node: JsonObject): JsonType[] {
  const { type } = node;
  if (type === undefined) return [];
  return (Array.isArray(type) ? type : [type]) as JsonType[];
}
