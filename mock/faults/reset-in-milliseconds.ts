// X-RateLimit-Reset written from a millisecond clock without dividing by 1000.
import type { Fault } from './fault.ts';
import { editQuota } from './support/quota-edits.ts';

const MS_PER_SECOND = 1000;

export const resetInMilliseconds: Fault = {
  id: 'reset-in-milliseconds',
  clause: 'rate-limit.reset.unix-seconds',
  description: 'X-RateLimit-Reset is a Unix time in milliseconds instead of seconds.',
  install(app) {
    editQuota(app, (quota) => ({ ...quota, resetSeconds: quota.resetSeconds * MS_PER_SECOND }));
  },
};
