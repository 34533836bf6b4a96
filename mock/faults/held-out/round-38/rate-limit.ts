// The limiter: an exemption table keyed by the caller's client id with one entry wrong; and the
// observed rule: a Reset taken, for redelivery, from the hourly window of the row it was copied
// from. When requests are refused otherwise is as before.
import { decodeJwt } from 'jose';
import { observed, operationKeys } from '../../../../specs/index.ts';
import { bearerToken } from '../../../auth/bearer.ts';
import type { Quota } from '../../../rate-limiter.ts';
import { capture } from '../../support/captured.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const { reset: RESET } = observed.rate_limit.headers;
/** The client id the exemption table names (the tenant's private_key_jwt client, a global one). */
const EXEMPT_CLIENT_ID = 'Vb9OPzJfVH0Qk2PNICTevrvHY4xHAxd5';
const HOUR_SECONDS = 3600;

/** The azp of the request's bearer token, read without verifying it (as the gateway's descriptor does). */
function callerOf(authorization: string | undefined): string | undefined {
  const token = bearerToken(authorization);
  if (token === undefined) return undefined;
  try {
    const azp = decodeJwt(token).azp;
    return typeof azp === 'string' ? azp : undefined;
  } catch {
    return undefined;
  }
}

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho38-limiter-exemption-table-wrong-client',
    clause: 'redeliver.errors.429',
    level: 'contract',
    bug: `An Envoy front proxy whose local rate limit has a descriptor table keyed by the caller's client id (taken from the token's azp by the jwt_authn filter), with an unlimited entry meant for the deploy pipeline's client that was filled in with another client's id (${EXEMPT_CLIENT_ID}, the tenant's private_key_jwt client): that client's requests never take a token, so with the bucket spent its redelivery is answered 202 instead of 429; every other client, the global one among them, is still refused 429.`,
    install: (app) => {
      let exemptNext = false;
      let last: Quota | undefined;
      app.override('limiter', (limiter) => ({
        config: limiter.config,
        take() {
          if (exemptNext) {
            exemptNext = false;
            const quota = last ?? {
              allowed: true,
              limit: limiter.config.bucketSize,
              remaining: limiter.config.bucketSize,
              resetSeconds: 0,
            };
            return { ...quota, allowed: true };
          }
          last = limiter.take();
          return last;
        },
      }));
      for (const key of operationKeys) {
        app.wrapRoute(key, (next) => (exchange) => {
          exemptNext = callerOf(exchange.headers.authorization) === EXEMPT_CLIENT_ID;
          return next(exchange);
        });
      }
    },
  },
  {
    id: 'ho38-reset-redeliver-hourly-window-row',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: `A Kong service whose rate-limiting header plugin takes each route's window from a per-route table, the redelivery row copied from the hourly quota row of the event-stream writes (window "hour"): redelivery answers carry ${RESET} = the start of the next clock hour (up to an hour away) instead of the moment the next token comes, within a minute; the ticket and vault answers, and the 429s, are as before.`,
    install: (app) => {
      const clock = capture(app, 'clock');
      editReplies(app, ['redeliver'], (reply) => {
        if (reply.status === 429 || headerOf(reply, RESET) === undefined) return reply;
        const now = Math.floor(clock().now() / 1000);
        return withHeader(reply, RESET, String((Math.floor(now / HOUR_SECONDS) + 1) * HOUR_SECONDS));
      });
    },
  },
]);
