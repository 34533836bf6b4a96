// The rate limit never bites: the limiter always allows, and its headers always show a full
// bucket, so no amount of requests ever earns a 429.
import type { Fault } from './fault.ts';

export const neverLimits: Fault = {
  id: 'never-limits',
  clause: 'redeliver.errors.429',
  description: 'The rate limiter never refuses a request, so too many requests never get 429.',
  install(app) {
    app.override('limiter', (limiter, { clock }) => ({
      config: limiter.config,
      take() {
        const nowSeconds = Math.ceil((clock?.now() ?? Date.now()) / 1000);
        return { allowed: true, limit: limiter.config.bucketSize, remaining: limiter.config.bucketSize, resetSeconds: nowSeconds };
      },
    }));
  },
};
