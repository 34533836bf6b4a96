// A recording proxy on loopback: clients talk to it as they would to the target, it forwards each
// request to the target (loopback too) and writes the exchange, redacted, as it happens: NDJSON
// of recorded exchanges, or a HAR 1.2 file. The Host header travels unchanged, so a target that
// names itself after the host it was reached at (the mock does) sees the proxy's host, as a client
// of the proxy does. HTTPS toward the clients with a certificate given (an SDK that only speaks
// HTTPS); plain HTTP toward the target.
import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { recordOf, SecretDigester, type RecordedExchange } from '../harness/exchange-record.ts';
import { redactor } from '../harness/redact.ts';

export interface RecordingProxyOptions {
  /** The target's origin, on loopback: http://127.0.0.1:PORT. */
  upstream: string;
  /** Where the recording goes, and as what. */
  output: { path: string; format: 'ndjson' | 'har' };
  /** PEM certificate and key: the proxy then speaks HTTPS to its clients. */
  tls?: { cert: string; key: string };
  port?: number;
}

export interface RecordingProxy {
  /** The proxy's origin, for the clients. */
  url: string;
  /** Exchanges written so far. */
  readonly count: number;
  /** Stops listening and finishes the file (a HAR file is whole only then). */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Hop-by-hop headers (RFC 9110 section 7.6.1) end at the proxy. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

export async function startRecordingProxy(options: RecordingProxyOptions): Promise<RecordingProxy> {
  const upstream = new URL(options.upstream);
  if (!LOOPBACK.has(upstream.hostname)) throw new Error(`the recording proxy forwards to loopback only, not ${upstream.hostname}`);
  const writer = options.output.format === 'har' ? harWriter(options.output.path) : ndjsonWriter(options.output.path);
  const digester = new SecretDigester();
  const agent = new Agent({ keepAliveTimeout: 1_000 });
  const scheme = options.tls ? 'https' : 'http';
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    void forward(req, res).catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'recording proxy', message: (error as Error).message }));
    });
  };
  const server: Server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, handle)
    : createHttpServer(handle);

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = headersOf(req.headers);
    const answer = await request(new URL(req.url ?? '/', upstream), {
      method: req.method as 'GET',
      headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name))),
      ...(body.length > 0 ? { body } : {}),
      dispatcher: agent,
    });
    const text = Buffer.from(await answer.body.arrayBuffer());
    const responseHeaders = headersOf(answer.headers);
    res.writeHead(answer.statusCode, Object.fromEntries(Object.entries(responseHeaders).filter(([name]) => !HOP_BY_HOP.has(name))));
    res.end(text);
    writer.write(
      recordOf(
        {
          startedAt: new Date(started).toISOString(),
          durationMs: Date.now() - started,
          request: {
            method: req.method ?? 'GET',
            url: `${scheme}://${headers.host ?? upstream.host}${req.url ?? '/'}`,
            headers,
            ...(body.length > 0 ? { body: body.toString('utf8') } : {}),
          },
          response: { status: answer.statusCode, headers: responseHeaders, body: text.toString('utf8') },
        },
        digester,
        (value) => redactor.redact(value),
      ),
    );
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    get count() {
      return writer.count;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await agent.close();
      writer.finish();
    },
  };
}

function headersOf(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw))
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

interface Writer {
  readonly count: number;
  write(exchange: RecordedExchange): void;
  finish(): void;
}

function ndjsonWriter(path: string): Writer {
  writeFileSync(path, '');
  let count = 0;
  return {
    get count() {
      return count;
    },
    write(exchange) {
      appendFileSync(path, `${JSON.stringify(exchange)}\n`);
      count += 1;
    },
    finish() {},
  };
}

/** A HAR file written as it goes: its head, each entry as it comes, its tail when the proxy closes. */
function harWriter(path: string): Writer {
  writeFileSync(path, '{"log":{"version":"1.2","creator":{"name":"mgmt-api-conformance recording proxy","version":"1"},"entries":[\n');
  let count = 0;
  return {
    get count() {
      return count;
    },
    write(exchange) {
      appendFileSync(path, `${count > 0 ? ',\n' : ''}${JSON.stringify(harEntry(exchange))}`);
      count += 1;
    },
    finish() {
      appendFileSync(path, '\n]}}\n');
    },
  };
}

function harEntry(exchange: RecordedExchange): unknown {
  const list = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => ({ name, value }));
  const { request: req, response: res } = exchange;
  return {
    startedDateTime: exchange.startedAt,
    time: exchange.durationMs ?? 0,
    request: {
      method: req.method,
      url: req.url,
      httpVersion: 'HTTP/1.1',
      headers: list(req.headers),
      queryString: [...new URL(req.url).searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: req.body?.length ?? 0,
      ...(req.body !== undefined ? { postData: { mimeType: req.headers['content-type'] ?? '', text: req.body } } : {}),
    },
    response: {
      status: res.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: list(res.headers),
      cookies: [],
      content: {
        size: res.body?.length ?? 0,
        mimeType: res.headers['content-type'] ?? '',
        ...(res.body !== undefined ? { text: res.body } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: res.body?.length ?? 0,
    },
    cache: {},
    timings: { send: 0, wait: exchange.durationMs ?? 0, receive: 0 },
    ...(exchange.tokens ? { _tokens: exchange.tokens } : {}),
    ...(exchange.digests ? { _digests: exchange.digests } : {}),
  };
}
