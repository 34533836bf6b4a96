// The service's published API description (a file the user gives; the project does not ship it):
// read as JSON or YAML, and the three operations found in it by method and path (the paths and
// methods of specs/openapi.yaml), each viewed as view.ts compares them.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { operation, operationKeys, type OperationKey } from '../../specs/index.ts';
import { causeOf } from './causes.ts';
import { LIFECYCLES, normalisedSchema, type OperationView, type Schema } from './view.ts';

export class DescriptionError extends Error {
  override name = 'DescriptionError';
}

export interface Description {
  file: string;
  title: string;
  version: string;
  operations: Partial<Record<OperationKey, OperationView>>;
  /** The client-credentials scheme: its token URL and the audience it names. */
  tokenEndpoint: { tokenUrl?: string; audience?: string };
}

export function readDescription(file: string): Description {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new DescriptionError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let doc: Schema;
  try {
    doc = (text.trimStart().startsWith('{') ? JSON.parse(text) : parse(text)) as Schema;
  } catch (error) {
    throw new DescriptionError(`${file} is neither JSON nor YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (doc === null || typeof doc !== 'object' || typeof doc.paths !== 'object' || doc.paths === null) {
    throw new DescriptionError(`${file} is not an OpenAPI description: it has no paths`);
  }
  const resolve = (ref: string) => pointer(doc, ref, file);
  const paths = doc.paths as Record<string, Record<string, Schema>>;
  const operations: Description['operations'] = {};
  for (const key of operationKeys) {
    const spec = operation(key);
    const found = paths[spec.pathTemplate]?.[spec.method.toLowerCase()];
    if (found) operations[key] = viewOf(found, resolve);
  }
  if (Object.keys(operations).length === 0) {
    throw new DescriptionError(
      `${file} describes none of the three operations (${operationKeys.map((k) => `${operation(k).method} ${operation(k).pathTemplate}`).join(', ')})`,
    );
  }
  const info = (doc.info ?? {}) as Schema;
  const flows = (
    ((doc.components as Schema | undefined)?.securitySchemes as Schema | undefined)?.oAuth2ClientCredentials as Schema | undefined
  )?.flows as Schema | undefined;
  const clientCredentials = (flows?.clientCredentials ?? {}) as Schema;
  const form = (clientCredentials['x-form-parameters'] ?? {}) as Schema;
  return {
    file,
    title: typeof info.title === 'string' ? info.title : '(untitled)',
    version: typeof info.version === 'string' ? info.version : '(no version)',
    operations,
    tokenEndpoint: {
      ...(typeof clientCredentials.tokenUrl === 'string' ? { tokenUrl: clientCredentials.tokenUrl } : {}),
      ...(typeof form.audience === 'string' ? { audience: form.audience } : {}),
    },
  };
}

function pointer(doc: Schema, ref: string, file: string): unknown {
  if (!ref.startsWith('#/')) throw new DescriptionError(`${file}: only local references are read, not ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node !== null && typeof node === 'object' ? (node as Schema)[key] : undefined;
    if (node === undefined) throw new DescriptionError(`${file}: the reference ${ref} does not resolve`);
  }
  return node;
}

function viewOf(op: Schema, resolve: (ref: string) => unknown): OperationView {
  const parameters: OperationView['parameters'] = {};
  for (const raw of (op.parameters as unknown[] | undefined) ?? []) {
    const p = normalisedParameter(raw, resolve);
    if (p.name.toLowerCase() !== 'authorization') parameters[`${p.in} ${p.name}`] = { required: p.required, schema: p.schema };
  }
  const content = ((op.requestBody as Schema | undefined)?.content ?? {}) as Record<string, Schema>;
  const responses = (op.responses ?? {}) as Record<string, Schema>;
  const successStatus = Object.keys(responses).find((s) => s.startsWith('2'));
  const successSchema = successStatus
    ? (responses[successStatus]!.content as Record<string, Schema> | undefined)?.['application/json']?.schema
    : undefined;
  const causes: OperationView['causes'] = {};
  for (const [status, response] of Object.entries(responses)) {
    if (status.startsWith('2')) continue;
    const wordings = Object.entries(response)
      .filter(([key]) => key === 'description' || /^x-description-\d+$/.test(key))
      .map(([, value]) => String(value));
    causes[status] = [...new Set(wordings.map(causeOf))].sort();
  }
  const scopes = ((op.security as Array<Record<string, string[]>> | undefined) ?? []).flatMap((s) => s.oAuth2ClientCredentials ?? []);
  const bodySchema = content['application/json']?.schema;
  const rawBody =
    bodySchema === undefined
      ? undefined
      : ((typeof (bodySchema as Schema).$ref === 'string' ? resolve((bodySchema as Schema).$ref as string) : bodySchema) as Schema);
  const fieldLifecycles = Object.fromEntries(
    Object.entries((rawBody?.properties ?? {}) as Record<string, Schema>).flatMap(([name, field]) =>
      typeof field['x-release-lifecycle'] === 'string'
        ? [[name, LIFECYCLES[field['x-release-lifecycle']] ?? field['x-release-lifecycle']]]
        : [],
    ),
  );
  const lifecycle = op['x-release-lifecycle'];
  return {
    parameters,
    ...(bodySchema !== undefined
      ? { body: { contentTypes: Object.keys(content).sort(), schema: normalisedSchema(bodySchema, resolve) } }
      : {}),
    ...(successStatus
      ? { success: { status: successStatus, ...(successSchema !== undefined ? { schema: normalisedSchema(successSchema, resolve) } : {}) } }
      : {}),
    statuses: Object.keys(responses).sort(),
    scopes: [...new Set(scopes)].sort(),
    causes,
    ...(typeof lifecycle === 'string' ? { lifecycle: LIFECYCLES[lifecycle] ?? lifecycle } : {}),
    fieldLifecycles,
  };
}

function normalisedParameter(
  raw: unknown,
  resolve: (ref: string) => unknown,
): { name: string; in: string; required: boolean; schema: Schema } {
  const p = (typeof (raw as Schema).$ref === 'string' ? resolve((raw as Schema).$ref as string) : raw) as Schema;
  return { name: String(p.name), in: String(p.in), required: p.required === true, schema: normalisedSchema(p.schema, resolve) };
}
