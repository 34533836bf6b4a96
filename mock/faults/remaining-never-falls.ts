// A Remaining header written from the configuration instead of the bucket: it always shows a full
// bucket, however many requests were made. The limiter itself still counts and refuses.
import type { Fault } from './fault.ts';
import { editQuota } from './support/quota-edits.ts';

export const remainingNeverFalls: Fault = {
  id: 'remaining-never-falls',
  clause: 'rate-limit.remaining.falls',
  description: 'X-RateLimit-Remaining always equals X-RateLimit-Limit, so it never falls as requests are made.',
  install(app) {
    editQuota(app, (quota) => ({ ...quota, remaining: quota.limit }));
  },
};
