// One recorded exchange: what `npm start -- --record` writes (one JSON object a line,
// exchanges.ndjson), what the recording proxy writes, and what check-traffic and compare read.
// The fields are documented in docs/beyond-the-run.md ("What each command does").
//
// A recording is written redacted, so the bearer token a request carried and the access token a
// token endpoint issued are kept decoded beside it (header and claims, never the signature): what a
// passive judge needs to tell an expired or wrong-audience token from a valid one, and nothing that
// could be replayed. A client secret is kept as a keyed digest, the same within one recording and
// meaningless outside it, so that two different secrets can be told apart without either being
// written; each token likewise, so that a token can be matched to the answer that issued it.
import { createHmac, randomBytes } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';

export interface RecordedRequest {
  method: string;
  url: string;
  /** Header names in lower case; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

/** A JWT read without checking its signature: only what it claims. */
export interface DecodedToken {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  /** Whether it carries a signature at all (a token with an empty third part carries none). */
  signed: boolean;
  /** A keyed digest of the whole token (signature included), comparable within one recording. */
  digest?: string;
}

export interface RecordedExchange {
  /** When the request was sent (ISO 8601). */
  startedAt: string;
  durationMs?: number;
  request: RecordedRequest;
  response: RecordedResponse;
  /**
   * The bearer token of the request's Authorization header and the access token of the answer,
   * decoded; `sentNotJwt` when the request's bearer value was not a JWT at all.
   */
  tokens?: { sent?: DecodedToken; issued?: DecodedToken; sentNotJwt?: true };
  /** Keyed digests of the credentials the request carried (client_secret), comparable within one recording. */
  digests?: { clientSecret?: string };
  /** Who sent it, in a suite run's recording: the test (its title), or the shared request (its key). */
  sender?: { test?: string; shared?: string };
}

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** The claims and header of a compact JWS, or undefined when the value is not one; with a digester, its digest too. */
export function decodeToken(value: string | undefined, digester?: SecretDigester): DecodedToken | undefined {
  if (value === undefined || !JWT.test(value)) return undefined;
  try {
    return {
      header: decodeProtectedHeader(value),
      claims: decodeJwt(value),
      signed: !value.endsWith('.'),
      ...(digester ? { digest: digester.digest(value) } : {}),
    };
  } catch {
    return undefined;
  }
}

/** The token of an `Authorization: Bearer <token>` header, when the header has that form. */
export function bearerTokenOf(headers: Record<string, string>): string | undefined {
  const match = /^Bearer ([^\s,]+)$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

/** The access_token of a token endpoint's JSON answer. */
export function issuedTokenOf(body: string | undefined): string | undefined {
  try {
    const parsed = JSON.parse(body ?? '') as { access_token?: unknown };
    return typeof parsed.access_token === 'string' ? parsed.access_token : undefined;
  } catch {
    return undefined;
  }
}

/** The fields of a form-encoded or JSON request body, as strings (what a token request carries). */
export function bodyFields(headers: Record<string, string>, body: string | undefined): Record<string, string> | undefined {
  if (body === undefined || body === '') return undefined;
  const type = headers['content-type'] ?? '';
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(body));
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    return Object.fromEntries(Object.entries(parsed).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])));
  } catch {
    return undefined;
  }
}

/** Digests keyed per recording: equal secrets give equal digests within it, and nothing outside it. */
export class SecretDigester {
  readonly #key = randomBytes(32);

  digest(secret: string): string {
    return `hmac-sha256:${createHmac('sha256', this.#key).update(secret).digest('base64url').slice(0, 22)}`;
  }
}

/**
 * What a recording keeps of an exchange before its text is redacted: the tokens decoded and the
 * client secret digested. `redact` then runs over every text of it.
 */
export function recordOf(
  exchange: Omit<RecordedExchange, 'tokens' | 'digests'>,
  digester: SecretDigester,
  redact: (text: string) => string,
): RecordedExchange {
  const bearer = bearerTokenOf(exchange.request.headers);
  const sent = decodeToken(bearer, digester);
  const issued = decodeToken(issuedTokenOf(exchange.response.body), digester);
  const secret = bodyFields(exchange.request.headers, exchange.request.body)?.client_secret;
  const notJwt = bearer !== undefined && !sent;
  const tokens = { ...(sent ? { sent } : {}), ...(issued ? { issued } : {}), ...(notJwt ? { sentNotJwt: true as const } : {}) };
  return {
    startedAt: exchange.startedAt,
    ...(exchange.durationMs !== undefined ? { durationMs: exchange.durationMs } : {}),
    request: redactedMessage(exchange.request, redact),
    response: redactedMessage(exchange.response, redact),
    ...(sent || issued || notJwt ? { tokens } : {}),
    ...(secret ? { digests: { clientSecret: digester.digest(secret) } } : {}),
    ...(exchange.sender ? { sender: exchange.sender } : {}),
  };
}

function redactedMessage<T extends RecordedRequest | RecordedResponse>(message: T, redact: (text: string) => string): T {
  const headers = Object.fromEntries(
    Object.entries(message.headers).map(([name, value]) => [name, redact(`${name}: ${value}`).slice(name.length + 2)]),
  );
  return {
    ...message,
    ...('url' in message ? { url: redact(message.url) } : {}),
    headers,
    ...(message.body !== undefined ? { body: redact(message.body) } : {}),
  };
}
