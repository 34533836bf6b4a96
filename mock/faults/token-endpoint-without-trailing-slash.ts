// The token endpoint routed without the trailing slash only: POST /oauth/token/, the path the spec
// names, is answered 404. Every test needs a token from there, so every test fails with it.
import type { Fault } from './fault.ts';
import { capture } from './support/captured.ts';

export const tokenEndpointWithoutTrailingSlash: Fault = {
  id: 'token-endpoint-without-trailing-slash',
  clause: 'token.endpoint',
  description: 'The token endpoint answers only at /oauth/token; /oauth/token/ (the spec\'s path) is answered 404, so no test gets a token.',
  install(app) {
    const errors = capture(app, 'errors');
    app.wrapRoute('token', (next) => async (exchange) => (exchange.path.endsWith('/') ? errors().reply('route_not_found') : next(exchange)));
  },
};
