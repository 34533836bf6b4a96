// Raw TCP to the mock, for what an HTTP client library will not send: garbage, half requests,
// trickled bytes. Reads one HTTP/1.1 response off the socket.
import { connect, type Socket } from 'node:net';
import type { MockServer } from '../../index.ts';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes, resolves with the first response (or undefined when the socket closes without one). */
export function rawRequest(
  mock: MockServer,
  bytes: string | Buffer,
  options: { timeoutMs?: number; head?: boolean } = {},
): Promise<RawResponse | undefined> {
  return new Promise((resolve, reject) => {
    const socket = connect(mock.port, mock.host);
    collectResponse(socket, options.timeoutMs ?? 5_000, options.head).then(resolve, reject);
    socket.on('connect', () => socket.write(bytes));
  });
}

/** Reads one response off a socket: status line, headers, and a body of content-length bytes (none for HEAD). */
export function collectResponse(socket: Socket, timeoutMs: number, head = false): Promise<RawResponse | undefined> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    let done = false;
    const finish = (value: RawResponse | undefined, error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(value);
    };
    const timer = setTimeout(() => finish(undefined, new Error(`no complete response within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const parsed = parseResponse(buffer, head);
      if (parsed) finish(parsed);
    });
    socket.on('error', () => finish(parseResponse(buffer, head)));
    socket.on('close', () => finish(parseResponse(buffer, head)));
  });
}

function parseResponse(buffer: Buffer, head: boolean): RawResponse | undefined {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  const length = head ? 0 : Number(headers['content-length'] ?? 0);
  const body = buffer.subarray(end + 4);
  if (body.length < length) return undefined;
  return { status: Number(statusLine.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8') };
}
