// The HTTP side: a node:http server on a loopback address that reads each request (its body up to
// a size limit), hands it to the app as an Exchange, and writes the Reply the app returns. It
// also answers what never reaches the app (bytes the parser cannot read, a request that is too
// slow to arrive, CONNECT) with a JSON error, so that every answer is JSON, and it never lets a
// client hang it: headers and whole requests have deadlines, idle sockets are closed.
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ServerProblem } from './app.ts';
import type { Clock } from './clock.ts';
import type { Exchange, Reply } from './exchange.ts';
import { reasonPhrase } from './errors.ts';

export interface Timeouts {
  /** Time allowed to receive a request's headers. */
  headersMs: number;
  /** Time allowed to receive a whole request, headers and body; also the idle-socket limit. */
  requestMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveMs: number;
}

export const defaultTimeouts: Timeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };
export const defaultMaxBodyBytes = 1024 * 1024;

/** Past this much more than the limit, an oversized body is not drained: answer 413 and close. */
const DRAIN_FACTOR = 8;

export interface Dispatcher {
  handle(exchange: Exchange): Promise<Reply>;
  problem(kind: ServerProblem, detail?: string): Reply;
}

export interface HttpServerConfig {
  host: string;
  port: number;
  timeouts: Timeouts;
  maxBodyBytes: number;
  clock: Clock;
  /** Access log: one line per request. */
  log?: (line: string) => void;
  /** Problems of the mock itself (a bug answered 500); never request data. */
  report: (line: string) => void;
  /** HTTPS with this certificate and key; plain HTTP without. */
  tls?: { cert: string; key: string };
}

export interface HttpServer {
  server: Server;
  /** Starts listening; resolves with the origin, e.g. http://127.0.0.1:4010 (https:// with TLS). */
  listen(): Promise<{ origin: string; port: number }>;
  close(): Promise<void>;
}

export function createHttpServer(config: HttpServerConfig, dispatcher: Dispatcher): HttpServer {
  const { timeouts, clock } = config;
  const options: ServerOptions = {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // How often deadlines are checked: often enough for short test deadlines to be exact.
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeouts.headersMs / 5))),
    // A request without Host is still answered by the app (in JSON), not refused by Node.
    requireHostHeader: false,
  };
  const server: Server = config.tls ? createTlsServer({ ...options, cert: config.tls.cert, key: config.tls.key }) : createServer(options);
  // A client that sends its request and then half-closes (shuts down its sending side) still gets
  // its answer: by default Node would end the socket as soon as the client's side ends.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // A socket with no traffic either way for as long as a whole request may take is closed.
  server.timeout = timeouts.requestMs;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => void serve(req, res));
  // Node answers unknown Expect values with a bare 417; the mock answers the request instead.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => void serve(req, res));
  server.on('connect', (req: IncomingMessage, socket: Duplex) => void answerOnSocket(socket, req.method ?? 'CONNECT', req.url ?? ''));
  server.on('clientError', onClientError);

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { path, query } = splitTarget(req.url ?? '');
    if (config.log) logWhenFinished(req, res, path, config.log);
    // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 section 6.3);
    // answering it without waiting a tick lets pipelined answers leave in one write.
    const read = hasBody(req) ? await readBody(req, config.maxBodyBytes) : NO_BODY;
    if (!read) return; // The client went away mid-body: nobody to answer.
    const exchange: Exchange = {
      method: req.method ?? '',
      path,
      query,
      headers: req.headers,
      repeatedHeaders: repeatedHeaders(req.rawHeaders),
      body: read.body,
      bodyTooLarge: read.tooLarge,
      params: {},
    };
    writeReply(res, await dispatch(exchange), !read.complete);
  }

  function logWhenFinished(req: IncomingMessage, res: ServerResponse, path: string, log: (line: string) => void): void {
    const started = performance.now();
    res.on('finish', () => log(accessLine(req.method ?? '', path, res.statusCode, started)));
  }

  async function dispatch(exchange: Exchange): Promise<Reply> {
    try {
      return await dispatcher.handle(exchange);
    } catch (error) {
      config.report(`mock: internal error: ${error instanceof Error ? error.message : String(error)}`);
      return dispatcher.problem('internal_error');
    }
  }

  function writeReply(res: ServerResponse, reply: Reply, close: boolean, fallback = true): void {
    const payload = reply.body === undefined ? undefined : Buffer.from(JSON.stringify(reply.body), 'utf8');
    const headers: Record<string, string> = Object.assign({}, reply.headers);
    headers.date = httpDate(clock);
    headers['content-length'] = String(payload?.length ?? 0);
    if (close) headers.connection = 'close';
    res.sendDate = false;
    try {
      res.writeHead(reply.status, headers);
    } catch (error) {
      // A status or header value no reply should hold (say, from a fault): answer 500 instead.
      if (!fallback) throw error;
      config.report(`mock: unwritable reply: ${error instanceof Error ? error.message : String(error)}`);
      writeReply(res, dispatcher.problem('internal_error'), close, false);
      return;
    }
    res.end(payload);
  }

  async function answerOnSocket(socket: Duplex, method: string, target: string): Promise<void> {
    const { path, query } = splitTarget(target);
    const reply = await dispatch({
      method,
      path,
      query,
      headers: {},
      repeatedHeaders: [],
      body: Buffer.alloc(0),
      bodyTooLarge: false,
      params: {},
    });
    writeRaw(socket, reply);
  }

  function onClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
    const inProgress = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inProgress?.headersSent) {
      socket.destroy();
      return;
    }
    const kind: ServerProblem =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? 'header_fields_too_large'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'request_timeout'
          : 'bad_request';
    writeRaw(socket, dispatcher.problem(kind, `the request is not valid HTTP/1.1 (${error.code ?? 'parse error'})`));
  }

  function writeRaw(socket: Duplex, reply: Reply): void {
    const payload = Buffer.from(JSON.stringify(reply.body ?? {}), 'utf8');
    const headers = Object.assign({}, reply.headers, {
      date: httpDate(clock),
      'content-length': String(payload.length),
      connection: 'close',
    });
    const head = [`HTTP/1.1 ${reply.status} ${reasonPhrase(reply.status)}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join(
      '\r\n',
    );
    socket.on('error', () => socket.destroy());
    socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), payload]));
  }

  let closing: Promise<void> | undefined;
  return {
    server,
    listen() {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          server.off('error', reject);
          const address = server.address();
          const port = typeof address === 'object' && address ? address.port : config.port;
          resolve({
            origin: `${config.tls ? 'https' : 'http'}://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
            port,
          });
        });
      });
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests still running get a moment to finish, then their connections are cut.
        setTimeout(() => server.closeAllConnections(), 500).unref();
      });
      return closing;
    },
  };
}

/**
 * Headers a request may carry once, that Node reduces to their first value when sent again: the
 * app refuses such a request rather than let the first silently win.
 */
const SINGLE_HEADERS = new Set(['authorization']);

function repeatedHeaders(raw: readonly string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!SINGLE_HEADERS.has(name)) continue;
    if (seen.has(name)) repeated.add(name);
    seen.add(name);
  }
  return [...repeated];
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
}

interface BodyRead {
  body: Buffer;
  tooLarge: boolean;
  /** False when the body was not read to its end (then the connection closes after the reply). */
  complete: boolean;
}

const NO_BODY: BodyRead = { body: Buffer.alloc(0), tooLarge: false, complete: true };

/** Reads a body up to `limit` bytes, draining (not keeping) a moderately larger one. */
function readBody(req: IncomingMessage, limit: number): Promise<BodyRead | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (value: BodyRead | undefined) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > limit * (1 + DRAIN_FACTOR)) {
        req.removeAllListeners('data');
        req.pause();
        settle({ body: Buffer.concat(chunks), tooLarge: true, complete: false });
      }
    });
    req.on('end', () => settle({ body: Buffer.concat(chunks), tooLarge: size > limit, complete: true }));
    req.on('error', () => settle(undefined));
    req.on('close', () => {
      if (!req.complete) settle(undefined);
    });
  });
}

/** Path and query of a request target, as sent. An absolute-form target keeps its path only. */
export function splitTarget(target: string): { path: string; query: string } {
  let pathAndQuery = target;
  if (!target.startsWith('/') && /^https?:\/\//i.test(target)) {
    const afterAuthority = target.indexOf('/', target.indexOf('//') + 2);
    pathAndQuery = afterAuthority < 0 ? '/' : target.slice(afterAuthority);
  }
  const q = pathAndQuery.indexOf('?');
  return q < 0 ? { path: pathAndQuery, query: '' } : { path: pathAndQuery.slice(0, q), query: pathAndQuery.slice(q + 1) };
}

let dateCache = { second: Number.NaN, text: '' };

/** The Date header from the injected clock, formatted once per second. */
function httpDate(clock: Clock): string {
  const second = Math.floor(clock.now() / 1000);
  if (second !== dateCache.second) dateCache = { second, text: new Date(second * 1000).toUTCString() };
  return dateCache.text;
}

const LOGGED_PATH_LENGTH = 200;

/** One access-log line; the path only (a query may carry secrets), printable and bounded. */
function accessLine(method: string, path: string, status: number, started: number): string {
  const printable = path.replace(/[^\x21-\x7e]/g, '?');
  const shown = printable.length > LOGGED_PATH_LENGTH ? `${printable.slice(0, LOGGED_PATH_LENGTH)}...` : printable;
  return `${method} ${shown} ${status} ${(performance.now() - started).toFixed(1)}ms`;
}
