// What happens around the routes: unknown paths and methods, requests the HTTP parser cannot
// read, CONNECT, odd request targets. Every answer is a JSON error body.
import { describe, expect, test } from 'vitest';
import { observed } from '../../specs/index.ts';
import { reasonPhrase } from '../errors.ts';
import { splitTarget } from '../server.ts';
import { call, tokenFor } from './support/http.ts';
import { expectError } from './support/expect.ts';
import { mockForTest, sharedMock } from './support/mock.ts';
import { rawRequest, type RawResponse } from './support/raw.ts';
import { fixtureIds as ids, redeliverPath, vaultPath } from './support/paths.ts';

const mock = sharedMock();

function expectJsonError(response: RawResponse | undefined, status: number): void {
  expect(response?.status).toBe(status);
  expect(response?.headers['content-type']).toBe(observed.content_type);
  expect(JSON.parse(response!.body)).toMatchObject({ statusCode: status, error: reasonPhrase(status), message: expect.any(String) });
}

describe('routing', () => {
  test('an unknown path outside /api/v2 is 404, without rate-limit headers', async () => {
    const answer = await call(mock(), 'GET', '/favicon.ico');
    expectError(answer, 'route_not_found');
    expect(answer.headers['x-ratelimit-limit']).toBeUndefined();
  });

  test('an unknown path under /api/v2 is 404 with rate-limit headers', async () => {
    const answer = await call(mock(), 'GET', '/api/v2/users');
    expectError(answer, 'route_not_found');
    expect(answer.headers['x-ratelimit-limit']).toBeDefined();
  });

  test('a known path with a wrong method is 405 with Allow', async () => {
    const answer = await call(mock(), 'DELETE', vaultPath(ids.vaultFull));
    expectError(answer, 'method_not_allowed', 'GET, HEAD');
    expect(answer.headers.allow).toBe('GET, HEAD');
  });

  test('an empty path parameter does not match the route: 404', async () => {
    expectError(await call(mock(), 'POST', redeliverPath('', ids.failedEvent)), 'route_not_found');
  });

  test('the query string is ignored', async () => {
    const answer = await call(mock(), 'GET', `${vaultPath(ids.vaultFull)}?fields=name`, { token: await tokenFor(mock(), 'global') });
    expect(answer.status).toBe(200);
  });

  test.for([
    ['/a/b?c=d', { path: '/a/b', query: 'c=d' }],
    ['http://127.0.0.1:4010/api/v2/x?y', { path: '/api/v2/x', query: 'y' }],
    ['http://host', { path: '/', query: '' }],
    ['*', { path: '*', query: '' }],
  ] as const)('splitTarget(%s)', ([target, expected]) => {
    expect(splitTarget(target)).toEqual(expected);
  });
});

describe('requests the parser cannot read', () => {
  test('garbage bytes are answered with a JSON 400 and the connection closes', async () => {
    const response = await rawRequest(mock(), 'HELLO THERE\r\n\r\n');
    expectJsonError(response, 400);
    expect(response?.headers.connection).toBe('close');
  });

  test('a header line without a colon is a JSON 400', async () => {
    expectJsonError(await rawRequest(mock(), 'GET / HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n'), 400);
  });

  test("headers over Node's size limit are a JSON 431", async () => {
    expectJsonError(await rawRequest(mock(), `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), 431);
  });

  test('CONNECT is answered in JSON, not dropped', async () => {
    const response = await rawRequest(mock(), 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectJsonError(response, 404);
  });

  test('a request without Host is answered by the mock', async () => {
    expectJsonError(await rawRequest(mock(), 'GET /api/v2/users HTTP/1.1\r\n\r\n'), 404);
  });

  test('an absolute-form request target is routed by its path', async () => {
    const response = await rawRequest(
      mock(),
      `GET ${mock().url}${vaultPath(ids.vaultFull)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expectJsonError(response, 401);
  });

  test('an unknown Expect value is answered in JSON, not with a bare 417', async () => {
    expectJsonError(await rawRequest(mock(), 'GET /nowhere HTTP/1.1\r\nHost: x\r\nExpect: something\r\nConnection: close\r\n\r\n'), 404);
  });
});

describe('bodies', () => {
  test('a body over the limit on a management route is 413 with rate-limit headers', async () => {
    const small = await mockForTest({ maxBodyBytes: 16 });
    const answer = await call(small, 'POST', redeliverPath(ids.stream, ids.failedEvent), { body: 'x'.repeat(100) });
    expectError(answer, 'payload_too_large', '16');
    expect(answer.headers['x-ratelimit-remaining']).toBeDefined();
  });

  test('a body far over the limit is answered without being read to its end, and the connection closes', async () => {
    const small = await mockForTest({ maxBodyBytes: 16 });
    const response = await rawRequest(small, `POST /api/v2/users HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n${'x'.repeat(1000)}`);
    expectJsonError(response, 413);
    expect(response?.headers.connection).toBe('close');
  });
});
