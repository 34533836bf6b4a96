// Private-key JWT client authentication at the token endpoint (RFC 7523, observed.tokens
// .client_assertion): a JWS signed with the client's key (RS256, RS384 or PS256), iss = sub = the
// client id, aud = the tenant's issuer (or the token endpoint URL) under an identity the request
// may name, exp at most five minutes after iat, iat and nbf not in the future (10 s of skew), and a
// jti used once. Every refusal is invalid_client; its description says what was wrong.
import { compactVerify } from 'jose';
import { observed } from '../../specs/index.ts';
import type { Clock } from '../clock.ts';
import { tokenDescriptions } from '../errors.ts';
import type { Client, Store } from '../store.ts';
import type { Tenant } from '../tenant.ts';
import { audiencesOf, decodeJws } from './bearer.ts';

const rules = observed.tokens.client_assertion;
const SKEW_MS = rules.clock_skew_seconds.value * 1000;
const MAX_LIFETIME_MS = rules.max_lifetime_seconds.value * 1000;
/** Assertions remembered for replay checks; each is kept until it expires, and at most this many. */
const REMEMBERED_JTIS = 10_000;

export type AssertionCheck = { ok: true; client: Client } | { ok: false; description: string };

export interface AssertionVerifier {
  /** Checks an assertion; `clientId` is the client_id parameter when sent, `host` the request's Host. */
  verify(assertion: string, clientId: string | undefined, host: string | undefined): Promise<AssertionCheck>;
}

export function createAssertionVerifier({ store, tenant, clock }: { store: Store; tenant: Tenant; clock: Clock }): AssertionVerifier {
  /** `${client}\n${jti}` -> when it expires (ms), oldest first; an expired entry counts for nothing. */
  const used = new Map<string, number>();
  /** No entry of `used` expires before this (ms), so a sweep before then would drop nothing. */
  let earliestExpiryMs = Infinity;
  const refuse = (description: string): AssertionCheck => ({ ok: false, description });
  const { assertion: why } = tokenDescriptions;

  function addressedHere(aud: unknown, host: string | undefined): boolean {
    return audiencesOf(aud).some((value) => {
      if (typeof value !== 'string') return false;
      if (tenant.identityForIssuer(value, host)) return true;
      const endpoint = /^(.*\/)oauth\/token\/?$/.exec(value);
      return endpoint !== null && tenant.identityForIssuer(endpoint[1]!, host) !== undefined;
    });
  }

  /** Remembers an assertion for as long as it would be accepted; false when it is remembered and still acceptable (a replay). */
  function remember(key: string, expiresMs: number, nowMs: number): boolean {
    const until = used.get(key);
    if (until !== undefined && until > nowMs) return false;
    used.delete(key);
    if (used.size >= REMEMBERED_JTIS) makeRoom(nowMs);
    used.set(key, expiresMs);
    earliestExpiryMs = Math.min(earliestExpiryMs, expiresMs);
    return true;
  }

  /**
   * Run only when the map is full: drops the expired entries (one walk, and only when one may have
   * expired), then the oldest while it is still full.
   */
  function makeRoom(nowMs: number): void {
    if (nowMs >= earliestExpiryMs) {
      earliestExpiryMs = Infinity;
      for (const [k, until] of used) {
        if (until <= nowMs) used.delete(k);
        else earliestExpiryMs = Math.min(earliestExpiryMs, until);
      }
    }
    for (const k of used.keys()) {
      if (used.size < REMEMBERED_JTIS) break;
      used.delete(k);
    }
  }

  return {
    async verify(assertion, clientId, host) {
      const decoded = decodeJws(assertion);
      if (!decoded) return refuse(why.malformed);
      const alg = String(decoded.header.alg);
      if (!rules.algorithms.value.includes(alg)) return refuse(why.algorithm(alg));
      const { iss, sub, aud, exp, iat, nbf, jti } = decoded.payload;
      if (typeof iss !== 'string' || iss !== sub || (clientId !== undefined && clientId !== iss)) return refuse(why.subject);
      for (const [claim, max] of Object.entries(rules.max_claim_length.value)) {
        const value = decoded.payload[claim];
        if (typeof value === 'string' && value.length > max) return refuse(why.claimTooLong(claim));
      }
      const client = store.client(iss);
      // An unknown client and a client without a key answer alike.
      if (!client?.publicKey) return refuse(tokenDescriptions.clientAuthenticationFailed);
      try {
        await compactVerify(assertion, client.publicKey, { algorithms: [alg] });
      } catch {
        return refuse(tokenDescriptions.clientAuthenticationFailed);
      }
      if (!addressedHere(aud, host)) return refuse(why.audience);
      const nowMs = clock.now();
      if (typeof exp !== 'number' || exp * 1000 <= nowMs - SKEW_MS) return refuse(why.expired);
      const issuedMs = typeof iat === 'number' ? iat * 1000 : nowMs;
      if (issuedMs > nowMs + SKEW_MS || (nbf !== undefined && (typeof nbf !== 'number' || nbf * 1000 > nowMs + SKEW_MS)))
        return refuse(why.notYetValid);
      if (exp * 1000 - Math.min(issuedMs, nowMs) > MAX_LIFETIME_MS + SKEW_MS) return refuse(why.lifetime);
      if (typeof jti !== 'string' || jti === '') return refuse(why.jti);
      if (rules.single_use.value && !remember(`${iss}\n${jti}`, exp * 1000 + SKEW_MS, nowMs)) return refuse(why.replayed);
      return { ok: true, client };
    },
  };
}
