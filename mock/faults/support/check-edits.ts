// Faults in input validation: a check of the validators component swapped for one compiled from an
// edited schema. The schemas start as the ones the mock validates with (observed level of specs/),
// so a fault changes exactly the rule it edits.
import type { ValidateFunction } from 'ajv';
import { createAjv, operation, schema, type JsonObject, type OperationKey } from '../../../specs/index.ts';
import type { FaultHooks } from '../../app.ts';
import type { Components } from '../../components.ts';
import { checksOf, compileFormBody } from '../../validators.ts';

/**
 * Without strict typing: a fault that forgets a field's type leaves keywords such as format or
 * minimum without one, which strict mode refuses to compile.
 */
const ajv = createAjv({ strictTypes: false });

export function compileCheck(node: JsonObject): ValidateFunction {
  return ajv.compile(node);
}

/** Swaps the check of a header (lower-case name) or path parameter of an operation. */
export function replaceParameterCheck(
  app: FaultHooks,
  key: OperationKey,
  where: 'path' | 'headers',
  name: string,
  make: (current: ValidateFunction, built: Readonly<Partial<Components>>) => ValidateFunction,
): void {
  app.override('validators', (validators, built) => {
    const checks = checksOf(validators, key)[where];
    const index = checks.findIndex((check) => check.name === name);
    if (index < 0) throw new Error(`operation ${key} has no ${where} check named ${name}`);
    checks[index] = { name, validate: make(checks[index]!.validate, built) };
    return validators;
  });
}

/**
 * Swaps an operation's body checks for ones compiled from its observed body schema after `edit`:
 * the JSON body's and the form-encoded body's (compiled as validators.ts compiles it), so that
 * the fault holds whichever encoding the request uses.
 */
export function editBodySchema(app: FaultHooks, key: OperationKey, edit: (body: JsonObject) => void): void {
  const ref = operation(key).requestBodyRef;
  if (!ref) throw new Error(`operation ${key} has no request body`);
  const body = schema(ref.split('/').pop()!, 'observed');
  edit(body);
  const validate = compileCheck(body);
  const validateForm = compileFormBody(body, { strictTypes: false });
  app.override('validators', (validators) => {
    checksOf(validators, key).body = validate;
    checksOf(validators, key).formBody = validateForm;
    return validators;
  });
}

/** The node of a field inside an object schema: "enabled_organizations.organization_id" walks into array items. */
export function fieldNode(root: JsonObject, field: string): JsonObject {
  let node = root;
  for (const name of field.split('.')) {
    if (node.type === 'array' || (node.items !== undefined && node.properties === undefined)) node = node.items as JsonObject;
    const next = (node.properties as Record<string, JsonObject> | undefined)?.[name];
    if (!next) throw new Error(`the schema has no field ${field}`);
    node = next;
  }
  return node;
}
