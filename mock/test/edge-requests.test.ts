// Requests at the edges of HTTP: two Authorization headers, a client that half-closes after
// sending its request, HEAD where GET exists. Each is answered in JSON, never silently.
import { connect } from 'node:net';
import { expect, test } from 'vitest';
import { observed } from '../../specs/index.ts';
import { call, tokenFor } from './support/http.ts';
import { sharedMock } from './support/mock.ts';
import { fixtureIds as ids, vaultPath } from './support/paths.ts';
import { collectResponse, rawRequest } from './support/raw.ts';

const mock = sharedMock();

test('two Authorization headers are 400 with a JSON error, whichever comes first', async () => {
  const token = await tokenFor(mock(), 'global');
  for (const [first, second] of [
    [`Bearer ${token}`, 'Bearer x.y.z'],
    ['Bearer x.y.z', `Bearer ${token}`],
  ]) {
    const answer = await rawRequest(
      mock(),
      `GET ${vaultPath(ids.vaultFull)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${first}\r\nAuthorization: ${second}\r\nConnection: close\r\n\r\n`,
    );
    expect({ status: answer?.status, body: JSON.parse(answer?.body ?? '{}') as unknown }).toEqual({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: observed.errors.bad_authorization_header!.message },
    });
  }
});

test('two Authorization headers at the token endpoint are 400 invalid_request', async () => {
  const basic = `Basic ${Buffer.from('a:b').toString('base64')}`;
  const answer = await rawRequest(
    mock(),
    `POST ${observed.tokens.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic}\r\nAuthorization: ${basic}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
  );
  expect([answer?.status, (JSON.parse(answer?.body ?? '{}') as { error?: string }).error]).toEqual([400, 'invalid_request']);
});

test('a client that sends its request and half-closes still gets the answer', async () => {
  const token = await tokenFor(mock(), 'global');
  const socket = connect({ port: mock().port, host: mock().host, allowHalfOpen: true });
  const answer = collectResponse(socket, 5_000);
  socket.on('connect', () =>
    socket.end(`GET ${vaultPath(ids.vaultFull)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`),
  );
  const response = await answer;
  expect([response?.status, (JSON.parse(response?.body ?? '{}') as { id?: string }).id]).toEqual([200, ids.vaultFull]);
});

test("HEAD where GET exists: the GET's status and headers, no body", async () => {
  const token = await tokenFor(mock(), 'global');
  const get = await call(mock(), 'GET', vaultPath(ids.vaultFull), { token });
  const head = await rawRequest(
    mock(),
    `HEAD ${vaultPath(ids.vaultFull)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
    { head: true },
  );
  expect({ status: head?.status, type: head?.headers['content-type'], length: head?.headers['content-length'], body: head?.body }).toEqual({
    status: 200,
    type: get.headers['content-type'],
    length: get.headers['content-length'],
    body: '',
  });
});

test.for([observed.tokens.jwks_path, observed.discovery.path])('HEAD %s is 200 without a body', async (path) => {
  const head = await rawRequest(mock(), `HEAD ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`, { head: true });
  expect([head?.status, head?.body]).toEqual([200, '']);
});

test("HEAD without a token is the GET's 401", async () => {
  const head = await rawRequest(mock(), `HEAD ${vaultPath(ids.vaultFull)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`, {
    head: true,
  });
  expect(head?.status).toBe(401);
});
