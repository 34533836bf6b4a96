// The limiter and its headers: the 429's X-RateLimit-* values doubled by an Envoy route that
// appends the local rate limit filter's headers to the service's own; and the observed rule:
// X-RateLimit-Reset written from OpenResty's ngx.now() (seconds with a fraction). Each changes what a
// header says; when requests are refused is as before.
import { observed } from '../../../../specs/index.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const NAMES = observed.rate_limit.headers;
const LEGACY = [NAMES.limit, NAMES.remaining, NAMES.reset];

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho27-429-envoy-headers-appended',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: 'A service behind Envoy whose local rate limit filter is set with append_action APPEND_IF_EXISTS_OR_ADD for its X-RateLimit-* headers, so on the 429 (the only answer the filter writes them to) each value is the service\'s and the filter\'s joined: X-RateLimit-Limit "2, 2", Remaining "0, 0"; the answers before the limit are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (reply.status !== 429) return reply;
        return LEGACY.reduce((current, name) => {
          const value = headerOf(current, name);
          return value === undefined ? current : withHeader(current, name, `${value}, ${value}`);
        }, reply);
      }),
  },
  {
    id: 'ho27-ratelimit-reset-openresty-fraction',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: 'An OpenResty limiter that writes X-RateLimit-Reset from ngx.now() + wait, ngx.now() being seconds with milliseconds as a fraction: the header says e.g. "1764390000.250" instead of a whole number of seconds; the other headers are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const reset = headerOf(reply, NAMES.reset);
        return reset === undefined || !/^\d+$/.test(reset) ? reply : withHeader(reply, NAMES.reset, `${reset}.250`);
      }),
  },
]);
