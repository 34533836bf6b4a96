// The limiter: a Kong route list that names GET and POST, leaving HEAD to a catch-all route without
// the rate-limiting plugin. GET and POST are limited as before.
import { AsyncLocalStorage } from 'node:async_hooks';
import { observed } from '../../../../specs/index.ts';
import type { RateLimiter } from '../../../rate-limiter.ts';
import { withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const RATE_HEADERS = Object.values(observed.rate_limit.headers);

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho43-kong-route-methods-leave-head-unlimited',
    clause: 'rate-limit.headers.consistent',
    level: 'observed',
    bug: 'A Kong gateway whose vault route lists methods: [GET] with the rate-limiting plugin on it, and a catch-all route without the plugin that forwards everything else, so a HEAD (which the service answers as it answers GET) takes the catch-all: a HEAD on a connection carries no X-RateLimit headers and takes nothing from the bucket, so a GET after a burst of HEADs is still served where it should get 429; a GET carries its headers and is counted as before.',
    install: (app) => {
      const head = new AsyncLocalStorage<boolean>();
      app.override('limiter', (limiter): RateLimiter => ({
        config: limiter.config,
        take: () =>
          head.getStore() === true ? { allowed: true, limit: limiter.config.bucketSize, remaining: 0, resetSeconds: 0 } : limiter.take(),
      }));
      app.wrapRoute('vault', (next) => async (exchange) => {
        if (exchange.method !== 'HEAD') return next(exchange);
        return withoutHeaders(await head.run(true, () => next(exchange)), RATE_HEADERS);
      });
    },
  },
]);
