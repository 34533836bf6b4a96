// Slow clients are cut off: a client that trickles its headers, its body, or sends nothing gets
// a JSON 408 (or a closed socket) once the configured deadline passes, and the mock keeps
// answering others. Real sockets and real time, with deadlines of a few hundred milliseconds.
import { connect } from 'node:net';
import { expect, test } from 'vitest';
import { observed } from '../../specs/index.ts';
import { call } from './support/http.ts';
import { mockForTest } from './support/mock.ts';
import { collectResponse } from './support/raw.ts';

const timeouts = { headersMs: 300, requestMs: 500, keepAliveMs: 300 };
const TRICKLE_MS = 50;

/** Opens a socket, writes `first`, then one `unit` every TRICKLE_MS until the socket closes. */
function trickle(port: number, first: string, unit: string) {
  const socket = connect(port, '127.0.0.1');
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  socket.on('connect', () => {
    socket.write(first);
    timer = setInterval(() => socket.writable && socket.write(unit), TRICKLE_MS);
  });
  socket.on('close', () => clearInterval(timer));
  return { socket, started };
}

test('a client trickling its headers gets a JSON 408 once the headers deadline passes', async () => {
  const mock = await mockForTest({ timeouts });
  const { socket, started } = trickle(mock.port, 'GET /api/v2/unknown HTTP/1.1\r\nHost: x\r\n', 'X-Slow: y\r\n');
  const response = await collectResponse(socket, 5_000);
  const elapsed = Date.now() - started;
  expect(response?.status).toBe(408);
  expect(response?.headers['content-type']).toBe(observed.content_type);
  expect(JSON.parse(response!.body)).toMatchObject({ statusCode: 408, error: 'Request Timeout' });
  expect(elapsed).toBeGreaterThanOrEqual(timeouts.headersMs - 20);
  expect(elapsed).toBeLessThan(3_000);
});

test('a client trickling its body gets a JSON 408 once the request deadline passes', async () => {
  const mock = await mockForTest({ timeouts });
  const { socket, started } = trickle(
    mock.port,
    'POST /api/v2/unknown HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
    ' ',
  );
  const response = await collectResponse(socket, 5_000);
  const elapsed = Date.now() - started;
  expect(response?.status).toBe(408);
  expect(elapsed).toBeGreaterThanOrEqual(timeouts.requestMs - 20);
  expect(elapsed).toBeLessThan(3_000);
});

test('a connection that sends nothing gets a JSON 408 once the headers deadline passes', async () => {
  const mock = await mockForTest({ timeouts });
  const socket = connect(mock.port, '127.0.0.1');
  const started = Date.now();
  const response = await collectResponse(socket, 5_000);
  expect(response?.status).toBe(408);
  expect(Date.now() - started).toBeLessThan(3_000);
});

test('the mock still answers others while and after slow clients are cut off', async () => {
  const mock = await mockForTest({ timeouts });
  const slow = trickle(mock.port, 'GET /api/v2/unknown HTTP/1.1\r\nHost: x\r\n', 'X-Slow: y\r\n');
  const during = await call(mock, 'GET', '/.well-known/jwks.json');
  await collectResponse(slow.socket, 5_000);
  const after = await call(mock, 'GET', '/.well-known/jwks.json');
  expect([during.status, after.status]).toEqual([200, 200]);
});
