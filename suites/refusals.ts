// Requests a conforming target refuses, each read by every clause it bears on (the contract's
// status and the observed message and error body), so that each is sent once per run. A refusal
// made from an existing id declares `writes`: a target that wrongly accepts it would write.
import { fixture, writes, type CallInput, type Need, type TargetSession, type TestPlan } from '../harness/index.ts';
import { eventId, streamId, unknownIdOf, vaultConnectionId, vaultConnectionIdOverMaximum } from '../generators/index.ts';
import { closedLimit, type OperationKey } from '../specs/index.ts';
import { exampleOf, sharedRequest, type SharedCall } from './requests.ts';

export interface Refusal {
  /** What is wrong, read after "a request with": also the key of the shared request. */
  what: string;
  op: OperationKey;
  needs: Need[];
  input(target: TargetSession): CallInput;
}

const ttlRange = () => closedLimit('sso-ticket.body.ttl_sec.range');

export const refusals = {
  unknownStream: {
    what: 'an event stream that does not exist',
    op: 'redeliver',
    needs: [fixture('eventStream'), fixture('failedEvent')],
    input: (t) => ({
      params: { id: exampleOf(t, unknownIdOf(streamId(), [t.fixture('eventStream')])), event_id: t.fixture('failedEvent') },
    }),
  },
  unknownEvent: {
    what: 'an event that does not exist in an existing stream',
    op: 'redeliver',
    needs: [fixture('eventStream'), fixture('failedEvent'), fixture('notRedeliverableEvent')],
    input: (t) => ({
      params: {
        id: t.fixture('eventStream'),
        event_id: exampleOf(t, unknownIdOf(eventId(), [t.fixture('failedEvent'), t.fixture('notRedeliverableEvent')])),
      },
    }),
  },
  streamIdOneShort: {
    what: 'the existing stream id with its last character removed',
    op: 'redeliver',
    needs: [fixture('eventStream'), fixture('failedEvent'), writes],
    input: (t) => ({ params: { id: t.fixture('eventStream').slice(0, -1), event_id: t.fixture('failedEvent') } }),
  },
  eventIdOneLong: {
    what: 'the existing event id with one character added',
    op: 'redeliver',
    needs: [fixture('eventStream'), fixture('failedEvent'), writes],
    input: (t) => ({ params: { id: t.fixture('eventStream'), event_id: `${t.fixture('failedEvent')}x` } }),
  },
  unknownVaultConnection: {
    what: 'a vault connection that does not exist',
    op: 'vault',
    needs: [fixture('vaultConnections')],
    input: (t) => ({ params: { id: exampleOf(t, unknownIdOf(vaultConnectionId(), t.fixture('vaultConnections'))) } }),
  },
  vaultIdOverMaximum: {
    what: 'a vault connection id over the maximum length',
    op: 'vault',
    needs: [],
    input: (t) => ({ params: { id: exampleOf(t, vaultConnectionIdOverMaximum()) } }),
  },
  ttlSecOverMaximum: {
    what: 'ttl_sec one over the maximum',
    op: 'sso-ticket',
    needs: [fixture('selfServiceProfile'), writes],
    input: (t) => ({ params: { id: t.fixture('selfServiceProfile') }, body: { ttl_sec: ttlRange().max + 1 } }),
  },
  ticketBodyNull: {
    what: 'a ticket body that is JSON null',
    op: 'sso-ticket',
    needs: [fixture('selfServiceProfile'), writes],
    input: (t) => ({ params: { id: t.fixture('selfServiceProfile') }, body: null }),
  },
  ticketBodyArray: {
    what: 'a ticket body that is an empty JSON array',
    op: 'sso-ticket',
    needs: [fixture('selfServiceProfile'), writes],
    input: (t) => ({ params: { id: t.fixture('selfServiceProfile') }, body: [] }),
  },
} satisfies Record<string, Refusal>;

/** The plan of a test that reads one refusal (and nothing else). */
export function refusalPlan(refusal: Refusal): TestPlan {
  return { operation: refusal.op, needs: refusal.needs, requests: 0, shared: [sharedRequest.refusal(refusal.what)] };
}

export function sendRefusal(target: TargetSession, refusal: Refusal): ReturnType<TargetSession['call']> {
  return target.call(refusal.op, { ...refusal.input(target), shared: sharedRequest.refusal(refusal.what) });
}

/** A refusal as a shared call: its plan and how to send it, for tables of shared requests. */
export function refusalCall(refusal: Refusal): SharedCall {
  return { plan: refusalPlan(refusal), send: (target) => sendRefusal(target, refusal) };
}
