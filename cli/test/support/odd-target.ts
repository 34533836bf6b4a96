// A small target that misbehaves on demand, for the end-to-end tests and the memory bench: a
// server nobody on the team would write, whose token endpoint, JWKS and operation routes can each
// be told what to answer (nothing at all, a 200 without a token, a redirect, a body up to the
// response cap made of nested arrays, escape codes and control characters...). It knows nothing
// of the contract: a run against it says how the suite copes with what it sends, not whether it
// conforms. Loopback only, port 0.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

/** What one route answers. */
export type Answer =
  /** No such route: 404 with a small JSON body. */
  | { kind: 'absent' }
  /** The route works as a minimal target's would: an RS256 JWT of its own key, that key's set, `{}`. */
  | { kind: 'plausible' }
  /** A 200 JSON body without an access token (for the token endpoint). */
  | { kind: 'no-token' }
  /** A redirect to `location`. */
  | { kind: 'redirect'; status?: 301 | 302 | 307 | 308; location: string }
  /** A fixed answer: status, content type and body bytes, and extra headers. */
  | { kind: 'fixed'; status: number; contentType?: string; body: string | Buffer; headers?: Record<string, string> };

export interface OddTargetOptions {
  token?: Answer;
  jwks?: Answer;
  /** Every request under /api/v2/. */
  operations?: Answer;
  /** Headers added to every answer of the operations (rate-limit headers); default: a bucket nobody empties. */
  rateLimitHeaders?: (now: number) => Record<string, string>;
  /** How long each operation takes to answer, in ms (default at once). */
  operationDelayMs?: number;
}

export interface OddTarget {
  /** Its origin, http://127.0.0.1:PORT. */
  url: string;
  /** Requests received, per route. */
  requests: { token: number; jwks: number; operations: number; other: number };
  stop(): Promise<void>;
}

/** The JSON body of `bytes` bytes made of arrays nested as deep as it takes: `[[[...]]]`. */
export function nestedArrays(bytes: number): string {
  const depth = Math.floor(bytes / 2);
  return '['.repeat(depth) + ']'.repeat(depth);
}

/** The JSON body of about `bytes` bytes made of many small arrays side by side: `[[0],[0],...]`. */
export function wideArrays(bytes: number): string {
  const count = Math.max(1, Math.floor((bytes - 2) / 4));
  return `[${Array.from({ length: count }, () => '[0]').join(',')}]`;
}

/**
 * Text a terminal acts on rather than shows: clear the screen, set the window title, hide what
 * follows, a C1 control sequence introducer, a carriage return that overwrites the line with a
 * fake verdict, and a right-to-left override.
 */
export const TERMINAL_TRICKS = '\u001b[2J\u001b]0;owned\u0007\u001b[8mhidden\u001b[0m\u009b31m\rRESULT: PASS\u202e';

/** A generous bucket that is never emptied: what a test double with room to spare says. */
export const roomyRateLimit = (now: number): Record<string, string> => ({
  'x-ratelimit-limit': '100000',
  'x-ratelimit-remaining': '99999',
  'x-ratelimit-reset': String(Math.ceil(now / 1000) + 1),
});

/** The odd target's signing key: its tokens are JWTs, so tests that make wrong tokens from one can. */
interface Keys {
  sign: (claims: Record<string, unknown>) => Promise<string>;
  jwk: JWK;
}

async function keys(): Promise<Keys> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'odd-target-key';
  return {
    sign: (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid }).setIssuedAt().setExpirationTime('1d').sign(privateKey),
    jwk: { ...(await exportJWK(publicKey)), kid, use: 'sig', alg: 'RS256' },
  };
}

export async function startOddTarget(options: OddTargetOptions = {}): Promise<OddTarget> {
  const requests = { token: 0, jwks: 0, operations: 0, other: 0 };
  const sockets = new Set<Socket>();
  const own = await keys();
  let origin = '';
  const server: Server = createServer((req, res) => {
    // The body is read whole before answering, so a large request never meets a closed socket.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => void answer(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  const answer = async (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = new URL(req.url ?? '/', 'http://odd.invalid').pathname;
    if (/^\/oauth\/token\/?$/.test(path)) {
      requests.token += 1;
      const fields = new URLSearchParams(body);
      const token = await own.sign({
        iss: `${origin}/`,
        aud: fields.get('audience') ?? `${origin}/api/v2/`,
        sub: `${fields.get('client_id') ?? 'client'}@clients`,
        azp: fields.get('client_id') ?? 'client',
        scope: 'update:event_deliveries create:sso_access_tickets read:flows_vault_connections',
        gty: 'client-credentials',
      });
      return send(res, options.token ?? { kind: 'plausible' }, 'token', {}, { token, jwk: own.jwk });
    }
    if (path === '/.well-known/jwks.json') {
      requests.jwks += 1;
      return send(res, options.jwks ?? { kind: 'plausible' }, 'jwks', {}, { token: '', jwk: own.jwk });
    }
    if (path.startsWith('/api/v2/')) {
      requests.operations += 1;
      const reply = () =>
        send(res, options.operations ?? { kind: 'plausible' }, 'operation', (options.rateLimitHeaders ?? roomyRateLimit)(Date.now()));
      if (options.operationDelayMs) setTimeout(reply, options.operationDelayMs);
      else reply();
      return;
    }
    requests.other += 1;
    return send(res, { kind: 'absent' }, 'other');
  };
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    requests,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function send(
  res: ServerResponse,
  answer: Answer,
  route: 'token' | 'jwks' | 'operation' | 'other',
  extra: Record<string, string> = {},
  own: { token: string; jwk: JWK } = { token: '', jwk: {} },
): void {
  const json = (status: number, value: unknown) => write(res, status, 'application/json', JSON.stringify(value), extra);
  switch (answer.kind) {
    case 'absent':
      return json(404, { statusCode: 404, error: 'Not Found', message: 'no such route' });
    case 'plausible':
      if (route === 'token') return json(200, { access_token: own.token, token_type: 'Bearer', expires_in: 86400 });
      if (route === 'jwks') return json(200, { keys: [own.jwk] });
      return json(route === 'operation' ? 200 : 404, {});
    case 'no-token':
      return json(200, { token_type: 'Bearer', expires_in: 86400 });
    case 'redirect':
      res.writeHead(answer.status ?? 302, { location: answer.location, 'content-length': 0, ...extra });
      res.end();
      return;
    case 'fixed':
      return write(res, answer.status, answer.contentType, answer.body, { ...extra, ...answer.headers });
  }
}

function write(
  res: ServerResponse,
  status: number,
  contentType: string | undefined,
  body: string | Buffer,
  headers: Record<string, string>,
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, { ...(contentType ? { 'content-type': contentType } : {}), 'content-length': bytes.length, ...headers });
  res.end(bytes);
}
