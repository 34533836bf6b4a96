// The preconditions of a test: what is missing or not allowed becomes a skip with its reason.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../runtime.ts';
import { TargetSession } from '../session.ts';
import type { ResolvedTarget, RunSettings } from '../settings.ts';

class Skipped extends Error {}

function session(target: Partial<ResolvedTarget>, settings: Partial<RunSettings> = {}, holdsSigningKey = false): TargetSession {
  const fullTarget: ResolvedTarget = {
    source: 'test', baseUrl: 'https://tenant.example.com/api/v2', authUrl: 'https://tenant.example.com', audience: 'https://tenant.example.com/api/v2/',
    customDomainHeader: 'tenant-custom-domain', roles: {}, fixtures: { vaultConnections: [] }, loopback: false, ...target,
  };
  const runtime = {
    settings: { target: fullTarget, allowWrites: false, allowRateLimitExhaustion: false, ...settings } as RunSettings,
    forge: { holdsSigningKey },
  } as unknown as Runtime;
  return new TargetSession(runtime, (note: string) => { throw new Skipped(note); });
}

function skipReason(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof Skipped) return error.message;
    throw error;
  }
  return 'not skipped';
}

describe('TargetSession preconditions', () => {
  it('skips a test whose role is not configured, naming the field', () => {
    expect(skipReason(() => session({}).role('non_global'))).toBe('role non_global is not configured (roles.non_global in the target file)');
  });

  it('skips a test whose fixture is not configured, naming the field', () => {
    expect(skipReason(() => session({}).fixture('notRedeliverableEvent'))).toBe('fixture not_redeliverable_event is not configured (fixtures.not_redeliverable_event in the target file)');
    expect(skipReason(() => session({}).fixture('vaultConnections'))).toMatch(/fixture vault_connections is not configured/);
  });

  it('skips writes to a non-loopback target without --allow-writes', () => {
    expect(skipReason(() => session({}).writes())).toBe('writes to a non-loopback target run only with --allow-writes');
    expect(skipReason(() => session({}, { allowWrites: true }).writes())).toBe('not skipped');
    expect(skipReason(() => session({ loopback: true }).writes())).toBe('not skipped');
  });

  it('skips rate-limit exhaustion of a non-loopback target without its opt-in', () => {
    expect(skipReason(() => session({}).exhaustsRateLimit())).toBe('spending the rate limit of a non-loopback target runs only with --allow-rate-limit-exhaustion');
    expect(skipReason(() => session({}, { allowRateLimitExhaustion: true }).exhaustsRateLimit())).toBe('not skipped');
  });

  it('skips what needs the signing key when the suite does not hold it', () => {
    expect(skipReason(() => session({}).signingKey())).toMatch(/needs the target signing key/);
    expect(skipReason(() => session({}, {}, true).signingKey())).toBe('not skipped');
  });

  it('returns what is configured', () => {
    const s = session({ roles: { non_global: { clientId: 'a', clientSecret: 'b' } }, fixtures: { vaultConnections: ['ac_1'], eventStream: 'est_x' } });
    expect(s.role('non_global')).toBe('non_global');
    expect(s.fixture('eventStream')).toBe('est_x');
    expect(s.fixture('vaultConnections')).toEqual(['ac_1']);
  });

  it('builds operation URLs from the spec, percent-encoding path ids', () => {
    expect(session({}).url('vault', { id: 'a/b c' })).toBe('https://tenant.example.com/api/v2/flows/vault/connections/a%2Fb%20c');
    expect(session({}).url('redeliver', { id: 'est_1', event_id: 'evt_2' })).toBe('https://tenant.example.com/api/v2/event-streams/est_1/redeliver/evt_2');
  });
});
