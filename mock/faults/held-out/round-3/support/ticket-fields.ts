// Rewriting a JSON ticket request before ticket creation reads it, the way a lenient binder or a
// converter that runs before validation does: each fault changes one field's value and leaves the
// rest to the route's own checks. Bodies that are not JSON objects pass unchanged.
import type { FaultHooks } from '../../../../app.ts';
import { editJsonBody } from '../../../support/route-edits.ts';

export type Fields = Record<string, unknown>;

export function isObject(value: unknown): value is Fields {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function without(fields: Fields, name: string): Fields {
  const { [name]: _dropped, ...rest } = fields;
  return rest;
}

/** `edit` returns the body unchanged (the same object) where it does not apply. */
export function editTicketFields(app: FaultHooks, edit: (body: Fields) => Fields): void {
  editJsonBody(app, 'sso-ticket', (value) => (isObject(value) ? edit(value) : value));
}

/** Edits the nested object `name` of the body when it is an object. */
export function editNested(body: Fields, name: string, edit: (nested: Fields) => Fields): Fields {
  const nested = body[name];
  if (!isObject(nested)) return body;
  const edited = edit(nested);
  return edited === nested ? body : { ...body, [name]: edited };
}
