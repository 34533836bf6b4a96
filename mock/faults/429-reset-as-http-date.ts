// A 429 that writes its reset time the way Retry-After may be written, as an HTTP date, where the
// header is an integer (the spec's openapi.yaml types it as one).
import type { Fault } from './fault.ts';
import { RATE_LIMIT_HEADER, TOO_MANY_REQUESTS } from './support/rate-limit-headers.ts';
import { editReplies, MANAGEMENT_ROUTES } from './support/route-edits.ts';

export const tooManyRequestsResetAsHttpDate: Fault = {
  id: '429-reset-as-http-date',
  clause: 'rate-limit.429.headers',
  description: 'A 429 carries X-RateLimit-Reset as an HTTP date instead of an integer.',
  install(app) {
    editReplies(app, MANAGEMENT_ROUTES, (reply) => {
      if (reply.status !== TOO_MANY_REQUESTS) return reply;
      const seconds = Number(reply.headers[RATE_LIMIT_HEADER.reset]);
      return { ...reply, headers: { ...reply.headers, [RATE_LIMIT_HEADER.reset]: new Date(seconds * 1000).toUTCString() } };
    });
  },
};
