// A target that hangs, resets, answers garbage or floods gives a clear HarnessError, never a hang.
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestBudget } from '../budget.ts';
import { HarnessError } from '../errors.ts';
import { TargetHttp } from '../http.ts';
import { RateLimitPacer } from '../pacer.ts';

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A client of the targets below. Its request timeout is long by default: these targets answer at
 * once, and a test worker that shares the machine with whole runs can take more than a few hundred
 * milliseconds to read an answer. A test of the timeout itself sets a short one.
 */
function client(options: { max?: number; timeoutMs?: number; deadline?: number; sleep?: (ms: number) => Promise<void> } = {}) {
  const budget = new RequestBudget(options.max ?? 10);
  const pacer = new RateLimitPacer({ share: 1, testDouble: true, deadline: Date.now() + 60_000, sleep: options.sleep ?? (async () => {}) });
  const http = new TargetHttp({
    budget,
    pacer,
    requestTimeoutMs: options.timeoutMs ?? 10_000,
    deadline: options.deadline ?? Date.now() + 60_000,
  });
  return { http, budget, pacer };
}

async function failureOf(promise: Promise<unknown>): Promise<HarnessError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HarnessError);
  return error as HarnessError;
}

describe('TargetHttp against a misbehaving target', () => {
  it('reports a target that never answers as a timeout', async () => {
    const url = await listen(createNetServer(() => {}));
    const { http } = client({ timeoutMs: 300 });
    const error = await failureOf(http.send({ method: 'GET', url: `${url}/api/v2/x`, headers: {} }));
    expect(error.code).toBe('TARGET_TIMEOUT');
    expect(error.message).toMatch(/GET \/api\/v2\/x: the target did not answer within 300 ms/);
    await http.close();
  });

  it('reports a reset connection', async () => {
    const url = await listen(createNetServer((socket) => socket.resetAndDestroy()));
    const { http } = client();
    const error = await failureOf(http.send({ method: 'GET', url, headers: {} }));
    expect(error.code).toBe('TARGET_UNREACHABLE');
    await http.close();
  });

  it('reports an answer that is not HTTP', async () => {
    const url = await listen(createNetServer((socket) => socket.end('\u0000\u0001garbage that is not http\r\n\r\n')));
    const { http } = client();
    const error = await failureOf(http.send({ method: 'GET', url, headers: {} }));
    expect(['TARGET_GARBAGE', 'TARGET_UNREACHABLE']).toContain(error.code);
    expect(error.message).toMatch(/GET \//);
    await http.close();
  });

  it('refuses a response body over the size cap', async () => {
    const url = await listen(createHttpServer((_, res) => res.end('x'.repeat(2 * 1024 * 1024))));
    const { http } = client();
    const error = await failureOf(http.send({ method: 'GET', url, headers: {} }));
    expect(error.code).toBe('TARGET_GARBAGE');
    expect(error.message).toMatch(/exceeds/);
    await http.close();
  });

  it('reports a closed port as unreachable', async () => {
    const url = await listen(createNetServer());
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const { http } = client();
    const error = await failureOf(http.send({ method: 'GET', url, headers: {} }));
    expect(error.code).toBe('TARGET_UNREACHABLE');
    await http.close();
  });
});

describe('TargetHttp budget, deadline and pacing', () => {
  it('sends no request beyond the budget', async () => {
    let received = 0;
    const url = await listen(
      createHttpServer((_, res) => {
        received += 1;
        res.end('{}');
      }),
    );
    const { http, budget } = client({ max: 2 });
    await http.send({ method: 'GET', url, headers: {} });
    await http.send({ method: 'GET', url, headers: {} });
    const error = await failureOf(http.send({ method: 'GET', url, headers: {} }));
    expect(error.code).toBe('BUDGET_EXHAUSTED');
    expect(received).toBe(2);
    expect(budget.used).toBe(2);
    await http.close();
  });

  it('sends nothing after the run deadline', async () => {
    const { http } = client({ deadline: Date.now() - 1 });
    const error = await failureOf(http.send({ method: 'GET', url: 'http://127.0.0.1:9/', headers: {} }));
    expect(error.code).toBe('RUN_DEADLINE');
    await http.close();
  });

  it('sends no request the deadline would cut short (its timeout would be squeezed)', async () => {
    let received = 0;
    const url = await listen(
      createHttpServer((_, res) => {
        received += 1;
        setTimeout(() => res.end('{}'), 150);
      }),
    );
    const cut = client({ timeoutMs: 1_000, deadline: Date.now() + 500 });
    const error = await failureOf(cut.http.send({ method: 'GET', url, headers: {} }));
    expect(error.code).toBe('RUN_DEADLINE');
    expect(error.message).toMatch(/less than a request's timeout \(1000 ms\); no further request is sent/);
    expect(received).toBe(0);
    await cut.http.close();
  });

  it('retries a 429 after Reset at most twice and returns the last answer', async () => {
    let received = 0;
    const reset = Math.ceil(Date.now() / 1000) + 1;
    const url = await listen(
      createHttpServer((_, res) => {
        received += 1;
        res.writeHead(429, { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) });
        res.end('{}');
      }),
    );
    const waits: number[] = [];
    const { http, pacer } = client({ sleep: async (ms) => void waits.push(ms) });
    const exchange = await http.send({ method: 'GET', url, headers: {}, rateLimited: true });
    expect(exchange.status).toBe(429);
    expect(exchange.attempts).toBe(3);
    expect(received).toBe(3);
    expect(waits.length).toBeGreaterThanOrEqual(2);
    expect(waits.every((ms) => ms > 0 && ms <= 2_100)).toBe(true);
    expect(pacer.unplanned429s).toBe(3);
    await http.close();
  });

  it('does not retry a 429 when told not to', async () => {
    let received = 0;
    const url = await listen(
      createHttpServer((_, res) => {
        received += 1;
        res.writeHead(429, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000)) });
        res.end('{}');
      }),
    );
    const { http, pacer } = client();
    const exchange = await http.send({ method: 'GET', url, headers: {}, rateLimited: true }, { retryRateLimited: false, pace: false });
    expect(exchange.attempts).toBe(1);
    // Spending the limit on purpose: the 429 was planned.
    expect(pacer.unplanned429s).toBe(0);
    expect(received).toBe(1);
    await http.close();
  });

  it('parses JSON bodies and lower-cases header names', async () => {
    const url = await listen(
      createHttpServer((_, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-RateLimit-Limit': '50' });
        res.end('{"a":1}');
      }),
    );
    const { http } = client();
    const exchange = await http.send({ method: 'GET', url, headers: {} });
    expect(exchange.json).toEqual({ a: 1 });
    expect(exchange.headers['x-ratelimit-limit']).toBe('50');
    await http.close();
  });
});

describe('TargetHttp sends obs-text in a header value', () => {
  it('sends a no-break space as the byte 0xA0 (RFC 9110 5.5 obs-text, Latin-1)', async () => {
    let seen: Buffer | undefined;
    const url = await listen(
      createHttpServer((req, res) => {
        seen = Buffer.from(req.headers.authorization ?? '', 'latin1');
        res.end('{}');
      }),
    );
    const { http } = client();
    expect((await http.send({ method: 'GET', url, headers: { authorization: 'Bearer\u00a0abc' } })).status).toBe(200);
    expect(seen).toEqual(Buffer.from([...Buffer.from('Bearer'), 0xa0, ...Buffer.from('abc')]));
    await http.close();
  });
});

describe('TargetHttp refuses what cannot be a header value', () => {
  it.each([
    ['CR/LF', 'Bearer abc\r\nX-Injected: 1', 'U+0D'],
    ['DEL', 'Bearer abc\u007f', 'U+7F'],
    ['a non-Latin-1 character', 'Bearer abc\u20ac', 'U+20AC'],
  ])("refuses a value with %s before sending, as the target's error, and keeps working", async (_, authorization, code) => {
    let received = 0;
    const url = await listen(
      createHttpServer((_, res) => {
        received += 1;
        res.end('{}');
      }),
    );
    const { http, budget } = client();
    for (let i = 0; i < 10; i += 1) {
      const error = await failureOf(http.send({ method: 'GET', url: `${url}/api/v2/x`, headers: { authorization } }));
      expect(error.code).toBe('TARGET_GARBAGE');
      expect(error.message).toContain(`GET /api/v2/x: the authorization header cannot be sent: its value holds the character ${code}`);
    }
    expect(received).toBe(0);
    expect(budget.used).toBe(0);
    // Nothing jammed: a good request still goes through at once.
    expect((await http.send({ method: 'GET', url, headers: { authorization: 'Bearer abc' } })).status).toBe(200);
    await http.close();
  });
});

describe('TargetHttp behind an HTTP proxy', () => {
  it('goes through HTTP_PROXY, and straight to what NO_PROXY names', async () => {
    const target = await listen(createHttpServer((_, res) => res.end('{"from":"target"}')));
    const proxied: string[] = [];
    // A forward proxy: undici asks it for a tunnel (CONNECT host:port), then speaks through it.
    const proxyServer = createHttpServer((_, res) => res.writeHead(405).end());
    proxyServer.on('connect', (req, client: Socket, head: Buffer) => {
      proxied.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('error', () => client.destroy());
    });
    const proxy = await listen(proxyServer);
    const budget = new RequestBudget(10);
    const pacer = new RateLimitPacer({ share: 1, testDouble: true, deadline: Date.now() + 60_000 });
    const through = new TargetHttp({ budget, pacer, requestTimeoutMs: 2_000, deadline: Date.now() + 60_000, env: { HTTP_PROXY: proxy } });
    expect((await through.send({ method: 'GET', url: `${target}/api/v2/x`, headers: {} })).json).toEqual({ from: 'target' });
    expect(proxied).toEqual([new URL(target).host]);
    const direct = new TargetHttp({
      budget,
      pacer,
      requestTimeoutMs: 2_000,
      deadline: Date.now() + 60_000,
      env: { HTTP_PROXY: proxy, NO_PROXY: '127.0.0.1' },
    });
    await direct.send({ method: 'GET', url: `${target}/api/v2/y`, headers: {} });
    expect(proxied).toHaveLength(1);
    await through.close();
    await direct.close();
  });
});

describe("TargetHttp and the token endpoint's own rate limit", () => {
  /** A token endpoint with a bucket of `size`, refilled `perSecond`, that says so in its X-RateLimit headers and answers 429 when empty. */
  async function tokenEndpoint(size: number, perSecond: number): Promise<{ url: string; statuses: number[] }> {
    let tokens = size;
    let at = Date.now();
    const statuses: number[] = [];
    const url = await listen(
      createHttpServer((_, res) => {
        const now = Date.now();
        tokens = Math.min(size, tokens + ((now - at) / 1000) * perSecond);
        at = now;
        const allowed = tokens >= 1;
        if (allowed) tokens -= 1;
        const reset = Math.ceil((now + ((1 - (tokens % 1)) / perSecond) * 1000) / 1000);
        res.setHeader('x-ratelimit-limit', String(size));
        res.setHeader('x-ratelimit-remaining', String(Math.floor(tokens)));
        res.setHeader('x-ratelimit-reset', String(reset));
        statuses.push(allowed ? 200 : 429);
        res.statusCode = allowed ? 200 : 429;
        res.end('{}');
      }),
    );
    return { url, statuses };
  }

  const burst = (http: TargetHttp, url: string, label: string, count: number) =>
    (async () => {
      const attempts: number[] = [];
      for (let i = 0; i < count; i += 1) {
        attempts.push((await http.send({ method: 'POST', url: `${url}/oauth/token`, headers: {}, label })).attempts);
      }
      return attempts;
    })();

  it('waits for its Reset before the bucket is empty, so a burst of token requests meets no 429 and sends no retry', async () => {
    const endpoint = await tokenEndpoint(3, 4);
    const { http, budget } = client({ max: 20 });
    const attempts = await burst(http, endpoint.url, 'token', 7);
    expect(attempts).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(endpoint.statuses).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(budget.used).toBe(7);
    await http.close();
  });

  it('leaves requests that are not token requests to the pacer of the management interface (a control: the same burst meets the 429)', async () => {
    const endpoint = await tokenEndpoint(3, 4);
    const { http } = client({ max: 20 });
    await burst(http, endpoint.url, 'other', 7);
    expect(endpoint.statuses).toContain(429);
    await http.close();
  });
});
