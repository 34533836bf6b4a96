// Faults in what the rate limiter reports: the quota of each request, which the X-RateLimit headers
// are written from, changed after the limiter has decided.
import type { FaultHooks } from '../../app.ts';
import type { Clock } from '../../clock.ts';
import type { Quota } from '../../rate-limiter.ts';

export function editQuota(app: FaultHooks, edit: (quota: Quota, clock: Clock) => Quota): void {
  app.override('limiter', (limiter, built) => ({
    config: limiter.config,
    take() {
      return edit(limiter.take(), built.clock!);
    },
  }));
}
