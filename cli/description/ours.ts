// The three operations as specs/ states them, at one level: the contract (what the spec states)
// or the observed level (x-observed blocks merged, and observed.yaml's statuses, scopes, refusal
// causes, header name and body encodings), viewed as the service's description is (view.ts).
import {
  observed,
  openapi,
  operation,
  resolvePointer,
  statements,
  toJsonSchema,
  type JsonObject,
  type Level,
  type OperationKey,
} from '../../specs/index.ts';
import { normalisedSchema, type OperationView, type Schema } from './view.ts';

/**
 * The causes of refusal the spec states (the rows of its section 7, all of redelivery), by the
 * statement that states each: the contract's side of what the description lists per status.
 */
const STATED_CAUSES: Record<string, [status: string, cause: string]> = {
  's7.401.invalid-token': ['401', 'invalid_token'],
  's7.401.signature': ['401', 'invalid_signature'],
  's7.401.not-global': ['401', 'client_not_global'],
  's7.403': ['403', 'insufficient_scope'],
  's7.404.stream': ['404', 'stream_not_found'],
  's7.404.event': ['404', 'event_not_found'],
  's7.409': ['409', 'event_state'],
  's7.429': ['429', 'too_many_requests'],
};

function statedCauses(key: OperationKey): Record<string, string[]> {
  if (key !== 'redeliver') return {};
  const causes: Record<string, string[]> = {};
  for (const statement of statements.filter((s) => s.id.startsWith('s7.'))) {
    const [status, cause] = STATED_CAUSES[statement.id] ?? [];
    if (status && cause) causes[status] = [...(causes[status] ?? []), cause].sort();
  }
  return causes;
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

export function ourView(key: OperationKey, level: Level): OperationView {
  const spec = operation(key);
  const raw = (openapi.paths as Record<string, Record<string, JsonObject>>)[spec.pathTemplate]![spec.method.toLowerCase()]!;
  const facts = observed.operations[key];
  const schemaOf = (node: unknown): Schema => normalisedSchema(toJsonSchema(node, level), resolvePointer);
  const parameters: OperationView['parameters'] = {};
  for (const p of spec.parameters) {
    if (p.name.toLowerCase() === 'authorization') continue;
    const name = p.in === 'header' && level === 'observed' ? observed.custom_domain_header.value : p.name;
    parameters[`${p.in} ${name}`] = { required: p.required, schema: schemaOf(p.schema) };
  }
  const responses = raw.responses as Record<string, JsonObject>;
  const contractSuccess = Object.keys(responses).find((s) => s.startsWith('2'))!;
  const successSchema = (responses[contractSuccess]!.content as Record<string, JsonObject> | undefined)?.[JSON_TYPE]?.schema;
  const successStatus = level === 'contract' ? contractSuccess : String(facts.success.status);
  const lifecycleOf = (node: unknown) => (node as JsonObject | undefined)?.['x-lifecycle'];
  const contractLifecycle = typeof raw['x-lifecycle'] === 'string' ? raw['x-lifecycle'] : undefined;
  const lifecycle = level === 'observed' ? (facts.lifecycle?.value ?? contractLifecycle) : contractLifecycle;
  const body = spec.requestBodyRef ? (resolvePointer(spec.requestBodyRef) as JsonObject) : undefined;
  const observedFields = level === 'observed' ? (((body?.['x-observed'] as JsonObject | undefined)?.properties ?? {}) as JsonObject) : {};
  const fieldLifecycles = Object.fromEntries(
    Object.entries({ ...((body?.properties ?? {}) as JsonObject), ...observedFields } as Record<string, JsonObject>).flatMap(
      ([name, field]) => {
        const mark = lifecycleOf(field) ?? lifecycleOf(field.$ref ? resolvePointer(field.$ref as string) : undefined);
        return typeof mark === 'string' ? [[name, mark]] : [];
      },
    ),
  );
  return {
    parameters,
    ...(spec.requestBodyRef
      ? {
          body: {
            contentTypes: level === 'observed' && observed.request_bodies.form_encoded.value ? [JSON_TYPE, FORM] : [JSON_TYPE],
            schema: schemaOf({ $ref: spec.requestBodyRef }),
          },
        }
      : {}),
    success: { status: successStatus, ...(successSchema !== undefined ? { schema: schemaOf(successSchema) } : {}) },
    statuses: level === 'contract' ? Object.keys(responses).sort() : [successStatus, ...facts.failure_statuses.map(String)].sort(),
    scopes: level === 'contract' ? [...spec.contractScopes] : [facts.scope.value],
    causes:
      level === 'contract'
        ? statedCauses(key)
        : Object.fromEntries(Object.entries(facts.refusals.value).map(([status, causes]) => [status, [...causes].sort()])),
    ...(lifecycle !== undefined ? { lifecycle } : {}),
    fieldLifecycles,
  };
}
