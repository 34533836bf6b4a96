// An off-by-one in the Remaining header: the request is subtracted once more after the limiter
// has counted it, so Remaining shows one less than is left and reaches -1 when the bucket is empty
// (on the request that takes the last token, and on every 429).
import type { Fault } from './fault.ts';
import { editQuota } from './support/quota-edits.ts';

export const remainingGoesNegative: Fault = {
  id: 'remaining-goes-negative',
  clause: 'rate-limit.remaining.falls',
  description: 'X-RateLimit-Remaining is one less than the requests left, so it reads -1 once the bucket is empty.',
  install(app) {
    editQuota(app, (quota) => ({ ...quota, remaining: quota.remaining - 1 }));
  },
};
