// The OpenAPI document and a typed view of its three operations.
import { readSpecFile } from './load.ts';

/**
 * The operations' keys: each operation card names its own (specs/cards/<key>.ts adds itself here
 * by declaration merging), so that an operation is added in its card, and the compiler then asks
 * for it wherever a table is keyed by the operation. Its `x-key` in openapi.yaml is the same
 * (specs/test/cards.test.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the cards
export interface OperationKeys {}
export type OperationKey = keyof OperationKeys;

export type JsonObject = { [key: string]: unknown };

export interface ParameterSpec {
  name: string;
  in: 'path' | 'header' | 'query';
  required: boolean;
  schema: JsonObject;
}

export interface OperationSpec {
  key: OperationKey;
  operationId: string;
  summary: string;
  method: 'GET' | 'POST';
  /** Path template relative to the base URL, e.g. /flows/vault/connections/{id}. */
  pathTemplate: string;
  parameters: ParameterSpec[];
  /** Scopes the spec requires (empty where the spec does not show them). */
  contractScopes: string[];
  requiresGlobalClient: boolean;
  /** JSON pointer of the request body schema, when the operation has a body. */
  requestBodyRef?: string;
  /** Whether the request body is required (OpenAPI requestBody.required). */
  requestBodyRequired?: boolean;
  /** Status codes of the document's responses, e.g. ['202', '401', ...] or ['2XX', '429']. */
  responseStatuses: string[];
}

export const openapi = readSpecFile('openapi.yaml') as JsonObject;

/** Follows a local "#/..." reference inside the OpenAPI document. */
export function resolvePointer(pointer: string): unknown {
  if (!pointer.startsWith('#/')) throw new Error(`only local references are supported: ${pointer}`);
  let node: unknown = openapi;
  for (const raw of pointer.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) {
      throw new Error(`OpenAPI reference does not resolve: ${pointer}`);
    }
    node = (node as JsonObject)[key];
  }
  return node;
}

/** Resolves a node that may be a {$ref} (one level, plus sibling keys kept). */
export function deref(node: unknown): JsonObject {
  const object = node as JsonObject;
  if (typeof object.$ref !== 'string') return object;
  const { $ref, ...siblings } = object;
  return { ...deref(resolvePointer($ref)), ...siblings };
}

function readOperations(): OperationSpec[] {
  const paths = openapi.paths as Record<string, Record<string, JsonObject>>;
  const result: OperationSpec[] = [];
  for (const [pathTemplate, item] of Object.entries(paths)) {
    for (const [method, raw] of Object.entries(item)) {
      const op = raw;
      const parameters = ((op.parameters as unknown[]) ?? []).map((p) => {
        const param = deref(p);
        return {
          name: param.name as string,
          in: param.in as ParameterSpec['in'],
          required: param.required === true,
          schema: deref(param.schema),
        };
      });
      const body = op.requestBody as JsonObject | undefined;
      const bodySchema = body ? (((body.content as JsonObject)['application/json'] as JsonObject).schema as JsonObject) : undefined;
      result.push({
        key: op['x-key'] as OperationKey,
        operationId: op.operationId as string,
        summary: op.summary as string,
        method: method.toUpperCase() as OperationSpec['method'],
        pathTemplate,
        parameters,
        contractScopes: (op['x-required-scopes'] as string[]) ?? [],
        requiresGlobalClient: op['x-requires-global-client'] === true,
        ...(bodySchema ? { requestBodyRef: bodySchema.$ref as string, requestBodyRequired: body!.required === true } : {}),
        responseStatuses: Object.keys(op.responses as JsonObject),
      });
    }
  }
  return result;
}

export const operations: readonly OperationSpec[] = readOperations();

/** The keys of the document's operations, in its order. */
export const operationKeys: readonly OperationKey[] = operations.map((op) => op.key);

export function operation(key: OperationKey): OperationSpec {
  const found = operations.find((op) => op.key === key);
  if (!found) throw new Error(`no operation ${key} in openapi.yaml`);
  return found;
}

export function parameter(key: OperationKey, where: ParameterSpec['in'], name: string): ParameterSpec {
  const found = operation(key).parameters.find((p) => p.in === where && p.name === name);
  if (!found) throw new Error(`operation ${key} has no ${where} parameter ${name}`);
  return found;
}

/** The base path of every operation, from servers[0].url (e.g. /api/v2). */
export const basePath: string = new URL(((openapi.servers as JsonObject[])[0]!.url as string).replace('{tenant_host}', 'host.invalid'))
  .pathname;

const oauth = (openapi.components as JsonObject).securitySchemes as Record<string, JsonObject>;
/** The token endpoint path and the audience path of the client-credentials scheme (spec 5, rule 3). */
export const tokenPath: string = oauth.oAuth2ClientCredentials!['x-token-path'] as string;
export const audiencePath: string = oauth.oAuth2ClientCredentials!['x-audience-path'] as string;

export const rateLimitHeaders: readonly string[] = Object.keys((openapi.components as JsonObject).headers as JsonObject);
