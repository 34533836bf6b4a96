// The limiter and its headers: the 429 answered by Traefik's RateLimit middleware before the
// service (none of the service's headers); and the observed rule: X-RateLimit-Reset written by a
// Deno service from Date.now() (milliseconds). Each changes what a header says or whether it is
// there; when requests are refused is as before.
import { observed } from '../../../../specs/index.ts';
import { editReplies, MANAGEMENT_ROUTES, withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const NAMES = observed.rate_limit.headers;
const LEGACY = [NAMES.limit, NAMES.remaining, NAMES.reset];

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho26-429-traefik-middleware',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: `The limit enforced by a Traefik RateLimit middleware in front of the service (moved there from the service during a migration), which answers 429 itself with none of the service's headers: a 429 carries no ${LEGACY.join(', ')} instead of the three; answers within the limit carry them as before, and when a request is refused is as before.`,
    install: (app) => editReplies(app, MANAGEMENT_ROUTES, (reply) => (reply.status === 429 ? withoutHeaders(reply, LEGACY) : reply)),
  },
  {
    id: 'ho26-ratelimit-reset-deno-millis',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: `A Deno service computing ${NAMES.reset} as Date.now() + msUntilRefill, Date.now() being milliseconds where the old Python service used time.time(): the header is the reset time in Unix milliseconds (13 digits) instead of seconds; ${NAMES.limit} and ${NAMES.remaining} are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const reset = headerOf(reply, NAMES.reset);
        return reset === undefined || !/^\d+$/.test(reset) ? reply : withHeader(reply, NAMES.reset, String(Number(reset) * 1000));
      }),
  },
]);
