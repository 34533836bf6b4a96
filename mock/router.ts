// Which route takes a request. The operations' paths come from specs/openapi.yaml (under the base
// path /api/v2); the token endpoint answers with and without its trailing slash; the JWKS and the
// discovery document have their observed paths. HEAD is taken wherever GET is (the server sends
// the GET's headers without its body). Matching is on the raw (still percent-encoded) segments: a
// parameter is any non-empty segment, decoded and checked later by the validate stage, after
// authentication.
import type { OperationCard } from '../specs/cards/card.ts';
import { basePath, observed, tokenPath } from '../specs/index.ts';
import type { RouteKey } from './exchange.ts';

interface RouteEntry {
  key: RouteKey;
  method: string;
  segments: string[];
}

export interface RouteMatch {
  key: RouteKey;
  params: Record<string, string>;
  /** Methods the path allows, for a 405. */
  allow?: string[];
  /** Whether the path is under the management interface's base path (rate limited). */
  api: boolean;
}

const entry = (key: RouteKey, method: string, template: string): RouteEntry => ({ key, method, segments: template.split('/') });

/** The routes of the mock: each operation's (from its card), the token endpoint's, the JWKS and the discovery document. */
function routeTableOf(cards: readonly OperationCard[]): RouteEntry[] {
  return [
    ...cards.map((card) => entry(card.key, card.spec.method, `${basePath}${card.spec.pathTemplate}`)),
    entry('token', 'POST', observed.tokens.path),
    entry('token', 'POST', tokenPath),
    entry('jwks', 'GET', observed.tokens.jwks_path),
    entry('discovery', 'GET', observed.discovery.path),
  ];
}

const GET_AND_HEAD: readonly string[] = ['GET', 'HEAD'];

/** The methods a route of `routeMethod` takes: its own, and HEAD wherever GET. */
function methodsTakenBy(routeMethod: string): readonly string[] {
  return routeMethod === 'GET' ? GET_AND_HEAD : [routeMethod];
}

export function isApiPath(path: string): boolean {
  return path === basePath || path.startsWith(`${basePath}/`);
}

export type Router = (method: string, path: string) => RouteMatch;

/** The router of the operations of these cards. */
export function createRouter(cards: readonly OperationCard[]): Router {
  const routeTable = routeTableOf(cards);
  return (method, path) => matchRoute(routeTable, method, path);
}

function matchRoute(routeTable: readonly RouteEntry[], method: string, path: string): RouteMatch {
  const segments = path.split('/');
  const api = isApiPath(path);
  let allow: string[] | undefined;
  for (const route of routeTable) {
    if (route.segments.length !== segments.length) continue;
    const params = matchSegments(route.segments, segments);
    if (!params) continue;
    const taken = methodsTakenBy(route.method);
    if (taken.includes(method)) return { key: route.key, params, api };
    allow ??= [];
    for (const allowed of taken) if (!allow.includes(allowed)) allow.push(allowed);
  }
  if (allow) return { key: 'method-not-allowed', params: {}, allow, api };
  return { key: 'not-found', params: {}, api };
}

function matchSegments(template: string[], actual: string[]): Record<string, string> | undefined {
  if (template.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i += 1) {
    const want = template[i]!;
    const got = actual[i]!;
    if (want.startsWith('{') && want.endsWith('}')) {
      if (got === '') return undefined;
      params[want.slice(1, -1)] = got;
    } else if (want !== got) {
      return undefined;
    }
  }
  return params;
}
