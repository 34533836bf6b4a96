// A gateway in front of the vault read that checks only the shape of the credential ("Bearer" and
// something) and forwards the request with its own service token, the way a mock that validates
// only the header's form behaves. A missing or non-Bearer credential is still refused.
import { observed } from '../../specs/index.ts';
import type { Fault } from './fault.ts';
import type { TokenIssuer } from '../auth/issuer.ts';
import type { Clock } from '../clock.ts';
import type { Store } from '../store.ts';
import { capture } from './support/captured.ts';
import { editRequests } from './support/route-edits.ts';

const BEARER_SHAPE = /^Bearer +\S+$/i;
const VAULT_SCOPE = observed.operations.vault.scope.value;

export const vaultAcceptsAnyBearerToken: Fault = {
  id: 'vault-accepts-any-bearer-token',
  clause: 'auth.bearer.required',
  description: 'The vault read accepts any "Bearer <anything>" credential (forged, tampered, expired or not a JWT), checking only its shape.',
  install(app) {
    const issuer = capture(app, 'issuer');
    const store = capture(app, 'store');
    const clock = capture(app, 'clock');
    let service: { authorization: string; renewAt: number } | undefined;
    editRequests(app, 'vault', async (exchange) => {
      const { authorization } = exchange.headers;
      if (authorization === undefined || !BEARER_SHAPE.test(authorization)) return exchange;
      if (!service || clock().now() >= service.renewAt) service = await serviceCredential(issuer(), store(), clock());
      return { ...exchange, headers: { ...exchange.headers, authorization: service.authorization } };
    });
  },
};

/** A token of a global client that may read connections; renewed at half its lifetime. */
async function serviceCredential(issuer: TokenIssuer, store: Store, clock: Clock): Promise<{ authorization: string; renewAt: number }> {
  const client = store.clients().find((c) => c.global && c.scopes.includes(VAULT_SCOPE));
  if (!client) throw new Error(`the fixtures have no global client with ${VAULT_SCOPE}`);
  const token = await issuer.issue(client, [VAULT_SCOPE]);
  return { authorization: `Bearer ${token.accessToken}`, renewAt: clock.now() + (token.expiresIn * 1000) / 2 };
}
