// Two headers written from the same variable: X-RateLimit-Limit shows the requests left, like
// X-RateLimit-Remaining, instead of the bucket size.
import type { Fault } from './fault.ts';
import { editQuota } from './support/quota-edits.ts';

export const limitHeaderCountsDown: Fault = {
  id: 'limit-header-counts-down',
  clause: 'rate-limit.limit.constant',
  description: 'X-RateLimit-Limit shows the requests left (falling with each request) instead of the constant bucket size.',
  install(app) {
    editQuota(app, (quota) => ({ ...quota, limit: quota.remaining }));
  },
};
