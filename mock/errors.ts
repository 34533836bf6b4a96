// The error catalogue: every status, message and code the mock answers with, written once.
//
// Entries marked `observed` take their status, message and code from specs/observed.yaml (how the
// real service answers). Entries marked `mock` are the mock's own choices where neither the spec
// nor the observed reference says anything; mock/README.md lists them. Routes and stages name an
// entry (`refuse(deps, 'stream_not_found')`) and never spell a status or a message themselves.
import { STATUS_CODES } from 'node:http';
import { errorFact, observed, type ErrorFact } from '../specs/index.ts';
import { jsonReply, type Reply } from './exchange.ts';

interface CatalogueEntry {
  status: number;
  /** The whole message, or the start of a message that continues with details (then `suffix`). */
  message?: string;
  prefix?: string;
  suffix?: string;
  errorCode?: string;
  /** Token-validation 401s repeat their message in `attributes.error`, as the real service does. */
  attributes?: boolean;
  /** The RFC 6750 error a WWW-Authenticate challenge names; `none` for a request without credentials (RFC 6750 section 3.1). */
  challenge?: 'invalid_token' | 'insufficient_scope' | 'none';
  source: 'observed' | 'mock';
}

function fromObserved(kind: string, extra: Partial<CatalogueEntry> = {}): CatalogueEntry {
  const fact: ErrorFact = errorFact(kind);
  return {
    status: fact.status,
    ...(fact.message !== undefined ? { message: fact.message } : {}),
    ...(fact.prefix !== undefined ? { prefix: fact.prefix } : {}),
    ...(fact.suffix !== undefined ? { suffix: fact.suffix } : {}),
    ...(fact.errorCode !== undefined ? { errorCode: fact.errorCode } : {}),
    ...extra,
    source: 'observed',
  };
}

export const apiErrorCatalogue = {
  // Observed (specs/observed.yaml).
  missing_authentication: fromObserved('missing_authentication', { attributes: true, challenge: 'none' }),
  invalid_token: fromObserved('invalid_token', { attributes: true, challenge: 'invalid_token' }),
  bad_audience: fromObserved('bad_audience', { attributes: true, challenge: 'invalid_token' }),
  invalid_signature: fromObserved('invalid_signature', { attributes: true, challenge: 'invalid_token' }),
  expired_token: fromObserved('expired_token', { attributes: true, challenge: 'invalid_token' }),
  client_not_global: fromObserved('client_not_global', { challenge: 'invalid_token' }),
  insufficient_scope: fromObserved('insufficient_scope', { challenge: 'insufficient_scope' }),
  invalid_uri: fromObserved('invalid_uri'),
  invalid_body: fromObserved('invalid_body'),
  vault_connection_not_found: fromObserved('vault_connection_not_found'),
  stream_not_found: fromObserved('stream_not_found'),
  profile_not_found: fromObserved('profile_not_found'),
  too_many_requests: fromObserved('too_many_requests'),
  malformed_json: fromObserved('malformed_json'),
  bad_authorization_header: fromObserved('bad_authorization_header'),
  // The mock's choices: nothing public says how the real service answers these.
  event_not_found: { status: 404, message: 'The requested event does not exist.', source: 'mock' },
  event_not_redeliverable: { status: 409, message: 'The event is not in a state that allows redelivery.', source: 'mock' },
  connection_name_taken: { status: 409, message: 'A connection with the same name already exists.', source: 'mock' },
  invalid_headers: { status: 400, prefix: 'Header validation error: ', errorCode: 'invalid_headers', source: 'mock' },
  unsupported_media_type: {
    status: 415,
    message: 'The request body must be sent with Content-Type: application/json or application/x-www-form-urlencoded.',
    source: 'mock',
  },
  payload_too_large: { status: 413, prefix: 'The request body is larger than the limit of ', suffix: ' bytes.', source: 'mock' },
  route_not_found: { status: 404, message: 'Not Found', source: 'mock' },
  method_not_allowed: { status: 405, prefix: 'Method not allowed on this path; allowed: ', source: 'mock' },
  bad_request: { status: 400, prefix: 'Bad Request: ', source: 'mock' },
  header_fields_too_large: { status: 431, message: 'The request headers are too large.', source: 'mock' },
  request_timeout: { status: 408, message: 'The request was not received in time.', source: 'mock' },
  internal_error: { status: 500, message: 'Internal Server Error', source: 'mock' },
} satisfies Record<string, CatalogueEntry>;

export type ApiErrorKind = keyof typeof apiErrorCatalogue;

/** Errors of the token endpoint, which has a shape of its own: {error, error_description}. */
export const tokenErrorCatalogue = {
  invalid_request: { status: observed.tokens.errors.invalid_request!.status, source: 'observed' },
  unsupported_grant_type: { status: observed.tokens.errors.unsupported_grant_type!.status, source: 'observed' },
  invalid_client: { status: observed.tokens.errors.invalid_client!.status, source: 'observed' },
  access_denied: { status: observed.tokens.errors.access_denied!.status, source: 'observed' },
  too_many_requests: { status: observed.tokens.errors.too_many_requests!.status, source: 'observed' },
} satisfies Record<string, { status: number; source: 'observed' | 'mock' }>;

export type TokenErrorKind = keyof typeof tokenErrorCatalogue;

const AUDIENCE = '<audience>';

/**
 * Descriptions of token-endpoint errors. Observed ones come from observed.yaml; the reasons a
 * client assertion is refused are the mock's own wording (nothing public records the service's).
 */
export const tokenDescriptions = {
  clientAuthenticationFailed: observed.tokens.errors.invalid_client!.description!,
  tooManyRequests: observed.tokens.errors.too_many_requests!.description!,
  serviceNotFound: (audience: string) => observed.tokens.access_denied_descriptions.service_not_found.text.replace(AUDIENCE, audience),
  clientNotAuthorized: (audience: string) =>
    observed.tokens.access_denied_descriptions.client_not_authorized.text.replace(AUDIENCE, audience),
  assertion: {
    malformed: 'The client assertion is not a signed JWT.',
    algorithm: (alg: string) =>
      `The client assertion is signed with ${alg}; expected one of ${observed.tokens.client_assertion.algorithms.value.join(', ')}.`,
    subject: 'The client assertion must name the client in both iss and sub.',
    claimTooLong: (claim: string) => `The client assertion's ${claim} is too long.`,
    audience: 'The client assertion is not addressed to this tenant (aud).',
    expired: 'The client assertion has expired.',
    lifetime: 'The client assertion lives longer than the tenant allows.',
    notYetValid: 'The client assertion is not valid yet.',
    jti: 'The client assertion has no jti.',
    replayed: 'The client assertion has been used already (jti).',
  },
} as const;

/** The body of every management-interface error. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  errorCode?: string;
  attributes?: { error: string };
}

/** The reason phrase of a status: observed.reason_phrases first, Node's table otherwise. */
export function reasonPhrase(status: number): string {
  return observed.reason_phrases[status] ?? STATUS_CODES[status] ?? 'Error';
}

export interface ErrorCatalogue {
  /** The message of an entry, with its details where the entry takes some. */
  message(kind: ApiErrorKind, detail?: string): string;
  /** The reply of an entry; stages stop a request with refuse(deps, kind), which asks this. */
  reply: (kind: ApiErrorKind, detail?: string) => Reply;
  /** A token-endpoint error reply; `status` overrides the entry's (e.g. 413 for an oversized body). */
  tokenReply(kind: TokenErrorKind, description: string, status?: number): Reply;
}

export function createErrorCatalogue(): ErrorCatalogue {
  const catalogue: Record<ApiErrorKind, CatalogueEntry> = apiErrorCatalogue;

  function message(kind: ApiErrorKind, detail = ''): string {
    const entry = catalogue[kind];
    return entry.message ?? `${entry.prefix ?? ''}${detail}${entry.suffix ?? ''}`;
  }

  function reply(kind: ApiErrorKind, detail?: string): Reply {
    const entry = catalogue[kind];
    const text = message(kind, detail);
    const body: ErrorBody = { statusCode: entry.status, error: reasonPhrase(entry.status), message: text };
    if (entry.errorCode) body.errorCode = entry.errorCode;
    if (entry.attributes) body.attributes = { error: text };
    return jsonReply(entry.status, body, entry.challenge ? { 'www-authenticate': challenge(entry.challenge, text, detail) } : {});
  }

  function tokenReply(kind: TokenErrorKind, description: string, status?: number): Reply {
    return jsonReply(status ?? tokenErrorCatalogue[kind].status, { error: kind, error_description: description }, NO_STORE);
  }

  return { message, reply, tokenReply };
}

/** Token responses, good or bad, are never cached (RFC 6749 section 5.1). */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function challenge(error: NonNullable<CatalogueEntry['challenge']>, text: string, detail: string | undefined): string {
  if (error === 'none') return 'Bearer';
  if (error === 'insufficient_scope') return `Bearer error="insufficient_scope", scope="${detail ?? ''}"`;
  return `Bearer error="invalid_token", error_description="${descriptionCharacters(text)}"`;
}

/**
 * The message as an error_description may hold it (RFC 6750 3: %x20-21 / %x23-5B / %x5D-7E), each
 * other character as "?": a message naming what the token said (its audience) may hold any, and a
 * header value outside ASCII is no HTTP field value.
 */
function descriptionCharacters(text: string): string {
  return text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?');
}
