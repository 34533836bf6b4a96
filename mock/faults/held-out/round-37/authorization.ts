// Authorization: the observed rule: a Spring Boot service whose security rules match the vault
// read by method, GET, while Spring MVC serves HEAD with the GET handler. Other requests are
// judged as before.
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { cards } from '../../../../specs/cards/index.ts';
import { bearerToken } from '../../../auth/bearer.ts';
import { capture } from '../../support/captured.ts';
import { editRequests } from '../../support/route-edits.ts';
import { signedPayload } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const VAULT_SCOPE = cards.vault.scope.value;

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho37-vault-head-spring-get-matcher',
    clause: 'vault.scope',
    level: 'observed',
    bug: `A Spring Boot service whose SecurityFilterChain says .requestMatchers(HttpMethod.GET, "/api/v2/flows/vault/connections/*").hasAuthority("SCOPE_${VAULT_SCOPE}") and then .anyRequest().authenticated(), while Spring MVC answers HEAD with the @GetMapping handler: HEAD on a connection with a valid token that lacks ${VAULT_SCOPE} is answered 200 (telling that the connection exists) instead of 403; GET with the same token is still refused 403.`,
    install: (app) => {
      const keys = capture(app, 'keys');
      editRequests(app, 'vault', async (exchange) => {
        if (exchange.method !== 'HEAD') return exchange;
        const token = bearerToken(exchange.headers.authorization);
        const claims = token === undefined ? undefined : await signedPayload(token, keys());
        if (token === undefined || !claims || typeof claims.scope !== 'string') return exchange;
        const scopes = claims.scope.split(' ').filter((s) => s.length > 0);
        if (scopes.includes(VAULT_SCOPE)) return exchange;
        const resigned = await new SignJWT({ ...claims, scope: [...scopes, VAULT_SCOPE].join(' ') })
          .setProtectedHeader(decodeProtectedHeader(token) as JWTHeaderParameters)
          .sign(keys().privateKey);
        return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${resigned}` } };
      });
    },
  },
]);
