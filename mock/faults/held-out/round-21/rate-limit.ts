// The limiter and its headers: requests carrying an Idempotency-Key not counted (taken for retries
// of a counted request), Remaining counted below zero on refusals (a shared-dict counter decremented
// without a floor); and the observed rules: Reset written as an Erlang timestamp tuple, and Limit
// sent twice and folded by a CDN into one comma-joined value. Each changes when a request is refused
// or what a header says; everything else is answered as before.
import type { Quota } from '../../../rate-limiter.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { limiterPerRequest } from '../round-7/support/exchange-limiter.ts';

const LIMIT = 'x-ratelimit-limit';
const REMAINING = 'x-ratelimit-remaining';
const RESET = 'x-ratelimit-reset';
const headerName = (headers: Record<string, string>, name: string) => Object.keys(headers).find((header) => header.toLowerCase() === name);

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho21-idempotency-key-not-counted',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: 'An idempotency middleware in front of the limiter that takes any request with an Idempotency-Key header for a retry of one already counted (it checks that the header is there, not that its key was seen): a burst whose every request carries a fresh Idempotency-Key is never limited instead of 429 once the bucket is empty; the same burst without the header is limited as before.',
    install: (app) =>
      limiterPerRequest(app, (limiter) => {
        let last: Quota | undefined;
        return (counted) => {
          if (last && counted && counted.exchange.headers['idempotency-key'] !== undefined) return { ...last, allowed: true };
          last = limiter.take();
          return last;
        };
      }),
  },
  {
    id: 'ho21-remaining-negative-on-429',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: 'Remaining read from an OpenResty shared-dict counter decremented on every request, refused ones included, and never floored: the first 429 says X-RateLimit-Remaining: -1, the next -2, instead of 0; admitted requests say what they said before.',
    install: (app) => {
      let refusedInARow = 0;
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const name = headerName(reply.headers, REMAINING);
        if (reply.status !== 429 || name === undefined) {
          if (reply.status !== 429) refusedInARow = 0;
          return reply;
        }
        refusedInARow += 1;
        return { ...reply, headers: { ...reply.headers, [name]: String(Number(reply.headers[name]) - refusedInARow) } };
      });
    },
  },
  {
    id: 'ho21-reset-erlang-timestamp',
    clause: 'rate-limit.reset.unix-seconds',
    level: 'observed',
    bug: 'X-RateLimit-Reset formatted in Erlang with io_lib:format("~p", [Timestamp]) from an erlang:timestamp() tuple: "{1732,800000,0}" instead of "1732800000"; Limit and Remaining are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const name = headerName(reply.headers, RESET);
        const seconds = name === undefined ? NaN : Number(reply.headers[name]);
        if (name === undefined || !Number.isInteger(seconds)) return reply;
        return { ...reply, headers: { ...reply.headers, [name]: `{${Math.floor(seconds / 1_000_000)},${seconds % 1_000_000},0}` } };
      }),
  },
  {
    id: 'ho21-limit-folded-by-cdn',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: 'X-RateLimit-Limit set both by the application and by the gateway in front of it, and the two field lines folded by the CDN into one comma-joined value (RFC 9110 5.3): "2, 2" instead of "2"; Remaining and Reset are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const name = headerName(reply.headers, LIMIT);
        return name === undefined
          ? reply
          : { ...reply, headers: { ...reply.headers, [name]: `${reply.headers[name]}, ${reply.headers[name]}` } };
      }),
  },
]);
