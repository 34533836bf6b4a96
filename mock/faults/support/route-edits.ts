// Route wrappers that faults share: rewrite the request before a route sees it, or the reply after
// it answered. The reply keeps its X-RateLimit headers, because wrappers sit outside the limiter.
import { cards } from '../../../specs/cards/index.ts';
import { operationKeys, type OperationKey } from '../../../specs/index.ts';
import type { FaultHooks } from '../../app.ts';
import { reasonPhrase } from '../../errors.ts';
import type { Exchange, Reply, RouteKey } from '../../exchange.ts';
import { isJsonMediaType } from '../../stages/json-body.ts';

/** The routes under the management interface's base path (every answer of /api/v2). */
export const MANAGEMENT_ROUTES: readonly RouteKey[] = [...operationKeys, 'not-found', 'method-not-allowed'];

/** Changes the reply of each of the routes; `edit` returns the reply unchanged when it does not apply. */
export function editReplies(
  app: FaultHooks,
  keys: readonly RouteKey[],
  edit: (reply: Reply, exchange: Exchange) => Reply | Promise<Reply>,
): void {
  for (const key of keys) {
    app.wrapRoute(key, (next) => async (exchange) => edit(await next(exchange), exchange));
  }
}

/** Changes each reply of an operation that has its success status (observed level). */
export function editSuccessReplies(app: FaultHooks, key: OperationKey, edit: (reply: Reply, exchange: Exchange) => Reply): void {
  const success = cards[key].success.status;
  editReplies(app, [key], (reply, exchange) => (reply.status === success ? edit(reply, exchange) : reply));
}

/** Answers `to` where the routes answer `from`; an error body follows (see withStatus). */
export function replaceStatus(app: FaultHooks, keys: readonly RouteKey[], from: number, to: number): void {
  editReplies(app, keys, (reply) => (reply.status === from ? withStatus(reply, to) : reply));
}

/** Changes the request before the route sees it. */
export function editRequests(app: FaultHooks, key: RouteKey, edit: (exchange: Exchange) => Exchange | Promise<Exchange>): void {
  app.wrapRoute(key, (next) => async (exchange) => next(await edit(exchange)));
}

/** Changes a JSON request body before the route reads it (`edit` sees the request's headers too); `edit` returns the value unchanged when it does not apply. */
export function editJsonBody(app: FaultHooks, key: RouteKey, edit: (value: unknown, headers: Exchange['headers']) => unknown): void {
  editRequests(app, key, (exchange) => {
    if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
    let value: unknown;
    try {
      value = JSON.parse(exchange.body.toString('utf8'));
    } catch {
      return exchange;
    }
    const edited = edit(value, exchange.headers);
    return edited === value ? exchange : { ...exchange, body: Buffer.from(JSON.stringify(edited), 'utf8') };
  });
}

/**
 * A JSON request read by a tokenizer that keeps an escape as written (`escape`, e.g. "\\/" or
 * "\\u"): the escape's backslash doubled, so that the decoded value holds the escape's text.
 */
export function jsonEscapeKept(app: FaultHooks, key: RouteKey, escape: string): void {
  editRequests(app, key, (exchange) => {
    const text = exchange.body.toString('utf8');
    return isJsonMediaType(exchange.headers['content-type']) && text.includes(escape)
      ? { ...exchange, body: Buffer.from(text.replaceAll(escape, `\\${escape}`), 'utf8') }
      : exchange;
  });
}

export function isErrorBody(body: unknown): body is Record<string, unknown> & { statusCode: number } {
  return body !== null && typeof body === 'object' && typeof (body as { statusCode?: unknown }).statusCode === 'number';
}

/** The reply with another status; an error body's statusCode and reason phrase follow it. */
export function withStatus(reply: Reply, status: number): Reply {
  const body = isErrorBody(reply.body) ? { ...reply.body, statusCode: status, error: reasonPhrase(status) } : reply.body;
  return { ...reply, status, body };
}

/** The reply's headers without the named ones (case-insensitive). */
export function withoutHeaders(reply: Reply, names: readonly string[]): Reply {
  const drop = new Set(names.map((n) => n.toLowerCase()));
  return { ...reply, headers: Object.fromEntries(Object.entries(reply.headers).filter(([name]) => !drop.has(name.toLowerCase()))) };
}

/** An error reply with the rate-limit (and other) headers of the reply it replaces. */
export function replacing(original: Reply, replacement: Reply): Reply {
  return { ...replacement, headers: { ...original.headers, ...replacement.headers } };
}

/** The reply with another content type (the body is unchanged). */
export function withContentType(reply: Reply, contentType: string): Reply {
  return { ...reply, headers: { ...reply.headers, 'content-type': contentType } };
}

/** The reply with one field of its (object) body left out. */
export function withoutBodyField(reply: Reply, field: string): Reply {
  if (reply.body === null || typeof reply.body !== 'object') return reply;
  const { [field]: _dropped, ...body } = reply.body as Record<string, unknown>;
  return { ...reply, body };
}

/** Whether a request's body came in chunks, with no Content-Length (RFC 9112 7.1). */
export function isChunked(exchange: Exchange): boolean {
  return /\bchunked\b/i.test(exchange.headers['transfer-encoding'] ?? '') && exchange.headers['content-length'] === undefined;
}

/**
 * An idempotency layer keyed by the Idempotency-Key header alone, with no fingerprint of the
 * request: a request carrying a key a success was stored under is answered that success again.
 */
export function replayedByKeyAlone(app: FaultHooks, key: RouteKey): void {
  const stored = new Map<string, Reply>();
  app.wrapRoute(key, (next) => async (exchange) => {
    const idempotencyKey = exchange.headers['idempotency-key'];
    const name = Array.isArray(idempotencyKey) ? idempotencyKey[0] : idempotencyKey;
    const replayed = name === undefined ? undefined : stored.get(name);
    if (replayed) return replayed;
    const reply = await next(exchange);
    if (name !== undefined && reply.status >= 200 && reply.status < 300) stored.set(name, reply);
    return reply;
  });
}
