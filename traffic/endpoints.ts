// Which endpoint a recorded request went to: one of the three operations (by method and path
// template under the base path, both from specs/openapi.yaml), the token endpoint, the JWKS (read
// only to check issued tokens' keys), or something else (discovery, another API), which no judge reads. A gateway may put the base path
// under a prefix of its own (/mgmt/api/v2/...): what follows the base path decides.
import { basePath, observed, operations, tokenPath, type OperationKey } from '../specs/index.ts';

export type Endpoint =
  { kind: 'operation'; operation: OperationKey; params: Record<string, string> } | { kind: 'token' } | { kind: 'jwks' } | { kind: 'other' };

interface Matcher {
  operation: OperationKey;
  method: string;
  pattern: RegExp;
  names: string[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const matchers: Matcher[] = operations.map((op) => {
  const names = [...op.pathTemplate.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const path = escape(`${basePath}${op.pathTemplate}`).replace(/\\\{[^}]+\\\}/g, '([^/]+)');
  return { operation: op.key, method: op.method, pattern: new RegExp(`${path}$`), names };
});

/** The token endpoint's path with and without its trailing slash (the service takes both). */
const tokenPaths = new Set([tokenPath, observed.tokens.path, tokenPath.replace(/\/$/, ''), `${observed.tokens.path.replace(/\/$/, '')}/`]);

export function endpointOf(method: string, url: string): Endpoint {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return { kind: 'other' };
  }
  if (method === 'POST' && [...tokenPaths].some((path) => pathname.endsWith(path))) return { kind: 'token' };
  if (method === 'GET' && pathname.endsWith(observed.tokens.jwks_path)) return { kind: 'jwks' };
  for (const matcher of matchers) {
    const match = matcher.pattern.exec(pathname);
    if (!match || method !== matcher.method) continue;
    const params = Object.fromEntries(matcher.names.map((name, i) => [name, safeDecode(match[i + 1]!)]));
    return { kind: 'operation', operation: matcher.operation, params };
  }
  return { kind: 'other' };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
