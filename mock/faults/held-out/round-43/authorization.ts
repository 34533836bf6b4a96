// Authorization, each check skipped for a legal form of another part of the request: a NestJS
// global-client guard that reads the token with split(" ") and lets a request through when it finds
// none, and an Istio mesh whose deny rule matches the raw path with a regular expression of the ids.
// Other requests are judged as before.
import { AsyncLocalStorage } from 'node:async_hooks';
import { cards } from '../../../../specs/cards/index.ts';
import type { OperationKey } from '../../../../specs/index.ts';
import type { FaultHooks } from '../../../app.ts';
import type { Principal } from '../../../auth/verifier.ts';
import type { Exchange } from '../../../exchange.ts';
import { editPrincipal } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
/** The ids as the deny rule's regular expression writes them: no "%" among them. */
const RAW_ID = /^(est|evt)_[1-9A-HJ-NP-Za-km-z]{22}$/;

/** The caller as one route's check sees it when `applies` holds for the request; the verifier is otherwise unchanged. */
function principalSeenAt(app: FaultHooks, key: OperationKey, applies: (exchange: Exchange) => boolean, edit: (p: Principal) => Principal) {
  const marked = new AsyncLocalStorage<boolean>();
  editPrincipal(app, (principal) => (marked.getStore() === true ? edit(principal) : principal));
  app.wrapRoute(key, (next) => (exchange) => marked.run(applies(exchange), () => next(exchange)));
}

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho43-nest-global-guard-split-double-space',
    clause: 'redeliver.errors.401.not-global',
    level: 'contract',
    bug: 'A NestJS redelivery controller whose GlobalClientGuard reads the token again with const [, token] = req.headers.authorization.split(" ") and returns true when it finds none (leaving missing tokens to the JwtAuthGuard before it, whose passport-jwt extractor takes any run of spaces): "Authorization: Bearer  <token>" with two spaces (RFC 6750 2.1 allows one or more) of a non-global client is redelivered (202) instead of 401; the same token after one space is still refused 401, and a global client\'s token is served either way.',
    install: (app) =>
      principalSeenAt(
        app,
        'redeliver',
        (exchange) => /^Bearer {2,}\S/i.test(exchange.headers.authorization ?? ''),
        (principal) => ({ ...principal, client: { ...principal.client, global: true } }),
      ),
  },
  {
    id: 'ho43-istio-deny-regex-misses-encoded-id',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `An Istio mesh whose AuthorizationPolicy (action DENY, notValues ["${REDELIVER_SCOPE}"] on request.auth.claims[scope]) matches redelivery by a regular expression of the ids over the path as sent, with the mesh's path normalisation left at BASE, which does not decode %XX, the service trusting the mesh for the scope: a redelivery whose event id has one character percent-encoded (the same URI, RFC 3986 6.2.2.2), with a token of a global client without ${REDELIVER_SCOPE}, is redelivered (202) instead of 403; the same request with the id written plainly is still refused 403, and a token holding the scope is served either way.`,
    install: (app) =>
      principalSeenAt(
        app,
        'redeliver',
        (exchange) => Object.values(exchange.params).some((raw) => raw.includes('%') && !RAW_ID.test(raw)),
        (principal) => ({ ...principal, scopes: new Set([...principal.scopes, REDELIVER_SCOPE]) }),
      ),
  },
]);
