// What a caller may do once its token is verified: a repeat of a redelivery answered from an
// idempotency cache before the caller is authorized, a client's scopes remembered from its first
// token, a scope pattern with wildcards, a 403 that hides itself as a 404, a read cache consulted
// before the scope check, and the global-client rule applied after the lookups. Each changes the
// answer to one caller in one situation; the others are answered as before.
import { observed } from '../../../../specs/index.ts';
import type { Reply } from '../../../exchange.ts';
import { validatePath } from '../../../stages/validate.ts';
import { capture, captureAll } from '../../support/captured.ts';
import { editReplies } from '../../support/route-edits.ts';
import { editPrincipal } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = observed.operations.redeliver.scope.value;
const ACCEPTED = observed.operations.redeliver.success.status;
const VAULT_READ = observed.operations.vault.success.status;
const UNAUTHORIZED = 401;
const FORBIDDEN = 403;

/** How long a redelivery is remembered by its idempotency key (stream, event). */
const IDEMPOTENCY_WINDOW_MS = 5 * 60 * 1000;

/** Whether a scope pattern with * (any run of characters but the colon) matches the scope. */
function globMatches(pattern: string, scope: string): boolean {
  if (!pattern.includes('*')) return false;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^:]*');
  return new RegExp(`^${source}$`).test(scope);
}

function messageOf(reply: Reply): unknown {
  const body = reply.body;
  return body !== null && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
}

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho2-redeliver-repeat-answered-before-authorization',
    clause: 'redeliver.global-client',
    level: 'contract',
    bug: `Redeliveries deduplicated by (stream, event) for ${IDEMPOTENCY_WINDOW_MS / 60_000} minutes in a layer that runs after authentication and before authorization: once an event has been redelivered, a repeat from any authenticated caller, a client that is not global included, is answered 202 like the first (so the global-client rule, and the scope, are not applied to it); an event not redelivered lately still gets 401 "Client is not global".`,
    install(app) {
      const components = captureAll(app);
      const accepted = new Map<string, { reply: Reply; at: number }>();
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        const key = `${exchange.params.id}/${exchange.params.event_id}`;
        const reply = await next(exchange);
        const { clock, verifier } = components();
        if (reply.status === ACCEPTED) {
          accepted.set(key, { reply, at: clock.now() });
          return reply;
        }
        const earlier = accepted.get(key);
        if ((reply.status !== UNAUTHORIZED && reply.status !== FORBIDDEN) || !earlier || clock.now() - earlier.at >= IDEMPOTENCY_WINDOW_MS)
          return reply;
        const caller = await verifier.verify(exchange.headers.authorization, exchange.headers.host);
        return caller.ok ? answeredInstead(reply, earlier.reply) : reply;
      });
    },
  },
  {
    id: 'ho2-scopes-remembered-per-client',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: "Permissions cached by client id, as if looked up once per client, instead of read from each token: after a client's first token has been used, its later tokens are authorized with that first token's scopes, so a token the global client asked for with a narrower scope (without update:event_deliveries) still redelivers; a client whose first token lacked the scope is still refused.",
    install(app) {
      const firstSeen = new Map<string, ReadonlySet<string>>();
      editPrincipal(app, (principal) => {
        const clientId = principal.client.clientId;
        const remembered = firstSeen.get(clientId);
        if (!remembered) {
          firstSeen.set(clientId, principal.scopes);
          return principal;
        }
        return { ...principal, scopes: remembered };
      });
    },
  },
  {
    id: 'ho2-redeliver-scope-glob',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Redelivery's permission check matches with glob patterns (a policy library's default): a token whose scope holds "update:*" or "*:event_deliveries", scopes the catalogue does not have, is authorized there as if it held ${REDELIVER_SCOPE}; a token with neither is still refused with 403.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) =>
        !scopes.includes(REDELIVER_SCOPE) && scopes.some((scope) => globMatches(scope, REDELIVER_SCOPE))
          ? [...scopes, REDELIVER_SCOPE]
          : [...scopes],
      ),
  },
  {
    id: 'ho2-redeliver-403-hidden-as-404',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: 'Redelivery hides what a caller may not touch: a token without update:event_deliveries is answered 404 "The requested stream does not exist." instead of 403 (still a refusal; the other operations answer 403).',
    install(app) {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === FORBIDDEN ? answeredInstead(reply, errors().reply('stream_not_found')) : reply,
      );
    },
  },
  {
    id: 'ho2-vault-cache-before-scope-check',
    clause: 'vault.scope',
    level: 'observed',
    bug: 'A record cache for the vault read, keyed by the id and consulted after authentication but before the scope check: once a connection has been read, any valid token, one without read:flows_vault_connections included, reads it (200); a connection not read yet still gets 403.',
    install(app) {
      const records = new Map<string, Reply>();
      editReplies(app, ['vault'], (reply, exchange) => {
        const id = exchange.params.id ?? '';
        if (reply.status === VAULT_READ) records.set(id, reply);
        const cached = reply.status === FORBIDDEN ? records.get(id) : undefined;
        return cached ? answeredInstead(reply, cached) : reply;
      });
    },
  },
  {
    id: 'ho2-redeliver-global-rule-after-lookup',
    clause: 'auth.order',
    level: 'observed',
    bug: 'Redelivery applies the global-client rule in the handler, after it has looked the stream and the event up: a client that is not global is answered 404 for an unknown stream or event (so it learns which ids exist) instead of 401 "Client is not global"; for existing ones it still gets 401.',
    install(app) {
      const components = captureAll(app);
      editReplies(app, ['redeliver'], (reply, exchange) => {
        const { errors, store } = components();
        if (reply.status !== UNAUTHORIZED || messageOf(reply) !== errors.message('client_not_global')) return reply;
        let ids: Record<string, string>;
        try {
          ids = validatePath(components(), 'redeliver', exchange.params);
        } catch {
          return reply;
        }
        if (!store.stream(ids.id!)) return answeredInstead(reply, errors.reply('stream_not_found'));
        if (!store.event(ids.id!, ids.event_id!)) return answeredInstead(reply, errors.reply('event_not_found'));
        return reply;
      });
    },
  },
]);
