// The token endpoint's quota header (observed.tokens.quota): what is left of a client's hourly and
// daily quotas of issued tokens, read so the run can report it and stop asking for tokens a
// spent quota would refuse. The value comes from the target: it is shown escaped and capped.
import { observed } from '../specs/index.ts';

export interface QuotaBucket {
  bucket: string;
  quota: number;
  remaining: number;
  /** Seconds until the bucket starts again. */
  resetsIn: number;
}

/** The header's name as the HTTP client gives it (lower case). */
export const QUOTA_HEADER = observed.tokens.quota.header.toLowerCase();

const SHOWN_CHARS = 120;

/** b=per_hour;q=10;r=7;t=3540,b=per_day;q=50;r=47;t=43200 as buckets; undefined when it is not that. */
export function parseQuotaHeader(value: string): QuotaBucket[] | undefined {
  const buckets: QuotaBucket[] = [];
  for (const part of value.split(',')) {
    const fields = new Map(
      part
        .trim()
        .split(';')
        .map((pair) => {
          const at = pair.indexOf('=');
          return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()] as const;
        }),
    );
    const number = (name: string) => (/^\d{1,15}$/.test(fields.get(name) ?? '') ? Number(fields.get(name)) : undefined);
    const [bucket, quota, remaining, resetsIn] = [fields.get('b'), number('q'), number('r'), number('t')];
    if (!bucket || !/^[a-z_]{1,20}$/.test(bucket) || quota === undefined || remaining === undefined || resetsIn === undefined)
      return undefined;
    buckets.push({ bucket, quota, remaining, resetsIn });
  }
  return buckets.length > 0 ? buckets : undefined;
}

/** "per_hour 7 of 10 left (resets in 59 min)", or the raw value, escaped, when it cannot be read. */
export function describeQuota(value: string): string {
  const buckets = parseQuotaHeader(value);
  if (!buckets) {
    const shown = value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value;
    return `unreadable: ${JSON.stringify(shown)}`;
  }
  return buckets.map((b) => `${b.bucket} ${b.remaining} of ${b.quota} left (resets in ${duration(b.resetsIn)})`).join(', ');
}

/** When a spent bucket of this header starts again (ms since the epoch, from `atMs`), or undefined when none is spent. */
export function quotaSpentUntil(value: string, atMs: number): number | undefined {
  const spent = (parseQuotaHeader(value) ?? []).filter((b) => b.remaining === 0);
  return spent.length === 0 ? undefined : atMs + Math.max(...spent.map((b) => b.resetsIn)) * 1000;
}

/** How far apart two answers' ends of one window may be and still be the same window: t is in whole seconds, and answers take time. */
const SAME_WINDOW_MS = 2000;

/**
 * Whether a quota header seen at `next.at` tells more of the quota's present state than the one
 * kept: answers are seen in the order they return, not the order the endpoint counted them, and
 * two seen within a millisecond are not ordered at all. A bucket whose window ends later has
 * started again since; within the same windows what is left only shrinks, so the header with less
 * left is the later one. Unreadable headers are ordered by when they were seen.
 */
export function supersedes(next: { header: string; at: number }, kept: { header: string; at: number }): boolean {
  const [seen, held] = [parseQuotaHeader(next.header), parseQuotaHeader(kept.header)];
  if (!seen || !held) return next.at >= kept.at;
  const heldEnds = new Map(held.map((b) => [b.bucket, kept.at + b.resetsIn * 1000]));
  for (const bucket of seen) {
    const end = next.at + bucket.resetsIn * 1000;
    const other = heldEnds.get(bucket.bucket);
    if (other !== undefined && Math.abs(end - other) > SAME_WINDOW_MS) return end > other;
  }
  const left = (buckets: QuotaBucket[]) => buckets.reduce((sum, b) => sum + b.remaining, 0);
  return left(seen) === left(held) ? next.at >= kept.at : left(seen) < left(held);
}

function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}
