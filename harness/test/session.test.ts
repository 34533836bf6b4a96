// Plans and the session that holds a test to its plan: unmet needs become skips with their
// category and reason before anything is sent; what a test uses without declaring, or one request
// past its plan, is refused as a suite bug.
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../errors.ts';
import {
  evaluatePlan,
  fixture,
  generatedCases,
  leavesClauseUnverified,
  minted,
  parseSkipNote,
  role,
  sharedKeys,
  skipNote,
  writes,
  exhaustion,
  type TestPlan,
} from '../plan.ts';
import type { OutgoingRequest } from '../http.ts';
import type { Runtime } from '../runtime.ts';
import { TargetSession } from '../session.ts';
import type { ResolvedTarget, RunSettings } from '../settings.ts';
import { SharedRequests } from '../shared.ts';

function settings(target: Partial<ResolvedTarget> = {}, run: Partial<RunSettings> = {}): RunSettings {
  return {
    runId: 'test',
    target: {
      source: 'test',
      baseUrl: 'https://tenant.example.com/api/v2',
      authUrl: 'https://tenant.example.com',
      audience: 'https://tenant.example.com/api/v2/',
      customDomainHeader: 'tenant-custom-domain',
      roles: {},
      fixtures: { vaultConnections: [] },
      tokenAlternatives: {},
      rateLimit: {},
      testDouble: false,
      ...target,
    },
    strict: false,
    seed: 1,
    numRuns: 0,
    allowWrites: false,
    allowRateLimitExhaustion: false,
    maxRequests: 100,
    // The mock answers at once, but a test worker sharing the machine with whole runs may be slow to read it.
    requestTimeoutMs: 10_000,
    rateShare: 0.5,
    exhaustionMax: 100,
    deadline: Date.now() + 60_000,
    filter: {},
    ...run,
  };
}

const TITLE = '[§7 redeliver.errors.404.stream] redelivery answers 404 for a stream that does not exist';
const skipOf = (plan: TestPlan, s: RunSettings, title = TITLE) => evaluatePlan(title, plan, s).skip;

describe('evaluatePlan', () => {
  it('skips a test whose role or fixture is not configured, naming the field', () => {
    expect(skipOf({ requests: 1, needs: [role('non_global')] }, settings())).toEqual({
      category: 'config',
      reason: 'role non_global is not configured (roles.non_global in the target file)',
    });
    expect(skipOf({ requests: 1, needs: [fixture('notRedeliverableEvent')] }, settings())).toEqual({
      category: 'config',
      reason: 'fixture not_redeliverable_event is not configured (fixtures.not_redeliverable_event in the target file)',
    });
    expect(skipOf({ requests: 1, needs: [fixture('vaultConnections')] }, settings())?.reason).toMatch(
      /fixture vault_connections is not configured/,
    );
  });

  it('skips writes and exhaustion of a target that is not a test double, without their opt-in', () => {
    expect(skipOf({ requests: 1, needs: [writes] }, settings())).toMatchObject({
      category: 'opt-in',
      reason: expect.stringMatching(/needs --allow-writes/),
    });
    expect(skipOf({ requests: 1, needs: [writes] }, settings({}, { allowWrites: true }))).toBeUndefined();
    expect(skipOf({ requests: 1, needs: [writes] }, settings({ testDouble: true }))).toBeUndefined();
    expect(skipOf({ requests: 0, needs: [exhaustion] }, settings())).toMatchObject({
      category: 'opt-in',
      reason: expect.stringMatching(/needs --allow-rate-limit-exhaustion/),
    });
    expect(skipOf({ requests: 0, needs: [exhaustion] }, settings({}, { allowRateLimitExhaustion: true }))).toBeUndefined();
  });

  it('runs a minted token with the signing key, or with its real-tenant alternative', () => {
    const withKey = settings({ signingKeyJwk: '{}' });
    for (const kind of ['expired', 'wrong-audience', 'wrong-issuer', 'signing-key'] as const)
      expect(skipOf({ requests: 1, needs: [minted(kind)] }, withKey)).toBeUndefined();
    expect(skipOf({ requests: 1, needs: [minted('expired')] }, settings())).toMatchObject({
      category: 'alternative',
      reason: expect.stringMatching(/token_alternatives\.expired_token_env/),
    });
    expect(skipOf({ requests: 1, needs: [minted('expired')] }, settings({ tokenAlternatives: { expiredToken: 'x' } }))).toBeUndefined();
    expect(skipOf({ requests: 1, needs: [minted('wrong-issuer')] }, settings())).toMatchObject({
      category: 'alternative',
      reason: expect.stringMatching(/other_tenant/),
    });
    expect(skipOf({ requests: 1, needs: [minted('signing-key')] }, settings())).toMatchObject({ category: 'not-applicable' });
  });

  it('counts a real-tenant alternative as a shared request, once', () => {
    const client = { tokenUrl: 'https://t/oauth/token/', audience: 'https://other/', clientId: 'c', clientSecret: 's' };
    const plan = evaluatePlan(
      TITLE,
      { requests: 1, needs: [minted('wrong-audience'), role('non_global')] },
      settings({ tokenAlternatives: { otherAudience: client } }),
    );
    expect(plan.shared).toEqual([sharedKeys.token('non_global'), sharedKeys.token('other_audience')]);
  });

  it('skips generated-only tests when the run asks for no generated cases', () => {
    expect(skipOf({ requests: (c) => c.numRuns, needs: [generatedCases] }, settings())).toMatchObject({ category: 'random-only' });
    expect(skipOf({ requests: (c) => c.numRuns, needs: [generatedCases] }, settings({}, { numRuns: 5 }))).toBeUndefined();
    expect(evaluatePlan(TITLE, { requests: (c) => c.numRuns + 1 }, settings({}, { numRuns: 5 })).requests).toBe(6);
  });

  it('leaves out what the run filter does not select, before any other need', () => {
    const plan = { requests: 1, needs: [role('non_global')] };
    expect(skipOf(plan, settings({}, { filter: { grep: 'vault' } }))).toMatchObject({
      category: 'not-selected',
      reason: expect.stringMatching(/does not contain "vault" \(--grep\)/),
    });
    expect(skipOf(plan, settings({}, { filter: { grepInvert: '404' } }))).toMatchObject({ category: 'not-selected' });
    expect(skipOf(plan, settings({}, { filter: { operations: ['vault'] } }))).toMatchObject({
      category: 'not-selected',
      reason: expect.stringMatching(/sends to redeliver/),
    });
    expect(skipOf(plan, settings({}, { filter: { operations: ['redeliver'] } }))?.category).toBe('config');
  });

  it('takes the operation from the plan, else from the clause id', () => {
    expect(evaluatePlan(TITLE, { requests: 1 }, settings()).operation).toBe('redeliver');
    expect(evaluatePlan('[§7 errors.body.shape] x', { requests: 1 }, settings()).operation).toBeUndefined();
    expect(evaluatePlan('[§7 errors.body.shape] x', { requests: 1, operation: 'vault' }, settings()).operation).toBe('vault');
  });
});

describe('skip notes', () => {
  it('carry their category, which says whether the clause stays unverified', () => {
    expect(parseSkipNote(skipNote('budget', 'the budget is spent'))).toEqual({ category: 'budget', reason: 'the budget is spent' });
    expect(parseSkipNote('no category')).toEqual({ category: undefined, reason: 'no category' });
    expect(leavesClauseUnverified('opt-in')).toBe(true);
    expect(leavesClauseUnverified('not-applicable')).toBe(false);
    expect(leavesClauseUnverified('random-only')).toBe(false);
  });
});

describe('TargetSession holds a test to its plan', () => {
  function session(plan: TestPlan, target: Partial<ResolvedTarget> = {}): TargetSession {
    const s = settings({ fixtures: { vaultConnections: ['ac_1'], eventStream: 'est_x' }, ...target });
    const runtime = {
      settings: s,
      shared: new SharedRequests(),
      answers: [],
      current: undefined,
      // As the runtime's own onSend does: a request outside a shared one is the test's own.
      http: {
        send: async (request: OutgoingRequest) => {
          if (runtime.shared.attributedTo === undefined) runtime.current?.countOwn(request, false);
          return { status: 200, headers: {}, text: '', json: undefined, request, ms: 1, attempts: 1 };
        },
      },
    } as unknown as Runtime;
    const made = new TargetSession(runtime, TITLE, evaluatePlan(TITLE, plan, s));
    runtime.current = made;
    return made;
  }

  async function violation(action: () => unknown): Promise<string> {
    const error = await Promise.resolve()
      .then(action)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('PLAN_VIOLATION');
    return (error as Error).message;
  }

  it('gives the fixtures and roles it declared', () => {
    const s = session(
      { requests: 0, needs: [fixture('eventStream'), role('non_global')] },
      { roles: { non_global: { clientId: 'a', clientSecret: 'b' } } },
    );
    expect(s.fixture('eventStream')).toBe('est_x');
    expect(s.role('non_global')).toBe('non_global');
  });

  it('refuses a fixture, a role or a minted token it did not declare', async () => {
    const s = session({ requests: 1 });
    expect(await violation(() => s.fixture('eventStream'))).toMatch(/uses fixture event_stream without declaring it/);
    expect(await violation(() => s.role('non_global'))).toMatch(/uses role non_global without declaring it/);
    expect(await violation(() => s.mint('expired'))).toMatch(/mints a expired token without declaring it/);
    expect(await violation(() => s.issued('global'))).toMatch(
      /reads the exchange that issued a token without declaring it \(shared: \[sharedKeys\.tokenExchange\('global'\)\]\)/,
    );
  });

  it('refuses the request past its plan, before it is sent', async () => {
    const s = session({ requests: 1 });
    await s.call('vault', { params: { id: 'ac_1' }, as: 'none' });
    expect(await violation(() => s.call('vault', { params: { id: 'ac_1' }, as: 'none' }))).toMatch(
      /would send more requests than its plan \(1\): GET \/api\/v2\/flows\/vault\/connections\/ac_1/,
    );
    expect(s.requests).toBe(1);
  });

  it('reads a shared request it declared, and refuses one it did not', async () => {
    const s = session({ requests: 0, shared: ['vault read ac_1'] });
    const first = await s.call('vault', { params: { id: 'ac_1' }, as: 'none', shared: 'vault read ac_1' });
    expect(await s.call('vault', { params: { id: 'ac_1' }, as: 'none', shared: 'vault read ac_1' })).toBe(first);
    expect(await violation(() => s.call('vault', { params: { id: 'ac_1' }, as: 'none', shared: 'vault read ac_2' }))).toMatch(
      /reads shared request "vault read ac_2" without declaring it/,
    );
  });

  it('refuses one key used for two requests', async () => {
    const s = session({ requests: 0, shared: ['vault read ac_1'] });
    await s.call('vault', { params: { id: 'ac_1' }, as: 'none', shared: 'vault read ac_1' });
    expect(await violation(() => s.call('vault', { params: { id: 'ac_2' }, as: 'none', shared: 'vault read ac_1' }))).toMatch(
      /shared request "vault read ac_1" was first .* and is now .*: one key, one request/,
    );
  });

  it('builds operation URLs from the spec, percent-encoding path ids', () => {
    const s = session({ requests: 0 });
    expect(s.url('vault', { id: 'a/b c' })).toBe('https://tenant.example.com/api/v2/flows/vault/connections/a%2Fb%20c');
    expect(s.url('redeliver', { id: 'est_1', event_id: 'evt_2' }, 'access_token=x')).toBe(
      'https://tenant.example.com/api/v2/event-streams/est_1/redeliver/evt_2?access_token=x',
    );
  });
});
