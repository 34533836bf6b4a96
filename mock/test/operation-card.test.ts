// A throw-away operation card, as a contributor would add a fourth operation (an imaginary summary of one event
// stream): given only its card and the route that acts for it, the mock serves it through every
// check the card implies, the request-model matrix runs over it, and the gate's per-operation faults
// are made for it and reach its route.
import { describe, expect, it } from 'vitest';
import type { OperationCard } from '../../specs/cards/card.ts';
import { parameter, type OperationKey } from '../../specs/index.ts';
import { elementsOf, matrixOf } from '../../specs/matrix/index.ts';
import { scopeFaultsOf } from '../faults/support/scope-faults.ts';
import { scopeCatalogue } from '../../specs/scopes.ts';
import { loadFixtures, type FixturesObject } from '../fixtures.ts';
import { defaultOperations, type MockOperation } from '../operations.ts';
import { Store } from '../store.ts';
import { refuse } from '../refusal.ts';
import { readRecordRoute } from '../routes/read-record.ts';
import { success } from '../routes/success.ts';
import { authenticate } from '../stages/authenticate.ts';
import { authorize } from '../stages/authorize.ts';
import { validatePath } from '../stages/validate.ts';
import { call, tokenFor } from './support/http.ts';
import { mockForTest } from './support/mock.ts';

const STREAM = 'est_AQXiyfL3iDNFp5RV9YTEMv';
/**
 * A read scope of the catalogue that no client of the default fixtures holds: only the global
 * client, granted it here, holds it, so whatever scopes the real cards take, every other client
 * lacks it (a fourth operation of read:event_streams did not break this test).
 */
const SCOPE = scopeCatalogue.find(
  (scope) => scope.startsWith('read:') && !new Store(loadFixtures().data).clients().some((client) => client.scopes.includes(scope)),
)!;

/** The default fixtures, with the global client granted SCOPE too. */
function fixturesWithScope(): FixturesObject {
  const data = loadFixtures().data;
  const global = data.clients.find((client) => client.role === 'global')!;
  global.scopes = [...(global.scopes ?? []), SCOPE];
  return data;
}

const streamCard: OperationCard = {
  key: 'stream-summary' as OperationKey,
  spec: {
    key: 'stream-summary' as OperationKey,
    operationId: 'get_event_stream_summary',
    summary: "Read one event stream's summary",
    method: 'GET',
    pathTemplate: '/event-streams/{id}/summary',
    parameters: [{ ...parameter('redeliver', 'path', 'id'), name: 'id' }],
    contractScopes: [],
    requiresGlobalClient: false,
    responseStatuses: ['200'],
  },
  success: { status: 200, clause: 'vault.response.record' },
  name: 'the stream read',
  faultPrefix: 'stream',
  scope: { value: SCOPE, level: 'observed', clause: 'vault.scope', statusClauses: ['vault.scope'], otherResource: 'read:event_deliveries' },
  roleWithoutScope: 'without_redeliver_scope',
  fixtures: ['eventStream'],
  writes: false,
  params: {
    id: {
      fixture: 'eventStream',
      names: 'stream',
      unknown: [{ clause: 'redeliver.errors.404.stream', outcome: { kind: 'status', status: 404 } }],
    },
  },
  unauthenticated: { clause: 'errors.401.all-operations', signatureClause: 'errors.401.all-operations' },
  answer: {
    statusClause: 'vault.success.status',
    level: 'observed',
    echoes: { param: 'id', field: 'id', clause: 'vault.response.record' },
  },
};

/** What the stream read does once its request passed the checks its card implies. */
const streamRead: MockOperation = {
  card: streamCard,
  route: (deps, card) => async (exchange) => {
    authorize(deps, await authenticate(deps, exchange), card);
    const { id } = validatePath(deps, card.key, exchange.params);
    const stream = deps.store.stream(id!) ?? refuse(deps, 'stream_not_found');
    return success(card, { id: stream.id, name: stream.name });
  },
};

const withStreamRead = (faults: MockOperation[] = []) => ({
  fixtures: fixturesWithScope(),
  operations: [...defaultOperations, streamRead, ...faults],
});

describe('a throw-away operation card', () => {
  it('is served by the mock through the checks its card implies', async () => {
    const mock = await mockForTest(withStreamRead());
    const token = await tokenFor(mock, 'global');
    expect((await call(mock, 'GET', `/api/v2/event-streams/${STREAM}/summary`, { token })).json).toEqual({
      id: STREAM,
      name: 'orders-webhook',
    });
    expect((await call(mock, 'GET', `/api/v2/event-streams/${STREAM}/summary`)).status).toBe(401);
    expect(
      (await call(mock, 'GET', `/api/v2/event-streams/${STREAM}/summary`, { token: await tokenFor(mock, 'without-redeliver-scope') }))
        .status,
    ).toBe(403);
    expect((await call(mock, 'GET', `/api/v2/event-streams/${STREAM.slice(0, -1)}/summary`, { token })).status).toBe(400);
    expect((await call(mock, 'GET', `/api/v2/event-streams/${STREAM.slice(0, -1)}w/summary`, { token })).status).toBe(404);
    expect((await call(mock, 'POST', `/api/v2/event-streams/${STREAM}/summary`, { token })).status).toBe(405);
    const answer = await call(mock, 'GET', `/api/v2/event-streams/${STREAM}/summary`, { token });
    expect(answer.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('is varied by the request-model matrix, every element of it', () => {
    const rows = matrixOf(streamCard);
    const elements = elementsOf(streamCard).map((element) => element.id);
    expect(elements).toContain('path.{id}');
    expect(elements.filter((id) => !rows.some((row) => row.element.id === id))).toEqual([]);
    const tooShort = rows.find((row) => row.id === 'stream-summary path.{id} bounds:25 valid')?.expectation;
    expect(tooShort && 'checks' in tooShort ? tooShort.checks.map((c) => c.outcome.kind) : []).toEqual(['refuse', 'observed-error']);
  });

  it('is refused by the read of one record, naming what its card lacks, where it reads no stated records', async () => {
    await expect(mockForTest({ operations: [...defaultOperations, { card: streamCard, route: readRecordRoute }] })).rejects.toThrow(
      /^stream-summary is not a read of one record: its answer echoes no path parameter whose fixture has stated records/,
    );
  });

  it('gets the scope faults of every operation, and they reach its route', async () => {
    const faults = scopeFaultsOf([streamCard]);
    expect(faults.map((f) => f.id)).toContain('stream-ignores-scope');
    const ignoresScope = faults.find((f) => f.id === 'stream-ignores-scope')!;
    const mock = await mockForTest({ ...withStreamRead(), customize: ignoresScope.install });
    const withoutScope = await tokenFor(mock, 'without-redeliver-scope');
    expect((await call(mock, 'GET', `/api/v2/event-streams/${STREAM}/summary`, { token: withoutScope })).status).toBe(200);
  });
});
