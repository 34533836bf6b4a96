// The two values every route works with: the Exchange (a request as read off the socket) and the
// Reply a route returns. Routes never write to the socket; server.ts writes replies.
import type { IncomingHttpHeaders } from 'node:http';
import { observed, type OperationKey } from '../specs/index.ts';

/** The content type of every JSON answer (observed.content_type). */
export const JSON_CONTENT_TYPE = observed.content_type;

/** Keys of the route handlers, which fault route wrappers address: each operation's, and the others. */
export type RouteKey = OperationKey | 'token' | 'jwks' | 'discovery' | 'not-found' | 'method-not-allowed';

export interface Exchange {
  method: string;
  /** The path of the request target, as sent (still percent-encoded), without the query. */
  path: string;
  /** The query string without its "?", as sent. */
  query: string;
  headers: IncomingHttpHeaders;
  /** Names of headers that may appear once and were sent more than once (headers holds the first). */
  repeatedHeaders: readonly string[];
  /** The body bytes, up to the size limit. */
  body: Buffer;
  /** True when the body was longer than the limit; `body` then holds only its start. */
  bodyTooLarge: boolean;
  /**
   * Path parameters of the matched route template, as sent (still percent-encoded): the validate
   * stage decodes them, so that a bad encoding is a validation error answered after authentication.
   */
  params: Record<string, string>;
  /** Methods the path allows, for a 405. */
  allow?: readonly string[];
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** A JSON value, serialised by the server; undefined for no body. */
  body?: unknown;
}

export type RouteHandler = (exchange: Exchange) => Promise<Reply>;

/** Wraps a route from outside: rewrite the exchange, transform the reply, or both. */
export type RouteWrapper = (next: RouteHandler) => RouteHandler;

// Header objects are merged with Object.assign, not object spread: on the hot path V8 tends to
// pretenure spread literals, which put every reply's headers into the old generation (measured
// with --trace-gc under the bench load; it cost the mock ~35 MB of peak RSS).

/** A JSON reply with the observed content type. */
export function jsonReply(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return { status, headers: Object.assign({ 'content-type': JSON_CONTENT_TYPE }, headers), body };
}

/** The same reply with more headers (later ones win). */
export function withHeaders(reply: Reply, headers: Record<string, string>): Reply {
  return { status: reply.status, headers: Object.assign({}, reply.headers, headers), body: reply.body };
}
