// Turns an ajv error into the wording the real service uses in its validation errors
// ("String is too short (25 chars), minimum 26"), naming the property it is about.
import type { ErrorObject } from 'ajv';

export interface ValidationProblem {
  /** "String is too short (25 chars), minimum 26" */
  text: string;
  /** Where inside the validated value: "" for the value itself, "enabled_organizations[0].organization_id". */
  path: string;
}

/** The first ajv error of a validation, worded as the real service words it. */
export function validationProblem(errors: ErrorObject[] | null | undefined, root: unknown): ValidationProblem {
  const error = errors?.[0];
  if (!error) return { text: 'Invalid value', path: '' };
  return { text: problemText(error, valueAt(root, error.instancePath)), path: readablePath(error.instancePath) };
}

function problemText(error: ErrorObject, value: unknown): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `Expected type ${String(p.type)} but found type ${jsonTypeOf(value)}`;
    case 'minLength':
      return `String is too short (${lengthOf(value)} chars), minimum ${String(p.limit)}`;
    case 'maxLength':
      return `String is too long (${lengthOf(value)} chars), maximum ${String(p.limit)}`;
    case 'pattern':
      return `String does not match pattern ${String(p.pattern)}`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `Value ${String(value)} is less than ${error.keyword === 'minimum' ? 'minimum' : 'exclusive minimum'} ${String(p.limit)}`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `Value ${String(value)} is greater than ${error.keyword === 'maximum' ? 'maximum' : 'exclusive maximum'} ${String(p.limit)}`;
    case 'additionalProperties':
      return `Additional properties not allowed: ${String(p.additionalProperty)}`;
    case 'required':
      return `Missing required property: ${String(p.missingProperty)}`;
    case 'enum':
      return `No enum match for: ${JSON.stringify(value)}`;
    case 'minItems':
      return `Array is too short (${Array.isArray(value) ? value.length : 0}), minimum ${String(p.limit)}`;
    case 'maxItems':
      return `Array is too long (${Array.isArray(value) ? value.length : 0}), maximum ${String(p.limit)}`;
    case 'format':
      return `Object didn't pass validation for format ${String(p.format)}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;
    default:
      return error.message ?? `Invalid value (${error.keyword})`;
  }
}

/** JSON Schema's view of a value's type: an integer-valued number is an integer. */
function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Length in code points, as JSON Schema counts it. */
function lengthOf(value: unknown): number {
  return typeof value === 'string' ? [...value].length : 0;
}

function pointerParts(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const part of pointerParts(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** /enabled_organizations/0/organization_id -> enabled_organizations[0].organization_id */
function readablePath(pointer: string): string {
  return pointerParts(pointer)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
}
