// A bug in the mock is answered 500 in JSON and reported, never a crash or a hang; the next
// request is served as usual. The bug is planted through the in-process customize hook.
import { expect, test } from 'vitest';
import { call, tokenFor } from './support/http.ts';
import { expectError } from './support/expect.ts';
import { mockForTest } from './support/mock.ts';
import { fixtureIds as ids, vaultPath } from './support/paths.ts';

test('a component that throws inside a route is answered 500 and reported', async () => {
  const reports: string[] = [];
  let broken = true;
  const mock = await mockForTest({
    report: (line) => reports.push(line),
    customize(hooks) {
      hooks.override('store', (store) => {
        const original = store.record.bind(store);
        store.record = (fixture, id) => {
          if (broken) throw new Error('planted bug');
          return original(fixture, id);
        };
        return store;
      });
    },
  });
  const token = await tokenFor(mock, 'global');
  const failed = await call(mock, 'GET', vaultPath(ids.vaultFull), { token });
  expectError(failed, 'internal_error');
  expect(failed.headers['x-ratelimit-remaining']).toBeDefined();
  expect(reports).toEqual(['mock: internal error in route vault: planted bug']);
  broken = false;
  expect((await call(mock, 'GET', vaultPath(ids.vaultFull), { token })).status).toBe(200);
});

test('a route wrapper that throws is answered 500 by the server', async () => {
  const reports: string[] = [];
  const mock = await mockForTest({
    report: (line) => reports.push(line),
    customize(hooks) {
      hooks.wrapRoute('jwks', () => async () => {
        throw new Error('planted wrapper bug');
      });
    },
  });
  expectError(await call(mock, 'GET', '/.well-known/jwks.json'), 'internal_error');
  expect(reports).toEqual(['mock: internal error: planted wrapper bug']);
});

test('a reply with a header value HTTP cannot carry is answered 500 instead', async () => {
  const reports: string[] = [];
  const mock = await mockForTest({
    report: (line) => reports.push(line),
    customize(hooks) {
      hooks.wrapRoute('jwks', (next) => async (exchange) => {
        const reply = await next(exchange);
        return { ...reply, headers: { ...reply.headers, 'x-broken': 'line\r\nbreak' } };
      });
    },
  });
  expectError(await call(mock, 'GET', '/.well-known/jwks.json'), 'internal_error');
  expect(reports[0]).toMatch(/^mock: unwritable reply: /);
});
