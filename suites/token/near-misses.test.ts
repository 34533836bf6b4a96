// Spec section 5 rule 3: tokens come from the client-credentials grant, for the audience /api/v2/.
// A secret near the client's authenticates no one, and an audience near the management
// interface's names no API the client holds a grant for: the endpoint issues no token for either
// (contract), and answers in its own error shape, 401 invalid_client and 403 access_denied
// (observed). One request per near miss, read by both.
import { conformance, expectEqual, expectRefused, expectSchema, expectStatus } from '../../harness/index.ts';
import { observed, validator } from '../../specs/index.ts';
import { nearMissAudiences, nearMissSecrets, wrongSecret, type RefusedTokenRequest } from './refused-token-requests.ts';

function errorOf(exchange: { json: unknown }): unknown {
  return (exchange.json as { error?: unknown } | undefined)?.error;
}

const rows: Array<{ clause: string; error: 'invalid_client' | 'access_denied'; far?: RefusedTokenRequest; near: RefusedTokenRequest[] }> = [
  // The far case's observed answer is read by endpoint.test.ts.
  { clause: 'token.endpoint.wrong-secret', error: 'invalid_client', far: wrongSecret, near: nearMissSecrets },
  { clause: 'token.endpoint.audience', error: 'access_denied', near: nearMissAudiences },
];

for (const { clause, error, far, near } of rows) {
  for (const request of far ? [far, ...near] : near) {
    conformance(
      `[§5 ${clause}] the token endpoint issues no token for a request with ${request.what}`,
      request.plan,
      async ({ target }) => {
        expectRefused((await request.send(target)).exchange);
      },
    );
  }

  const status = observed.tokens.errors[error]!.status;
  for (const request of near) {
    conformance(
      `[§5 token.observed.errors] the token endpoint answers a request with ${request.what} ${status} ${error}`,
      request.plan,
      async ({ target }) => {
        const { exchange } = await request.send(target);
        expectStatus(exchange, status);
        expectSchema(exchange, validator('TokenError', 'observed'), `{error: "${error}", error_description}`);
        expectEqual(errorOf(exchange), error, 'error', { exchange });
      },
    );
  }
}
