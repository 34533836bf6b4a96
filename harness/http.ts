// The one way the suite talks to a target: undici, with a timeout on every request, a cap on
// response size, the request budget, pacing by rate-limit headers and a bound on the whole run,
// through the HTTP(S) proxy the environment names, if any.
// A target that hangs, resets or answers garbage becomes a HarnessError with a clear message.
import { Readable } from 'node:stream';
import { Agent, EnvHttpProxyAgent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import type { RequestBudget } from './budget.ts';
import { HarnessError } from './errors.ts';
import type { RateLimitPacer } from './pacer.ts';
import { readRateLimitHeaders } from './rate-limit-headers.ts';

export interface OutgoingRequest {
  method: string;
  url: string;
  /** Header values by lower-case name; a list sends the header once per value (the matrix's duplicates). */
  headers: Record<string, string | string[]>;
  body?: string;
  /** The body sent in two chunks (Transfer-Encoding: chunked) with no Content-Length. */
  chunked?: boolean;
  /** What the request is for (an operation key, 'token', 'jwks'), for per-operation counts. */
  label?: string;
  /** A request to the management interface: it spends the rate limit, so it is paced. */
  rateLimited?: boolean;
  /**
   * A token request meant to mint that its secret does not show (a valid client assertion): it
   * keeps to --max-tokens and the client's quota as any other.
   */
  mints?: boolean;
}

export interface Exchange {
  request: OutgoingRequest;
  status: number;
  /** Response headers, names in lower case, repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
  /**
   * The body parsed as JSON, or undefined when it is not JSON. Parsed when read, and kept only
   * while a reader holds it: a parsed body can take thirty times its text (a megabyte of nested
   * arrays is 30 MB of arrays), and an answer kept for later tests (a shared request) must not
   * keep that.
   */
  readonly json: unknown;
  ms: number;
  /** When the answer came (ms since the epoch). */
  at: number;
  /** Requests sent for this exchange: 1, or more when a 429 was retried. */
  attempts: number;
  /** The body's length, on a summary (answerSummary) whose text is only the body's beginning. */
  bodyLength?: number;
}

export interface SendOptions {
  /** Retry a 429 after X-RateLimit-Reset (default true; the exhaustion turns it off). */
  retryRateLimited?: boolean;
  /** Pace by the rate-limit headers (default true; only the deliberate exhaustion turns it off). */
  pace?: boolean;
}

export interface HttpOptions {
  budget: RequestBudget;
  pacer: RateLimitPacer;
  requestTimeoutMs: number;
  deadline: number;
  maxResponseBytes?: number;
  /** Called once per request actually sent (for per-test and per-operation counts); `retry`: a 429 retried. */
  onSend?: (request: OutgoingRequest, how: { retry: boolean }) => void;
  /**
   * Called with each answer as it comes, a retried 429 included: the run's recording (--record), and
   * the confirmation of failures, which reads what a test's requests got.
   */
  onAnswer?: (exchange: Exchange) => void;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (default: the process's environment). */
  env?: NodeJS.ProcessEnv;
}

/** A CI runner behind an HTTP proxy reaches the target through it; NO_PROXY names what it reaches directly. */
function dispatcherFor(options: HttpOptions): Dispatcher {
  const env = options.env ?? process.env;
  const timeouts = {
    connectTimeout: options.requestTimeoutMs,
    headersTimeout: options.requestTimeoutMs,
    bodyTimeout: options.requestTimeoutMs,
    keepAliveTimeout: 4_000,
    connections: 8,
  };
  const read = (name: string) => env[name] ?? env[name.toLowerCase()];
  const httpProxy = read('HTTP_PROXY');
  const httpsProxy = read('HTTPS_PROXY');
  if (!httpProxy && !httpsProxy) return new Agent(timeouts);
  return new EnvHttpProxyAgent({
    ...timeouts,
    ...(httpProxy ? { httpProxy } : {}),
    ...(httpsProxy ? { httpsProxy } : {}),
    noProxy: read('NO_PROXY') ?? '',
  });
}

const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/**
 * The token endpoint has a rate limit of its own (observed: a bucket of 30, 30 a second), which the
 * management interface's pacer does not see. Where its last answer said this few were left, the
 * next token request waits for its Reset, at most TOKEN_ENDPOINT_MOST_WAIT_MS: a burst of token
 * requests (the token endpoint's matrix rows) is not answered 429, and so not retried, a request
 * the plan does not count.
 */
const TOKEN_ENDPOINT_FLOOR = 1;
const TOKEN_ENDPOINT_MOST_WAIT_MS = 3_000;
const RESET_MARGIN_MS = 50;

export class TargetHttp {
  readonly #options: HttpOptions;
  readonly #agent: Dispatcher;
  /** What the token endpoint's last answer said of its own bucket. */
  #tokenEndpoint: { remaining?: number; resetMs?: number } = {};

  constructor(options: HttpOptions) {
    this.#options = options;
    this.#agent = dispatcherFor(options);
  }

  async send(outgoing: OutgoingRequest, options: SendOptions = {}): Promise<Exchange> {
    checkHeaderValues(outgoing);
    const { pacer } = this.#options;
    const paced = outgoing.rateLimited === true && options.pace !== false;
    const what = `${outgoing.method} ${pathOf(outgoing.url)}`;
    let attempts = 0;
    const tokenEndpoint = outgoing.label === 'token' && options.pace !== false;
    for (;;) {
      attempts += 1;
      if (paced) await pacer.beforeSend(what);
      else if (outgoing.rateLimited) pacer.sentUnpaced();
      if (tokenEndpoint) await this.#beforeTokenRequest();
      const exchange = await this.#sendOnce(outgoing, attempts > 1);
      if (tokenEndpoint) this.#observeTokenEndpoint(exchange.headers);
      this.#options.onAnswer?.(withParsedBody({ ...exchange, attempts }));
      if (outgoing.rateLimited) pacer.observe(exchange.headers, { status: exchange.status, planned429: !paced });
      const retry = exchange.status === 429 && options.retryRateLimited !== false && attempts <= pacer.retries;
      if (!retry) return withParsedBody({ ...exchange, attempts });
      await pacer.beforeRetry(what);
    }
  }

  /** Waits for the token endpoint's Reset where its last answer left it (nearly) empty. */
  async #beforeTokenRequest(): Promise<void> {
    const { remaining, resetMs } = this.#tokenEndpoint;
    if (remaining === undefined || resetMs === undefined || remaining > TOKEN_ENDPOINT_FLOOR) return;
    const waitMs = Math.min(resetMs + RESET_MARGIN_MS - Date.now(), TOKEN_ENDPOINT_MOST_WAIT_MS, this.#options.deadline - Date.now());
    this.#tokenEndpoint = {};
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
  }

  #observeTokenEndpoint(headers: Record<string, string>): void {
    const { remaining, reset } = readRateLimitHeaders(headers);
    this.#tokenEndpoint = { ...(remaining !== undefined ? { remaining } : {}), ...(reset !== undefined ? { resetMs: reset * 1000 } : {}) };
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  async #sendOnce(outgoing: OutgoingRequest, retry: boolean): Promise<Omit<Exchange, 'attempts' | 'json'>> {
    const { budget, deadline, requestTimeoutMs } = this.#options;
    // A request is sent only with its whole timeout before the run's bound: one squeezed into what
    // is left would fail a target that answers in time ("did not answer within 6 ms"); the test
    // is skipped for time instead.
    const remainingRunMs = deadline - Date.now();
    if (remainingRunMs < requestTimeoutMs) {
      throw new HarnessError(
        'RUN_DEADLINE',
        `the run's time bound is ${remainingRunMs <= 0 ? 'reached' : `${(remainingRunMs / 1000).toFixed(1)} s away, less than a request's timeout (${requestTimeoutMs} ms)`}; no further request is sent`,
      );
    }
    budget.take();
    this.#options.onSend?.(outgoing, { retry });
    const started = performance.now();
    const timeoutMs = requestTimeoutMs;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // undici's own timeouts cover a slow target; this one also covers the client getting stuck,
    // so that no request, whatever happens to it, outlives its timeout.
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(
          new HarnessError(
            'TARGET_TIMEOUT',
            `${outgoing.method} ${pathOf(outgoing.url)}: the target did not answer within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
    });
    const exchange = (async () => {
      const response = await request(outgoing.url, {
        method: outgoing.method as 'GET',
        headers: outgoing.headers,
        body: outgoing.chunked && outgoing.body !== undefined ? inChunks(outgoing.body) : outgoing.body,
        dispatcher: this.#agent,
        signal: controller.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await this.#readBody(response.body, outgoing);
      return {
        request: outgoing,
        status: response.statusCode,
        headers: flattenHeaders(response.headers),
        text,
        ms: Math.round(performance.now() - started),
        at: Date.now(),
      };
    })();
    exchange.catch(() => {});
    try {
      return await Promise.race([exchange, expired]);
    } catch (error) {
      throw describeTransportError(error, outgoing, timeoutMs);
    } finally {
      clearTimeout(timer);
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

/**
 * Header values travel as they are: a value that is not visible ASCII, space, tab or obs-text
 * (RFC 9110 5.5: the bytes 0x80 to 0xFF, sent as Latin-1) cannot be sent (CR/LF, DEL, control or
 * non-Latin-1 characters), and undici would refuse it deep inside its connection pool. Such a
 * value comes from the target (a token its endpoint issued), so it is the target's error, reported
 * before anything is sent. The suite's own near misses use obs-text (a no-break space after
 * "Bearer").
 */
function checkHeaderValues(outgoing: OutgoingRequest): void {
  for (const [name, value] of Object.entries(outgoing.headers).flatMap(([n, v]) =>
    Array.isArray(v) ? v.map((one) => [n, one] as const) : [[n, v] as const],
  )) {
    const bad = /[^\t\x20-\x7e\x80-\xff]/.exec(value);
    if (bad) {
      const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(2, '0');
      throw new HarnessError(
        'TARGET_GARBAGE',
        `${outgoing.method} ${pathOf(outgoing.url)}: the ${name} header cannot be sent: its value holds the character U+${code} (a value the target gave, such as an access token, that is not a valid header value)`,
      );
    }
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * A body as a stream of two chunks (its two halves): undici sends a stream of unknown length with
 * Transfer-Encoding: chunked and no Content-Length. Made afresh for every attempt.
 */
function inChunks(body: string): Readable {
  const bytes = Buffer.from(body, 'utf8');
  const half = Math.ceil(bytes.length / 2);
  return Readable.from([bytes.subarray(0, half), bytes.subarray(half)].filter((chunk) => chunk.length > 0));
}

/** Characters of the body an answer's summary keeps. */
const SUMMARY_BODY_CHARS = 1_024;

/**
 * What the run keeps of an answer once the test that read it is over: its status, headers, time
 * and request, and the body's beginning. An answer can be as large as the response cap; a run
 * keeps thousands of summaries, so that bounds its memory whatever the target sends.
 */
export function answerSummary(exchange: Exchange): Exchange {
  // Field by field: spreading the exchange would read (parse) its body.
  const { request, status, headers, text, ms, at, attempts } = exchange;
  const kept = { request, status, headers, ms, at, attempts };
  if (text.length <= SUMMARY_BODY_CHARS) return withParsedBody({ ...kept, text });
  return withParsedBody({ ...kept, text: text.slice(0, SUMMARY_BODY_CHARS), bodyLength: exchange.bodyLength ?? text.length });
}

/** The exchange with its `json` read from its text on demand (see Exchange.json). */
export function withParsedBody(fields: Omit<Exchange, 'json'>): Exchange {
  let held: WeakRef<object> | undefined;
  return Object.defineProperty(fields, 'json', {
    enumerable: true,
    get(): unknown {
      const kept = held?.deref();
      if (kept !== undefined) return kept;
      const value = parseJson(fields.text);
      if (typeof value === 'object' && value !== null) held = new WeakRef(value);
      return value;
    },
  }) as Exchange;
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
    err.name === 'TimeoutError' ||
    err.name === 'AbortError'
  ) {
    return new HarnessError('TARGET_TIMEOUT', `${what}: the target did not answer within ${timeoutMs} ms`);
  }
  if (error instanceof undiciErrors.HTTPParserError || err.code === 'HPE_INVALID_CONSTANT' || String(err.code).startsWith('HPE_')) {
    return new HarnessError('TARGET_GARBAGE', `${what}: the target answered with something that is not HTTP (${err.message ?? err.code})`);
  }
  if (err.code === 'ECONNRESET' || error instanceof undiciErrors.SocketError) {
    return new HarnessError(
      'TARGET_UNREACHABLE',
      `${what}: the target closed the connection without an answer (${err.code ?? err.message})`,
    );
  }
  if (err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND' || err.code === 'EHOSTUNREACH') {
    return new HarnessError('TARGET_UNREACHABLE', `${what}: the target cannot be reached (${err.code})`);
  }
  return new HarnessError('TARGET_UNREACHABLE', `${what}: the request failed (${err.code ?? err.name ?? 'error'}: ${err.message ?? ''})`);
}
