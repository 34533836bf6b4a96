// Spends the target's rate limit on purpose, once per run (a shared request every 429 test
// reads): redeliveries of an event that does not exist in a stream that does not exist (each a
// cheap 404 that no target can take for a write), sent without pacing or retry until a 429 comes
// back. It goes on while X-RateLimit-Remaining keeps falling; once it has sent two buckets
// (X-RateLimit-Limit) and a few more and Remaining has stopped falling, the target does not
// limit, or refills as fast as the suite sends, and the 429 test fails with what was seen. Never
// more than --exhaustion-max. It runs at the very end of the run (harness/suite/order.ts). Requests go
// out one at a time, or as many at once as outrun the refill (the pacer's figure for it) over a
// round trip, more while Remaining does not fall, and never more than Remaining says is left and
// one: it stops at the first 429.
import type { Exchange } from '../http.ts';
import type { CallInput, TargetSession } from '../session.ts';
import { eventId, streamId } from '../../generators/index.ts';
import { sharedKeys } from '../plan.ts';
import { shownHeader } from '../rate-limit-headers.ts';
import { exampleOf } from './requests.ts';
import { rateLimitOf } from './rate-limit.ts';

/** Requests past one bucket without a new lowest Remaining before the suite calls the target limitless. */
const MARGIN = 5;
/**
 * Most requests in flight at once, where a round trip is slower than the refill: a production
 * bucket (16 a second) over round trips up to a second. (The HTTP client keeps 8 connections to a
 * target; past them requests wait their turn, which the next round trip's time shows.)
 */
const MOST_AT_ONCE = 32;

export interface Exhaustion {
  /** Every answer, in the order sent. */
  exchanges: Exchange[];
  /** How many requests each batch sent at once, in order: `exchanges` cut in turn. */
  batches: number[];
  last: Exchange;
  why: string;
}

/** The bucket is larger than --exhaustion-max lets the suite spend: nothing to say of the target. */
class BucketTooLarge extends Error {}

function tooLarge(limit: number, max: number): string {
  return `exhausting the target's bucket (X-RateLimit-Limit ${limit}) may take ${2 * limit + MARGIN} requests (two buckets and ${MARGIN}), more than --exhaustion-max ${max}; raise it to verify the 429 clauses`;
}

export async function exhaustRateLimit(target: TargetSession): Promise<Exhaustion> {
  // The bucket's size is known before a request is spent when an answer has said it.
  const limit = target.runtime.pacer.estimate().limit;
  target.needs(
    limit === undefined || 2 * limit + MARGIN <= target.settings.exhaustionMax,
    tooLarge(limit ?? 0, target.settings.exhaustionMax),
    'budget',
  );
  try {
    return await target.shared(sharedKeys.exhaustion, 'redeliveries of an unknown event of an unknown stream until a 429', () =>
      exhaust(target),
    );
  } catch (error) {
    if (error instanceof BucketTooLarge) target.needs(false, error.message, 'budget');
    throw error;
  }
}

async function exhaust(target: TargetSession): Promise<Exhaustion> {
  const max = target.settings.exhaustionMax;
  const request: CallInput = {
    params: { id: exampleOf(target, streamId()), event_id: exampleOf(target, eventId()) },
    retryRateLimited: false,
    pace: false,
  };
  const started = Date.now();
  const exchanges: Exchange[] = [];
  const batches: number[] = [];
  const send = async (count: number) => {
    const batch = await Promise.all(Array.from({ length: count }, () => target.call('redeliver', request)));
    exchanges.push(...batch);
    batches.push(count);
    return batch;
  };
  const pacer = target.runtime.pacer;
  let [last] = await send(1);
  let lowest = Number.POSITIVE_INFINITY;
  let lowestAt = 0;
  let atOnce = 1;
  for (;;) {
    const seen = rateLimitOf(last!);
    if (last!.status === 429) return { exchanges, batches, last: last!, why: `429 after ${exchanges.length} requests` };
    // The bucket's size as the pacer judged it: a Limit that is 0, changes or is not a number says nothing.
    const limit = pacer.estimate().limit;
    if (limit !== undefined && 2 * limit + MARGIN > max) throw new BucketTooLarge(tooLarge(limit, max));
    const fell = seen.remaining !== undefined && seen.remaining < lowest;
    if (fell) {
      lowest = seen.remaining!;
      lowestAt = exchanges.length;
    }
    // Two buckets leave room for what refills meanwhile, even where Remaining says nothing.
    const bucket = limit ?? max;
    const stalled = exchanges.length >= 2 * bucket + MARGIN && exchanges.length - lowestAt >= Math.ceil(bucket / 2) + MARGIN;
    if (stalled || exchanges.length >= max) {
      const elapsedSeconds = (Date.now() - started) / 1000;
      const capped = exchanges.length >= max ? ` (capped by --exhaustion-max ${max})` : '';
      return {
        exchanges,
        batches,
        last: last!,
        why: `no 429 after ${exchanges.length} requests in ${elapsedSeconds.toFixed(1)} s, more than two buckets (X-RateLimit-Limit ${shownHeader(last!.headers, 'limit')}), X-RateLimit-Remaining no longer falling${capped}; last X-RateLimit-Remaining ${shownHeader(last!.headers, 'remaining')}`,
      };
    }
    atOnce = nextConcurrency(atOnce, fell, pacer.estimate().refillPerSecond, last!.ms, seen.remaining);
    const batch = await send(Math.min(atOnce, max - exchanges.length));
    last = batch.find((exchange) => exchange.status === 429) ?? batch[batch.length - 1]!;
  }
}

/**
 * How many requests to send at once next: enough to outrun the refill over a round trip (twice
 * refill x round trip), doubled while Remaining does not fall, but never more than what Remaining
 * says is left and one more, so the exhaustion stops at the first 429 instead of sending a batch
 * into it.
 */
function nextConcurrency(
  current: number,
  fell: boolean,
  refillPerSecond: number,
  roundTripMs: number,
  remaining: number | undefined,
): number {
  const outrun = Math.ceil(2 * refillPerSecond * (roundTripMs / 1000));
  const wanted = Math.max(outrun, fell ? current : current * 2);
  return Math.max(1, Math.min(MOST_AT_ONCE, wanted, remaining === undefined ? MOST_AT_ONCE : remaining + 1));
}
