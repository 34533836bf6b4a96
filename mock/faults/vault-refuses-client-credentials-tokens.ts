// A vault read that only takes tokens of a user grant: a client-credentials token (gty
// client-credentials), which the spec's schemes allow, is refused as an invalid token. Every test
// that reads a connection fails with it; the other operations take such tokens.
import { observed } from '../../specs/index.ts';
import { bearerToken, decodeJws } from '../auth/bearer.ts';
import type { Fault } from './fault.ts';
import { editRequests } from './support/route-edits.ts';

export const vaultRefusesClientCredentialsTokens: Fault = {
  id: 'vault-refuses-client-credentials-tokens',
  clause: 'auth.schemes',
  description: 'The vault read refuses tokens of the client-credentials flow with 401 "Invalid token" (so every test that reads a connection fails).',
  install(app) {
    editRequests(app, 'vault', (exchange) => {
      const token = bearerToken(exchange.headers.authorization);
      const grant = token === undefined ? undefined : decodeJws(token)?.payload.gty;
      if (grant !== observed.tokens.gty) return exchange;
      const { authorization: _dropped, ...headers } = exchange.headers;
      return { ...exchange, headers };
    });
  },
};
