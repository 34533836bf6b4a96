// Authorization, where a credential meets a particular request: a gateway that picks the
// permission from the overridden method; and the observed rules: the scope guard run before the
// global-client guard, a field filter that skips the object permission. Other requests are judged
// as before.
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { cards } from '../../../../specs/cards/index.ts';
import { bearerToken } from '../../../auth/bearer.ts';
import type { Exchange } from '../../../exchange.ts';
import { capture, captureAll } from '../../support/captured.ts';
import { editRequests } from '../../support/route-edits.ts';
import { signedPayload } from '../../support/verifier-edits.ts';
import type { SigningKeys } from '../../../auth/keys.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const READ_DELIVERIES = 'read:event_deliveries';
const VAULT_SCOPE = cards.vault.scope.value;
const OVERRIDE = 'x-http-method-override';
const UNAUTHORIZED = 401;

/** The exchange with its token re-signed carrying `scope` too, where `when` holds for its scopes. */
async function withScopeAdded(exchange: Exchange, keys: SigningKeys, scope: string, when: (scopes: readonly string[]) => boolean) {
  const token = bearerToken(exchange.headers.authorization);
  const claims = token === undefined ? undefined : await signedPayload(token, keys);
  if (token === undefined || !claims || typeof claims.scope !== 'string') return exchange;
  const scopes = claims.scope.split(' ').filter((s) => s.length > 0);
  if (scopes.includes(scope) || !when(scopes)) return exchange;
  const resigned = await new SignJWT({ ...claims, scope: [...scopes, scope].join(' ') })
    .setProtectedHeader(decodeProtectedHeader(token) as JWTHeaderParameters)
    .sign(keys.privateKey);
  return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${resigned}` } };
}

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho40-redeliver-permission-from-overridden-method',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `A Kong gateway whose ACL plugin maps (route, method) to a permission, GET to ${READ_DELIVERIES} and POST to ${REDELIVER_SCOPE}, reading the method after a request-transformer that honours ${OVERRIDE}, while the upstream (a Go service) ignores the header and redelivers: a POST carrying "${OVERRIDE}: GET" with a token holding ${READ_DELIVERIES} but not ${REDELIVER_SCOPE} is accepted (202) instead of 403; the same token without the header is refused 403, and the header with a token holding neither is still refused.`,
    install: (app) => {
      const keys = capture(app, 'keys');
      editRequests(app, 'redeliver', (exchange) =>
        String(exchange.headers[OVERRIDE] ?? '')
          .trim()
          .toUpperCase() === 'GET'
          ? withScopeAdded(exchange, keys(), REDELIVER_SCOPE, (scopes) => scopes.includes(READ_DELIVERIES))
          : exchange,
      );
    },
  },
  {
    id: 'ho40-scope-guard-before-global-client-guard',
    clause: 'auth.order',
    level: 'observed',
    bug: `A NestJS redelivery controller decorated @UseGuards(ScopesGuard, GlobalClientGuard), the guards listed in the order they were written rather than authentication first: a token of a client that is not global and lacks ${REDELIVER_SCOPE} is answered 403 insufficient_scope instead of 401 "Client is not global"; a non-global client holding the scope is still answered 401, and a global one without it 403.`,
    install: (app) => {
      const components = captureAll(app);
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        const reply = await next(exchange);
        if (reply.status !== UNAUTHORIZED) return reply;
        const { verifier, errors } = components();
        const verification = await verifier.verify(exchange.headers.authorization, exchange.headers.host);
        if (!verification.ok || verification.principal.client.global || verification.principal.scopes.has(REDELIVER_SCOPE)) return reply;
        return answeredInstead(reply, errors.reply('insufficient_scope', REDELIVER_SCOPE));
      });
    },
  },
  {
    id: 'ho40-vault-field-filter-skips-permission',
    clause: 'vault.scope',
    level: 'observed',
    bug: `A Django REST Framework vault view with a sparse-fieldsets mixin whose get_object, overridden for ?fields=, fetches the row with queryset.only(*fields).get(pk=...) and returns it without calling self.check_object_permissions: a read with ?fields=name by a token lacking ${VAULT_SCOPE} is answered 200 instead of 403; the same token without the query is refused 403, and ?fields=name without a token still gets 401.`,
    install: (app) => {
      const keys = capture(app, 'keys');
      editRequests(app, 'vault', (exchange) =>
        new URLSearchParams(exchange.query).has('fields') ? withScopeAdded(exchange, keys(), VAULT_SCOPE, () => true) : exchange,
      );
    },
  },
]);
