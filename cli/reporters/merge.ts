// The results of a sharded run's shards, as one run: the union of their tests, the verdict
// recomputed over every clause (a shard answers only for its own), requests and waiting summed.
// Shards of different runs (another seed, target, suite commit) are refused.
import { mergeTokenReports } from '../token-report.ts';
import { summarize, type ConfirmationTally, type RunInfo, type RunResult } from './results.ts';

export function mergeShardResults(shards: RunResult[]): { result: RunResult } | { problem: string } {
  const first = shards[0];
  if (!first) return { problem: 'no shard to merge' };
  for (const shard of shards.slice(1)) {
    for (const field of ['seed', 'target', 'commit', 'strict'] as const) {
      if (String(shard.info[field]) !== String(first.info[field])) {
        return {
          problem: `shard ${shard.info.shard?.index}/${shard.info.shard?.count} comes from another run than shard ${first.info.shard?.index}/${first.info.shard?.count} (${field} ${String(shard.info[field])}, not ${String(first.info[field])}); run every shard with the same --seed against the same target`,
        };
      }
    }
  }
  const sum = (read: (info: RunInfo) => number) => shards.reduce((total, s) => total + read(s.info), 0);
  const shared: Record<string, number> = {};
  for (const s of shards) for (const [key, cost] of Object.entries(s.info.shared)) shared[key] = (shared[key] ?? 0) + cost;
  const { shard: _shard, ...base } = first.info;
  const info: RunInfo = {
    ...base,
    startedAt: shards.map((s) => s.info.startedAt).sort()[0]!,
    wallMs: Math.max(...shards.map((s) => s.info.wallMs)),
    filtered: shards.some((s) => s.info.filtered),
    preflightRequests: sum((i) => i.preflightRequests),
    shared,
    plannedRequests: sum((i) => i.plannedRequests),
    waitedMs: sum((i) => i.waitedMs),
    unplanned429s: sum((i) => i.unplanned429s),
    ...stoppedOf(shards),
    ...optional('tokens', mergeTokenReports(shards.map((s) => s.info.tokens))),
    ...optional('confirmations', mergeConfirmations(shards.map((s) => s.info.confirmations))),
    // Each shard paced itself; the first one's account stands for the target's limit.
    ...optional('pacing', shards.find((s) => s.info.pacing)?.info.pacing),
  };
  return {
    result: summarize(
      shards.flatMap((s) => s.tests),
      shards.flatMap((s) => s.unhandled),
      info,
    ),
  };
}

/** The shards' stops as one: the gravest cause (the suite's, the target's, its rate limit's), every reason. */
function stoppedOf(shards: RunResult[]): Pick<RunInfo, 'stopped'> {
  const stops = shards.flatMap((s) => (s.info.stopped ? [{ shard: s.info.shard, ...s.info.stopped }] : []));
  if (stops.length === 0) return {};
  const causes: Array<NonNullable<RunInfo['stopped']>['cause']> = ['suite', 'target', 'rate-limit'];
  const cause = causes.find((c) => stops.some((s) => s.cause === c))!;
  const reason = stops.map((s) => `${s.shard ? `shard ${s.shard.index}/${s.shard.count}: ` : ''}${s.reason}`).join('; ');
  return { stopped: { cause, reason } };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function mergeConfirmations(tallies: ReadonlyArray<ConfirmationTally | undefined>): ConfirmationTally | undefined {
  const present = tallies.filter((t): t is ConfirmationTally => t !== undefined);
  if (present.length === 0) return undefined;
  const sum = (key: keyof ConfirmationTally) => present.reduce((total, t) => total + t[key], 0);
  return {
    reserve: sum('reserve'),
    requests: sum('requests'),
    reproduced: sum('reproduced'),
    notReproduced: sum('notReproduced'),
    notConfirmed: sum('notConfirmed'),
  };
}
