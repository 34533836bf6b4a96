// Spends the target's rate limit on purpose: redeliveries of a stream that does not exist (each a
// cheap 404 that writes nothing), sent without pacing or retry, in parallel batches so they outrun
// the bucket's refill, until a 429 comes back. It gives up when X-RateLimit-Remaining stops
// falling for several batches (the target does not limit, or refills faster than the suite can
// send), or at a hard cap; the caller's assertion then fails with what was seen.
import fc from 'fast-check';
import type { Exchange, TargetSession } from '../../harness/index.ts';
import { streamId, unknownIdOf } from '../../generators/index.ts';
import { rateLimitOf } from './headers.ts';

const BATCH = 20;
const HARD_CAP = 2000;
/** Batches in a row without a new lowest Remaining before giving up. */
const STALLED_BATCHES = 5;

export interface Exhaustion {
  last: Exchange;
  sent: number;
  why: string;
}

export async function exhaustRateLimit(target: TargetSession): Promise<Exhaustion> {
  target.exhaustsRateLimit();
  const [id] = fc.sample(unknownIdOf(streamId(), [target.fixture('eventStream')]), { numRuns: 1, seed: target.settings.seed });
  const request = { params: { id: id!, event_id: target.fixture('failedEvent') }, retryRateLimited: false, pace: false } as const;
  let last = await target.call('redeliver', request);
  let sent = 1;
  let lowest = rateLimitOf(last).remaining ?? Number.POSITIVE_INFINITY;
  let stalled = 0;
  while (last.status !== 429) {
    if (sent >= HARD_CAP) return { last, sent, why: `no 429 after ${sent} requests (the cap)` };
    if (stalled >= STALLED_BATCHES) return { last, sent, why: `no 429 after ${sent} requests: X-RateLimit-Remaining stopped falling at ${lowest}` };
    const batch = await Promise.all(Array.from({ length: Math.min(BATCH, HARD_CAP - sent) }, () => target.call('redeliver', request)));
    sent += batch.length;
    last = batch.find((exchange) => exchange.status === 429) ?? batch[batch.length - 1]!;
    const remaining = Math.min(...batch.map((exchange) => rateLimitOf(exchange).remaining ?? Number.POSITIVE_INFINITY));
    if (remaining < lowest) {
      lowest = remaining;
      stalled = 0;
    } else if (Number.isFinite(lowest) || Number.isFinite(remaining)) {
      stalled += 1;
    }
  }
  return { last, sent, why: `429 after ${sent} requests` };
}
