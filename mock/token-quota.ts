// Quotas of issued tokens per client, as the service applies them to machine-to-machine
// applications (observed.tokens.quota): an hourly and a daily count of the tokens a client was
// issued, each window starting at the UTC hour or day. A client past a quota gets a 429 at the
// token endpoint instead of a token; every client-credentials answer of a client with a quota,
// success or 429, carries the quota header saying what is left of each bucket.
import { observed } from '../specs/index.ts';
import type { Clock } from './clock.ts';

/** A quota's size per bucket; an absent bucket is not limited. */
export interface TokenQuotaConfig {
  perHour?: number;
  perDay?: number;
}

export interface QuotaDecision {
  /** Whether a token may be issued now (it is counted when it may). */
  allowed: boolean;
  /** The quota header and, on a refusal, Retry-After; none for a client without a quota. */
  headers: Record<string, string>;
}

export interface TokenQuotas {
  /** Takes one token of a client's quotas if every bucket has one left; says what is left either way. */
  take(clientId: string): QuotaDecision;
  /** Tokens issued to a client so far (every window), for tests that count what a run minted. */
  issuedTo(clientId: string): number;
  /** Tokens issued to every client so far. */
  readonly issued: number;
}

type BucketName = keyof typeof observed.tokens.quota.buckets;

const bucketNames = Object.keys(observed.tokens.quota.buckets) as BucketName[];
const configOf: Record<BucketName, keyof TokenQuotaConfig> = { per_hour: 'perHour', per_day: 'perDay' };

interface Counter {
  window: number;
  count: number;
}

/**
 * `quotaOf` gives each client's quota (its own, or the tenant's default); a client it gives none is
 * not limited and gets no header.
 */
export function createTokenQuotas(quotaOf: (clientId: string) => TokenQuotaConfig | undefined, clock: Clock): TokenQuotas {
  const counters = new Map<string, Record<BucketName, Counter>>();
  const totals = new Map<string, number>();
  let issued = 0;

  function countersOf(clientId: string, now: number): Record<BucketName, Counter> {
    const current = counters.get(clientId) ?? { per_hour: { window: -1, count: 0 }, per_day: { window: -1, count: 0 } };
    for (const name of bucketNames) {
      const window = Math.floor(now / (observed.tokens.quota.buckets[name] * 1000));
      // A new window starts from nothing; a clock set backwards keeps the count it had.
      if (window > current[name].window) current[name] = { window, count: 0 };
    }
    counters.set(clientId, current);
    return current;
  }

  return {
    take(clientId) {
      const quota = quotaOf(clientId);
      const limited = bucketNames.filter((name) => quota?.[configOf[name]] !== undefined);
      if (!quota || limited.length === 0) {
        count(clientId);
        return { allowed: true, headers: {} };
      }
      const now = clock.now();
      const current = countersOf(clientId, now);
      const spent = limited.filter((name) => current[name].count >= quota[configOf[name]]!);
      if (spent.length === 0) {
        for (const name of limited) current[name].count += 1;
        count(clientId);
      }
      const secondsLeft = (name: BucketName) => {
        const length = observed.tokens.quota.buckets[name] * 1000;
        return Math.max(1, Math.ceil(((current[name].window + 1) * length - now) / 1000));
      };
      const value = limited
        .map((name) => {
          const q = quota[configOf[name]]!;
          return `b=${name};q=${q};r=${Math.max(0, q - current[name].count)};t=${secondsLeft(name)}`;
        })
        .join(',');
      const headers: Record<string, string> = { [observed.tokens.quota.header]: value };
      if (spent.length > 0) headers['retry-after'] = String(Math.max(...spent.map(secondsLeft)));
      return { allowed: spent.length === 0, headers };
    },
    issuedTo: (clientId) => totals.get(clientId) ?? 0,
    get issued() {
      return issued;
    },
  };

  function count(clientId: string): void {
    issued += 1;
    totals.set(clientId, (totals.get(clientId) ?? 0) + 1);
  }
}
