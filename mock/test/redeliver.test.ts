// POST /api/v2/event-streams/{id}/redeliver/{event_id}: success, each error, and the state it keeps.
import { describe, expect, test } from 'vitest';
import { observed } from '../../specs/index.ts';
import { call, tokenFor } from './support/http.ts';
import { expectError, expectErrorStarting } from './support/expect.ts';
import { mockForTest, sharedMock } from './support/mock.ts';
import { fixtureIds as ids, redeliverPath } from './support/paths.ts';

const mock = sharedMock();
const redeliver = async (id: string, eventId: string, client = 'global') =>
  call(mock(), 'POST', redeliverPath(id, eventId), { token: await tokenFor(mock(), client) });

describe('success', () => {
  test('a failed event of an existing stream is accepted: 202 {} with the observed content type', async () => {
    const answer = await redeliver(ids.stream, ids.failedEvent);
    expect([answer.status, answer.text, answer.headers['content-type']]).toEqual([
      observed.operations.redeliver.success.status,
      '{}',
      observed.content_type,
    ]);
  });

  test('the event stays failed and redeliverable; the store counts accepted redeliveries', async () => {
    const own = await mockForTest();
    const token = await tokenFor(own, 'global');
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await call(own, 'POST', redeliverPath(ids.stream, ids.failedEvent), { token })).status);
    expect(statuses).toEqual([202, 202, 202]);
    expect(own.store.event(ids.stream, ids.failedEvent)).toMatchObject({ status: 'failed', redeliveries: 3 });
  });

  test('a redelivery body, if a client sends one, is ignored', async () => {
    const answer = await call(mock(), 'POST', redeliverPath(ids.stream, ids.failedEvent), {
      token: await tokenFor(mock(), 'global'),
      body: { anything: true },
    });
    expect(answer.status).toBe(202);
  });
});

describe('errors', () => {
  test('an unknown stream is 404 "The requested stream does not exist."', async () => {
    expectError(await redeliver('est_AQXiyfL3iDNFp5RV9YTEMw', ids.failedEvent), 'stream_not_found');
  });

  test('an unknown event is 404 with a message of its own', async () => {
    const answer = await redeliver(ids.stream, 'evt_wx3cBnTHxX2mVaYMaBVtL9');
    expectError(answer, 'event_not_found');
    expect((answer.json as { message: string }).message).not.toBe(observed.errors.stream_not_found!.message);
  });

  test('an event of another stream is unknown under this one', async () => {
    expectError(await redeliver(ids.stream, ids.otherStreamEvent), 'event_not_found');
  });

  test.for([ids.deliveredEvent, ids.pendingEvent])('an event that is not failed (%s) is 409', async (eventId) => {
    expectError(await redeliver(ids.stream, eventId), 'event_not_redeliverable');
  });

  test.for([
    ['id', 'est_AQXiyfL3iDNFp5RV9YTEM', ids.failedEvent],
    ['id', 'est_AQXiyfL3iDNFp5RV9YTEMvv', ids.failedEvent],
    ['id', 'xst_AQXiyfL3iDNFp5RV9YTEMv', ids.failedEvent],
    ['event_id', ids.stream, 'evt_wx3cBnTHxX2mVaYMaBVtL'],
    ['event_id', ids.stream, 'evt_wx3cBnTHxX2mVaYMaBVt0L'],
  ])('a malformed %s (%s / %s) is 400 invalid_uri naming it', async ([name, id, eventId]) => {
    const message = expectErrorStarting(await redeliver(id!, eventId!), 'invalid_uri');
    expect(message).toMatch(new RegExp(`on property ${name}$`));
  });

  test('a 25-character stream id gets the observed wording', async () => {
    expectError(
      await redeliver('est_AQXiyfL3iDNFp5RV9YTEM', ids.failedEvent),
      'invalid_uri',
      "'String is too short (25 chars), minimum 26' on property id",
    );
  });

  test('a non-global client is 401 "Client is not global"', async () => {
    expectError(await redeliver(ids.stream, ids.failedEvent, 'non-global'), 'client_not_global');
  });

  test('a token without update:event_deliveries is 403 naming the scope', async () => {
    const answer = await redeliver(ids.stream, ids.failedEvent, 'without-redeliver-scope');
    expectError(answer, 'insufficient_scope', 'update:event_deliveries');
    expect(answer.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="update:event_deliveries"');
  });

  test('no token is 401 "Missing authentication" with attributes.error', async () => {
    const answer = await call(mock(), 'POST', redeliverPath(ids.stream, ids.failedEvent));
    expectError(answer, 'missing_authentication');
    expect((answer.json as { attributes?: unknown }).attributes).toEqual({ error: 'Missing authentication' });
  });

  test('GET on the path is 405 with Allow: POST', async () => {
    const answer = await call(mock(), 'GET', redeliverPath(ids.stream, ids.failedEvent));
    expectError(answer, 'method_not_allowed', 'POST');
    expect(answer.headers.allow).toBe('POST');
  });
});
