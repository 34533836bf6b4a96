// The well-formed request of each operation, built from the target's fixtures, and the keys of
// the requests several tests read (sent once per run). Plumbing only: the meaning stays in the
// tests, which vary one thing of these requests (the credential, an id, a field).
import fc from 'fast-check';
import {
  fixture,
  role,
  writes,
  type CallInput,
  type Credential,
  type Exchange,
  type Need,
  type PlanContext,
  type RoleName,
  type TargetSession,
  type TestPlan,
} from '../harness/index.ts';
import { operationTable } from '../harness/operations.ts';
import { operation, operationKeys, type OperationKey } from '../specs/index.ts';

/** What each operation's valid request needs from the target file (harness/operations.ts). */
export const operationNeeds = Object.fromEntries(
  operationKeys.map((key) => [key, operationTable[key].fixtures.map((name) => fixture(name))]),
) as Record<OperationKey, Need[]>;

/** The role holding every scope of the three operations but the one each operation needs. */
const roleWithoutScopeOf = Object.fromEntries(operationKeys.map((key) => [key, operationTable[key].roleWithoutScope])) as Record<
  OperationKey,
  RoleName
>;

/** The well-formed request of each operation: one builder per operation, or the compiler says which is missing. */
const validRequests: { [K in OperationKey]: (target: TargetSession) => CallInput } = {
  redeliver: (target) => ({ params: { id: target.fixture('eventStream'), event_id: target.fixture('failedEvent') } }),
  'sso-ticket': (target) => ({ params: { id: target.fixture('selfServiceProfile') }, body: {} }),
  vault: (target) => ({ params: { id: target.fixture('vaultConnections')[0]! } }),
};

export function validRequest(target: TargetSession, key: OperationKey): CallInput {
  return validRequests[key](target);
}

/** Keys of shared requests: one name per request, for plans and calls alike. */
export const sharedRequest = {
  /** An operation's valid request sent with a named credential (a refusal, read by several clauses). */
  as: (op: OperationKey, credential: string) => `${op} as ${credential}`,
  /** An operation's valid request changed in one named way (where the credential travels, an id). */
  with: (op: OperationKey, change: string) => `${op} with ${change}`,
  /** A client-credentials request of the global role changed in one named way (a wrong secret, another audience). */
  tokenRequestWith: (change: string) => `token request with ${change}`,
  vaultRead: (id: string) => `vault read ${id}`,
  ticketWithEmptyBody: 'sso-ticket with an empty body',
  redeliveryOfFailedEvent: 'redelivery of the failed event',
  /** A request with one thing wrong, read by a contract clause and its observed refinement. */
  refusal: (what: string) => `refusal: ${what}`,
} as const;

/**
 * An operation's valid request as the shared request its success clauses read (the redelivery of
 * the failed event, a ticket with an empty body, a read of the first connection). Writes but for
 * the read.
 */
export function successOf(op: OperationKey): SharedCall {
  const keyOf = (fixtures: PlanContext['target']['fixtures']) =>
    op === 'redeliver'
      ? sharedRequest.redeliveryOfFailedEvent
      : op === 'sso-ticket'
        ? sharedRequest.ticketWithEmptyBody
        : sharedRequest.vaultRead(fixtures.vaultConnections[0]!);
  return {
    plan: {
      operation: op,
      needs: [...operationNeeds[op], ...(operation(op).method === 'GET' ? [] : [writes])],
      requests: 0,
      shared: (c) => [keyOf(c.target.fixtures)],
    },
    send: (target) =>
      op === 'vault'
        ? vaultRead(target, target.fixture('vaultConnections')[0]!)
        : target.call(op, { ...validRequest(target, op), shared: keyOf(target.target.fixtures) }),
  };
}

/** The read of one vault connection, shared by every test that reads it (`vaultReads`, `sharedRequest.vaultRead`). */
export function vaultRead(target: TargetSession, id: string): Promise<Exchange> {
  return target.call('vault', { params: { id }, shared: sharedRequest.vaultRead(id) });
}

/** Every vault connection of the fixtures, read once per run. */
export function vaultReads(context: { target: { fixtures: { vaultConnections: string[] } } }): string[] {
  return context.target.fixtures.vaultConnections.map(sharedRequest.vaultRead);
}

/** The one value of an arbitrary this run uses as its deterministic case (the run's seed picks it). */
export function exampleOf<T>(_target: TargetSession, arbitrary: fc.Arbitrary<T>): T {
  // A fixed seed, not the run's: a deterministic case is the same request on every run.
  return fc.sample(arbitrary, { numRuns: 1, seed: EXAMPLE_SEED })[0]!;
}

/** The seed of every deterministic example (the run's seed only draws the generated cases). */
const EXAMPLE_SEED = 1;

/** A request several tests read: its plan (for tests that send nothing else) and how to send it. */
export interface SharedCall {
  plan: TestPlan;
  send(target: TargetSession): Promise<Exchange>;
}

/**
 * An operation's valid request with a named credential, sent once per run. `needs` and `shared`
 * are what making the credential needs (a role, a minted token, the JWKS).
 */
export function withCredential(
  op: OperationKey,
  name: string,
  make: (target: TargetSession) => Promise<Credential>,
  extra: { needs?: Need[]; shared?: string[] } = {},
): SharedCall {
  return sharedVariation(op, sharedRequest.as(op, name), async (target, request) => ({ ...request, as: await make(target) }), extra);
}

/**
 * An operation's valid request changed in one named way (the credential moved out of the
 * Authorization header, an id off by its case), sent once per run.
 */
export function withChange(
  op: OperationKey,
  name: string,
  change: (target: TargetSession, request: CallInput) => Promise<CallInput>,
  extra: { needs?: Need[]; shared?: string[] } = {},
): SharedCall {
  return sharedVariation(op, sharedRequest.with(op, name), change, extra);
}

function sharedVariation(
  op: OperationKey,
  key: string,
  change: (target: TargetSession, request: CallInput) => Promise<CallInput>,
  extra: { needs?: Need[]; shared?: string[] },
): SharedCall {
  return {
    plan: { operation: op, needs: [...operationNeeds[op], ...(extra.needs ?? [])], requests: 0, shared: [key, ...(extra.shared ?? [])] },
    send: async (target) => target.call(op, { ...(await change(target, validRequest(target, op))), shared: key }),
  };
}

/** An operation's valid request with the token of a role that lacks its scope. */
export function withoutScope(op: OperationKey): SharedCall {
  const name = roleWithoutScopeOf[op];
  return withCredential(op, `role ${name}`, async (target) => ({ role: target.role(name) }), { needs: [role(name)] });
}
