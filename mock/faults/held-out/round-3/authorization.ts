// What a verified caller may do: a scope qualified by another API's identifier read by its last
// segment, an empty scope claim filed as an invalid token, and the scope checked before the
// global-client rule. Each changes the answer to one caller; the others are answered as before.
import { observed } from '../../../../specs/index.ts';
import type { Verification } from '../../../auth/verifier.ts';
import type { Reply } from '../../../exchange.ts';
import { captureAll } from '../../support/captured.ts';
import { editReplies } from '../../support/route-edits.ts';
import { editVerifier } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = observed.operations.redeliver.scope.value;
const UNAUTHORIZED = 401;

function messageOf(reply: Reply): unknown {
  const body = reply.body;
  return body !== null && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
}

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho3-redeliver-scope-qualified-by-api',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Redelivery's permission check written for identity providers that qualify scopes with their API ("api://<app>/<scope>") and compares the part after the last "/": a token whose scope holds "https://reports-api.example.com/${REDELIVER_SCOPE}", a scope of another API, is authorized there; one qualifying another scope is still refused with 403.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) => {
        const unqualified = scopes.filter((scope) => scope.includes('/')).map((scope) => scope.slice(scope.lastIndexOf('/') + 1));
        return [...scopes, ...unqualified];
      }),
  },
  {
    id: 'ho3-empty-scope-answered-401',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: 'A verifier that refuses a token whose scope claim is falsy ("if (!claims.scope) return 401 Invalid token"): a valid token with an empty scope is answered 401 by every operation, redelivery included, instead of 403 for the scope it lacks; a token holding other scopes still gets 403.',
    install: (app) =>
      editVerifier(app, (verifier) => {
        const strict = (verification: Verification): Verification =>
          verification.ok && !verification.principal.claims.scope
            ? { ok: false, error: 'invalid_token', reason: 'the token has no scope' }
            : verification;
        return {
          async verify(authorization, host) {
            return strict(await verifier.verify(authorization, host));
          },
          checkClaims: (claims, host) => strict(verifier.checkClaims(claims, host)),
        };
      }),
  },
  {
    id: 'ho3-redeliver-scope-before-global-rule',
    clause: 'auth.order',
    level: 'observed',
    bug: `Redelivery checks the scope before the global-client rule (the permission middleware runs first): a client that is not global, with a token lacking ${REDELIVER_SCOPE}, is answered 403 instead of 401 "Client is not global"; with the scope it still gets 401.`,
    install(app) {
      const components = captureAll(app);
      editReplies(app, ['redeliver'], async (reply, exchange) => {
        const { errors, verifier } = components();
        if (reply.status !== UNAUTHORIZED || messageOf(reply) !== errors.message('client_not_global')) return reply;
        const caller = await verifier.verify(exchange.headers.authorization, exchange.headers.host);
        return caller.ok && !caller.principal.scopes.has(REDELIVER_SCOPE)
          ? answeredInstead(reply, errors.reply('insufficient_scope', REDELIVER_SCOPE))
          : reply;
      });
    },
  },
]);
