// The request model: every element of an operation's valid request, each with what the operators
// need to vary it. Derived from the operation's card and the OpenAPI document, so an element the
// spec adds (a parameter, a body field at any depth) is in the model without a line here:
//   the method; each segment of the path (the base path's too) and each path parameter; the
//   Authorization header, its scheme and the credential it carries; each header parameter and claim
//   of the token, its signature, and each scope token of its scope string; each header parameter of
//   the operation and the content type of its body; the body and each of its fields at every depth.
import type { OperationCard } from '../cards/card.ts';
import { basePath, type JsonObject, type OperationKey } from '../openapi.ts';
import { schema, toJsonSchema } from '../schemas.ts';

export type ElementKind =
  | 'method'
  | 'path-literal'
  | 'path-param'
  | 'authorization'
  | 'auth-scheme'
  | 'token'
  | 'jose-header'
  | 'signature'
  | 'claim'
  | 'scope-token'
  | 'header-param'
  | 'content-type'
  | 'accept'
  | 'body'
  | 'body-field';

/** A JSON Schema node at both levels (undefined where the level does not know the element). */
export interface Schemas {
  contract?: JsonObject;
  observed?: JsonObject;
}

export interface Element {
  /** Its address, stable: "path.{event_id}", "token.claims.iss", "body.enabled_organizations[].organization_id". */
  id: string;
  kind: ElementKind;
  /** How a title names it: "the event id", "the token's issuer (iss)", "ttl_sec". */
  label: string;
  op: OperationKey;
  /** path-literal: its index among the path's segments and its text. */
  segment?: { index: number; text: string };
  /** path-param and header-param: the parameter's name. */
  name?: string;
  /** jose-header and claim: the member's name. */
  member?: string;
  /** scope-token: the operation's scope. */
  scope?: string;
  /** body-field: its path ("[]" for any item of an array), whether its parent requires it (observed level). */
  path?: string[];
  required?: boolean;
  schemas?: Schemas;
}

/** Claims of an access token the service issues (observed.yaml `tokens`), each varied. */
export const TOKEN_CLAIMS = ['iss', 'aud', 'sub', 'azp', 'exp', 'iat', 'nbf', 'scope', 'gty'] as const;
/** Members of the token's JOSE header, each varied. */
export const JOSE_MEMBERS = ['alg', 'kid', 'typ', 'crit', 'zip'] as const;

/** Labels of the claims and header members, for titles. */
const MEMBER_LABELS: Record<string, string> = {
  iss: "the token's issuer (iss)",
  aud: "the token's audience (aud)",
  sub: "the token's subject (sub)",
  azp: "the token's authorized party (azp)",
  exp: "the token's expiry (exp)",
  iat: "the token's issue time (iat)",
  nbf: "the token's not-before time (nbf)",
  scope: "the token's scope claim",
  gty: "the token's grant type (gty)",
  alg: "the token's algorithm (alg)",
  kid: "the token's key id (kid)",
  typ: "the token's type (typ)",
  crit: "the token's critical header parameters (crit)",
  zip: "the token's compression (zip)",
};

function pathElements(card: OperationCard): Element[] {
  const spec = card.spec;
  const segments = `${basePath}${spec.pathTemplate}`.split('/').slice(1);
  return segments.map((text, index): Element => {
    const param = /^\{(.+)\}$/.exec(text)?.[1];
    if (param === undefined) {
      return { id: `path.${text}`, kind: 'path-literal', label: `the path segment "${text}"`, op: card.key, segment: { index, text } };
    }
    const parameter = spec.parameters.find((p) => p.in === 'path' && p.name === param)!;
    return {
      id: `path.{${param}}`,
      kind: 'path-param',
      label: `the ${card.params[param]!.names} id`,
      op: card.key,
      name: param,
      segment: { index, text },
      schemas: levels(parameter.schema),
    };
  });
}

function credentialElements(card: OperationCard): Element[] {
  const at = (id: string, kind: ElementKind, label: string, extra: Partial<Element> = {}): Element => ({
    id,
    kind,
    label,
    op: card.key,
    ...extra,
  });
  return [
    at('authorization', 'authorization', 'the Authorization header'),
    at('authorization.scheme', 'auth-scheme', 'the Authorization scheme (Bearer)'),
    at('token', 'token', 'the access token'),
    ...JOSE_MEMBERS.map((member) => at(`token.header.${member}`, 'jose-header', MEMBER_LABELS[member]!, { member })),
    at('token.signature', 'signature', "the token's signature"),
    ...TOKEN_CLAIMS.map((member) => at(`token.claims.${member}`, 'claim', MEMBER_LABELS[member]!, { member })),
    at('token.claims', 'claim', "the token's claims", { member: '*' }),
    at(`token.scope.${card.scope.value}`, 'scope-token', `the scope ${card.scope.value} in the token`, { scope: card.scope.value }),
  ];
}

function headerElements(card: OperationCard): Element[] {
  const spec = card.spec;
  const params = spec.parameters
    .filter((p) => p.in === 'header' && p.name.toLowerCase() !== 'authorization')
    .map((p): Element => ({
      id: `header.${p.name}`,
      kind: 'header-param',
      label: `the ${p.name} header`,
      op: card.key,
      name: p.name,
      schemas: levels(p.schema),
    }));
  // An operation without a body has a Content-Type to vary too: clients send one on every request.
  const contentType: Element[] = [{ id: 'header.content-type', kind: 'content-type', label: 'the Content-Type header', op: card.key }];
  // The media types the client takes (RFC 9110 12.5.1): every operation's answer is JSON whatever else it names.
  const accept: Element = { id: 'header.accept', kind: 'accept', label: 'the Accept header', op: card.key };
  return [...params, ...contentType, accept];
}

/** The body and every field of its schema at either level, depth first. */
function bodyElements(card: OperationCard): Element[] {
  if (!card.body) return [];
  const roots = { contract: schema(card.body.schema, 'contract'), observed: schema(card.body.schema, 'observed') };
  const out: Element[] = [{ id: 'body', kind: 'body', label: 'the body', op: card.key, path: [], schemas: roots }];
  const walk = (nodes: Schemas, path: string[]) => {
    for (const [name, child] of childrenOf(nodes)) {
      const childPath = [...path, name];
      const field = fieldName(childPath);
      out.push({
        id: `body.${field}`,
        kind: 'body-field',
        label: field,
        op: card.key,
        path: childPath,
        required: requiredIn(nodes.observed, name),
        schemas: child,
      });
      walk(child, childPath);
    }
  };
  walk(roots, []);
  return out;
}

/** The named children of an object node and the item of an array node, at both levels. */
function childrenOf(nodes: Schemas): Array<[string, Schemas]> {
  const names = new Set([...Object.keys(propertiesOf(nodes.contract)), ...Object.keys(propertiesOf(nodes.observed))]);
  const children: Array<[string, Schemas]> = [...names].map((name) => [
    name,
    { contract: propertiesOf(nodes.contract)[name], observed: propertiesOf(nodes.observed)[name] },
  ]);
  const items = { contract: itemsOf(nodes.contract), observed: itemsOf(nodes.observed) };
  if (items.contract || items.observed) children.push(['[]', items]);
  return children;
}

function propertiesOf(node: JsonObject | undefined): Record<string, JsonObject> {
  return (node?.properties as Record<string, JsonObject> | undefined) ?? {};
}

function itemsOf(node: JsonObject | undefined): JsonObject | undefined {
  const items = node?.items;
  return items !== null && typeof items === 'object' ? (items as JsonObject) : undefined;
}

function requiredIn(node: JsonObject | undefined, name: string): boolean {
  return Array.isArray(node?.required) && (node.required as string[]).includes(name);
}

/** ["a", "[]", "b"] -> "a[].b". */
export function fieldName(path: readonly string[]): string {
  return path.reduce((field, step) => (step === '[]' ? `${field}[]` : field === '' ? step : `${field}.${step}`), '');
}

function levels(node: JsonObject): Schemas {
  return { contract: toJsonSchema(node, 'contract'), observed: toJsonSchema(node, 'observed') };
}

/** Every element of an operation's valid request. */
export function elementsOf(card: OperationCard): Element[] {
  return [
    { id: 'method', kind: 'method', label: 'the method', op: card.key },
    ...pathElements(card),
    ...credentialElements(card),
    ...headerElements(card),
    ...bodyElements(card),
  ];
}
