// The one way the suite talks to a target: undici, with a timeout on every request, a cap on
// response size, the request budget, pacing by rate-limit headers and a bound on the whole run.
// A target that hangs, resets or answers garbage becomes a HarnessError with a clear message.
import { Agent, errors as undiciErrors, request } from 'undici';
import type { RequestBudget } from './budget.ts';
import { HarnessError } from './errors.ts';
import type { RateLimitPacer } from './pacer.ts';

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** What the request is for (an operation key, 'token', 'jwks'), for per-operation counts. */
  label?: string;
}

export interface Exchange {
  request: OutgoingRequest;
  status: number;
  /** Response headers, names in lower case, repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  ms: number;
  /** Requests sent for this exchange: 1, or more when a 429 was retried. */
  attempts: number;
}

export interface SendOptions {
  /** Retry a 429 after X-RateLimit-Reset (default true; rate-limit tests turn it off). */
  retryRateLimited?: boolean;
  /** Wait for Reset when the last response left no request (default true). */
  pace?: boolean;
}

export interface HttpOptions {
  budget: RequestBudget;
  pacer: RateLimitPacer;
  requestTimeoutMs: number;
  deadline: number;
  maxResponseBytes?: number;
  /** Called once per request actually sent (for per-test and per-operation counts). */
  onSend?: (request: OutgoingRequest) => void;
}

const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

export class TargetHttp {
  readonly #options: HttpOptions;
  readonly #agent: Agent;

  constructor(options: HttpOptions) {
    this.#options = options;
    this.#agent = new Agent({
      connectTimeout: options.requestTimeoutMs,
      headersTimeout: options.requestTimeoutMs,
      bodyTimeout: options.requestTimeoutMs,
      keepAliveTimeout: 4_000,
      connections: 8,
    });
  }

  async send(outgoing: OutgoingRequest, options: SendOptions = {}): Promise<Exchange> {
    const { pacer } = this.#options;
    if (options.pace !== false) await pacer.wait(pacer.delayBeforeSend());
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const exchange = await this.#sendOnce(outgoing);
      pacer.observe(exchange.headers);
      const retry = exchange.status === 429 && options.retryRateLimited !== false && attempts <= pacer.retries;
      if (!retry) return { ...exchange, attempts };
      await pacer.wait(pacer.delayBeforeRetry());
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  async #sendOnce(outgoing: OutgoingRequest): Promise<Omit<Exchange, 'attempts'>> {
    const { budget, deadline, requestTimeoutMs } = this.#options;
    const remainingRunMs = deadline - Date.now();
    if (remainingRunMs <= 0) {
      throw new HarnessError('RUN_DEADLINE', 'the run reached its time bound; no further request is sent');
    }
    budget.take();
    this.#options.onSend?.(outgoing);
    const started = performance.now();
    const timeoutMs = Math.min(requestTimeoutMs, remainingRunMs);
    try {
      const response = await request(outgoing.url, {
        method: outgoing.method as 'GET',
        headers: outgoing.headers,
        body: outgoing.body,
        dispatcher: this.#agent,
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await this.#readBody(response.body, outgoing);
      return {
        request: outgoing,
        status: response.statusCode,
        headers: flattenHeaders(response.headers),
        text,
        json: parseJson(text),
        ms: Math.round(performance.now() - started),
      };
    } catch (error) {
      throw describeTransportError(error, outgoing, timeoutMs);
    }
  }

  async #readBody(body: AsyncIterable<Buffer> & { destroy(): void }, outgoing: OutgoingRequest): Promise<string> {
    const limit = this.#options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > limit) {
        body.destroy();
        throw new HarnessError('TARGET_GARBAGE', `${outgoing.method} ${pathOf(outgoing.url)}: the response body exceeds ${limit} bytes`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function pathOf(url: string): string {
  return new URL(url).pathname;
}

function describeTransportError(error: unknown, outgoing: OutgoingRequest, timeoutMs: number): HarnessError {
  if (error instanceof HarnessError) return error;
  const what = `${outgoing.method} ${pathOf(outgoing.url)}`;
  const err = error as { code?: string; name?: string; message?: string };
  if (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError ||
    err.name === 'TimeoutError' || err.name === 'AbortError'
  ) {
    return new HarnessError('TARGET_TIMEOUT', `${what}: the target did not answer within ${timeoutMs} ms`);
  }
  if (error instanceof undiciErrors.HTTPParserError || err.code === 'HPE_INVALID_CONSTANT' || String(err.code).startsWith('HPE_')) {
    return new HarnessError('TARGET_GARBAGE', `${what}: the target answered with something that is not HTTP (${err.message ?? err.code})`);
  }
  if (err.code === 'ECONNRESET' || error instanceof undiciErrors.SocketError) {
    return new HarnessError('TARGET_UNREACHABLE', `${what}: the target closed the connection without an answer (${err.code ?? err.message})`);
  }
  if (err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND' || err.code === 'EHOSTUNREACH') {
    return new HarnessError('TARGET_UNREACHABLE', `${what}: the target cannot be reached (${err.code})`);
  }
  return new HarnessError('TARGET_UNREACHABLE', `${what}: the request failed (${err.code ?? err.name ?? 'error'}: ${err.message ?? ''})`);
}
