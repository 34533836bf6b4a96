// Requests several tests read, each sent once per run (a shared request): an operation's valid
// request (its success), the positive controls of the matrix's refusals, a row of the matrix. Each
// is a SharedCall: its plan (what it needs, the shared key it reads) and how to send it. Plumbing
// only: what a test checks stays in the test.
import fc from 'fast-check';
import type { OperationKey } from '../../specs/index.ts';
import type { OperationCard } from '../../specs/cards/card.ts';
import { cards } from '../../specs/cards/index.ts';
import { validTemplate } from '../../specs/matrix/template.ts';
import type { Exchange } from '../http.ts';
import { fixture, sharedKeys, writes, type Need, type TestPlan } from '../plan.ts';
import type { TargetSession } from '../session.ts';

/** A request several tests read: its plan (for tests that send nothing else) and how to send it. */
export interface SharedCall {
  plan: TestPlan;
  send(target: TargetSession): Promise<Exchange>;
}

/** Keys of shared requests: one name per request, for plans and calls alike. */
export const sharedRequest = {
  /** An operation's valid request: its success, and the positive control of its refusals. */
  success: (op: OperationKey) => `${op}: the valid request`,
  /** The valid request with the global role's token re-signed, unchanged, with the target's key: the control of re-signed near misses. */
  resignedUnchanged: (op: OperationKey) => `${op}: the valid request, its token re-signed unchanged`,
  /** A body field alone at a valid value, in the smallest body that holds it: the control of its variations. */
  alone: (op: OperationKey, field: string) => `${op}: ${field} alone at a valid value`,
  /**
   * A valid token request, sent fresh: the positive control of the token endpoint's refusals. It is
   * the run's own mint of the global role's token (a token from the cache has no exchange), so the
   * control costs no token of its own.
   */
  validTokenRequest: sharedKeys.tokenExchange('global'),
  /**
   * A token of the key client (token_alternatives.key_client), asked for with a client assertion
   * signed with its key: the positive control of the rows made with that key, which prove nothing
   * where the tenant does not know it.
   */
  keyClientToken: 'a token of the key client, asked for with a client assertion signed with its key',
  /** The success naming one record other than the valid request's (the vault read of another connection). */
  record: (op: OperationKey, id: string) => `${op}: read ${id}`,
} as const;

/** What each operation's valid request needs from the target file (its fixtures), and writes where a success writes. */
export function operationNeeds(op: OperationKey): Need[] {
  const card: OperationCard = cards[op];
  return [...card.fixtures.map((name) => fixture(name)), ...(card.writes ? [writes] : [])];
}

/** An operation's valid request, shared: the redelivery of the failed event, a ticket with an empty body, a read of the first connection. */
export function successOf(op: OperationKey): SharedCall {
  return {
    plan: { operation: op, needs: operationNeeds(op), requests: 0, shared: [sharedRequest.success(op)] },
    send: (target) => target.sendTemplate(validTemplate(cards[op], target.context), { shared: sharedRequest.success(op), label: op }),
  };
}

/**
 * The records an operation's success names, where its card echoes a path parameter whose fixture is
 * a list (the vault read's connections): the parameter and the ids, the first being the valid
 * request's. Else none: the valid request is the only success the tests read.
 */
export function recordIds(
  op: OperationKey,
  context: { target: { fixtures: object } },
): { param: string; ids: readonly string[] } | undefined {
  const card: OperationCard = cards[op];
  const echoes = card.answer.echoes;
  if (!echoes) return undefined;
  const ids: unknown = (context.target.fixtures as Record<string, unknown>)[card.params[echoes.param]!.fixture];
  return Array.isArray(ids) ? { param: echoes.param, ids: ids as string[] } : undefined;
}

/** The key of the success naming one record: the first one's is the operation's valid request. */
function recordKey(op: OperationKey, ids: readonly string[], id: string): string {
  return id === ids[0] ? sharedRequest.success(op) : sharedRequest.record(op, id);
}

/** The success naming one record (`recordIds`), shared by every test that reads it; `again`: a request of the test's own. */
export function recordRead(target: TargetSession, op: OperationKey, id: string, options: { again?: boolean } = {}): Promise<Exchange> {
  const { param, ids } = recordIds(op, target)!;
  const template = validTemplate(cards[op], target.context);
  const path = template.path.map((part) => ('param' in part && part.param === param ? { ...part, value: id } : part));
  const shared = options.again ? {} : { shared: recordKey(op, ids, id) };
  return target.sendTemplate({ ...template, path }, { ...shared, label: op });
}

/** The shared keys of an operation's successes: one per record it names, else its valid request. */
export function recordReads(op: OperationKey): (context: { target: { fixtures: object } }) => string[] {
  return (context) => {
    const records = recordIds(op, context);
    return records ? records.ids.map((id) => recordKey(op, records.ids, id)) : [sharedRequest.success(op)];
  };
}

/** The read of one vault connection, shared by every test that reads it. */
export function vaultRead(target: TargetSession, id: string, options: { again?: boolean } = {}): Promise<Exchange> {
  return recordRead(target, 'vault', id, options);
}

/** Every vault connection of the fixtures, read once per run. */
export const vaultReads = recordReads('vault');

/** A valid token request of the global role, sent fresh once per run: the control of the token endpoint's refusals. */
export async function validTokenRequestOf(target: TargetSession): Promise<Exchange> {
  return (await target.issued('global')).exchange;
}

/**
 * The key client's token, asked for with a client assertion signed with its key (shared:
 * sharedRequest.keyClientToken), or taken from the token cache; its exchange where this run asked.
 */
export async function keyClientTokenOf(target: TargetSession): Promise<{ exchange?: Exchange; token?: string }> {
  return target.keyClientToken(sharedRequest.keyClientToken);
}

/** The one value of an arbitrary a deterministic case uses: the same on every run, whatever the run's seed. */
export function exampleOf<T>(_target: TargetSession, arbitrary: fc.Arbitrary<T>): T {
  // A fixed seed, not the run's: a deterministic case is the same request on every run (the run's
  // seed only draws the generated cases added on top).
  return fc.sample(arbitrary, { numRuns: 1, seed: EXAMPLE_SEED })[0]!;
}

const EXAMPLE_SEED = 1;

/** Whether an answer came from an operation's own route: its method, its path template with ids of plain characters. */
export function fromItsRoute(card: OperationCard): (exchange: Exchange) => boolean {
  const path = new RegExp(`${card.spec.pathTemplate.replace(/\{[^}]+\}/g, '[A-Za-z0-9_-]+')}$`);
  return (exchange) => exchange.request.method === card.spec.method && path.test(new URL(exchange.request.url).pathname);
}
