// Reading a client-credentials token request: a form-encoded or JSON body of string parameters,
// and the client's authentication: client_secret in the body, HTTP Basic (client_secret_basic,
// RFC 6749 section 2.3.1) or a client assertion (private_key_jwt, RFC 7523), one of them.
import type { Components } from '../components.ts';
import type { Exchange } from '../exchange.ts';
import { refuseToken } from '../refusal.ts';
import { FORM_MEDIA_TYPE, isFormMediaType, isJsonMediaType } from '../stages/json-body.ts';

export interface TokenRequest {
  grant_type?: string;
  client_id?: string;
  client_secret?: string;
  client_assertion?: string;
  client_assertion_type?: string;
  audience?: string;
  scope?: string;
  /** How the client authenticated. */
  authMethod: 'client_secret_post' | 'client_secret_basic' | 'private_key_jwt';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

const MORE_THAN_ONE_METHOD = 'The client authenticated with more than one method.';

/** The request's parameters, merged with Basic credentials; refuses what is ill-formed. */
export function readTokenRequest(deps: Components, exchange: Exchange): TokenRequest {
  if (exchange.repeatedHeaders.includes('authorization'))
    refuseToken(deps, 'invalid_request', 'The request has more than one Authorization header.');
  const params = bodyParameters(deps, exchange);
  const basic = basicCredentials(deps, exchange.headers.authorization);
  const assertion = params.client_assertion !== undefined || params.client_assertion_type !== undefined;
  if (assertion && (basic || params.client_secret !== undefined)) refuseToken(deps, 'invalid_request', MORE_THAN_ONE_METHOD);
  if (assertion) return { ...params, authMethod: 'private_key_jwt' };
  if (!basic) return { ...params, authMethod: 'client_secret_post' };
  if (params.client_secret !== undefined) refuseToken(deps, 'invalid_request', MORE_THAN_ONE_METHOD);
  if (params.client_id !== undefined && params.client_id !== basic.clientId) {
    refuseToken(deps, 'invalid_request', 'client_id does not match the Basic credentials.');
  }
  return { ...params, client_id: basic.clientId, client_secret: basic.clientSecret, authMethod: 'client_secret_basic' };
}

type Parameters = Omit<TokenRequest, 'authMethod'>;
const NAMES = ['grant_type', 'client_id', 'client_secret', 'client_assertion', 'client_assertion_type', 'audience', 'scope'] as const;

function bodyParameters(deps: Components, exchange: Exchange): Parameters {
  let text: string;
  try {
    text = utf8.decode(exchange.body);
  } catch {
    return refuseToken(deps, 'invalid_request', 'The request body is not valid UTF-8.');
  }
  if (text.trim() === '') return {};
  const contentType = exchange.headers['content-type'];
  if (isJsonMediaType(contentType)) return jsonParameters(deps, text);
  if (isFormMediaType(contentType)) return formParameters(deps, text);
  return refuseToken(deps, 'invalid_request', `Content-Type must be ${FORM_MEDIA_TYPE} or application/json.`);
}

function jsonParameters(deps: Components, text: string): Parameters {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuseToken(deps, 'invalid_request', 'The request body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return refuseToken(deps, 'invalid_request', 'The request body must be a JSON object.');
  }
  const params: Parameters = {};
  for (const name of NAMES) {
    const field = (value as Record<string, unknown>)[name];
    if (field === undefined) continue;
    if (typeof field !== 'string') refuseToken(deps, 'invalid_request', `Parameter ${name} must be a string.`);
    params[name] = field;
  }
  return params;
}

function formParameters(deps: Components, text: string): Parameters {
  const form = new URLSearchParams(text);
  const params: Parameters = {};
  for (const name of NAMES) {
    const values = form.getAll(name);
    // RFC 6749 section 3.2: parameters must not be repeated.
    if (values.length > 1) refuseToken(deps, 'invalid_request', `Parameter ${name} is repeated.`);
    if (values.length === 1) params[name] = values[0]!;
  }
  return params;
}

function basicCredentials(deps: Components, authorization: string | undefined): { clientId: string; clientSecret: string } | undefined {
  if (authorization === undefined || !/^Basic(\s|$)/i.test(authorization)) return undefined;
  const encoded = /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(authorization)?.[1];
  const decoded = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const clientId = colon > 0 ? formDecode(decoded.slice(0, colon)) : undefined;
  const clientSecret = colon > 0 ? formDecode(decoded.slice(colon + 1)) : undefined;
  if (!clientId || clientSecret === undefined) {
    return refuseToken(deps, 'invalid_client', 'Malformed Basic client credentials.');
  }
  return { clientId, clientSecret };
}

/** Basic credentials are form-encoded before base64 (RFC 6749 section 2.3.1). */
function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
