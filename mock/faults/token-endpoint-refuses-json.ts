// A token endpoint that parses form bodies only: the JSON request the real service also accepts
// is refused as invalid_request.
import { isJsonMediaType } from '../stages/json-body.ts';
import type { Fault } from './fault.ts';
import { capture } from './support/captured.ts';

export const tokenEndpointRefusesJson: Fault = {
  id: 'token-endpoint-refuses-json',
  clause: 'token.observed.json-request',
  description: 'The token endpoint refuses a JSON request body with 400 invalid_request (form-encoded requests still work).',
  install(app) {
    const errors = capture(app, 'errors');
    app.wrapRoute('token', (next) => async (exchange) =>
      isJsonMediaType(exchange.headers['content-type'])
        ? errors().tokenReply('invalid_request', 'Content-Type must be application/x-www-form-urlencoded.')
        : next(exchange));
  },
};
