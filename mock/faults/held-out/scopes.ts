// The scopes a token carries and how an operation reads them: a scope string split on the wrong
// separator, a scope taken to imply another (a parent resource, a hierarchy), another claim read
// for it, and a token endpoint that grants what the API defines instead of what the client holds.
// Each lets one near miss through at one place; a token without the scope at all is still refused.
import { AsyncLocalStorage } from 'node:async_hooks';
import { observed, scopeCatalogue } from '../../../specs/index.ts';
import { isJsonMediaType } from '../../stages/json-body.ts';
import type { Client } from '../../store.ts';
import { heldOutFamily } from './held-out-fault.ts';
import { readScopesAt } from './support/scope-claims.ts';

const REDELIVER_SCOPE = observed.operations.redeliver.scope.value;
const TICKET_SCOPE = observed.operations['sso-ticket'].scope.value;
const VAULT_SCOPE = observed.operations.vault.scope.value;

/** The scope of the stream a delivery belongs to, taken by one fault to cover the delivery. */
const STREAM_UPDATE_SCOPE = 'update:event_streams';
/** The scope of the parent resource of flows vault connections in a hierarchical permission model. */
const FLOWS_READ_SCOPE = 'read:flows';

function added(scopes: readonly string[], scope: string): string[] {
  return scopes.includes(scope) ? [...scopes] : [...scopes, scope];
}

export const scopeFaults = heldOutFamily([
  {
    id: 'ho-redeliver-scope-split-on-commas',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Redelivery's permission check splits the scope claim on commas as well as spaces (a helper shared with a comma-separated setting): a token whose scope is "read:event_streams,${REDELIVER_SCOPE}", one scope token that is not ${REDELIVER_SCOPE} (RFC 6749 section 3.3), is authorized there.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) => {
        const pieces = scopes.flatMap((scope) => (scope.includes(',') ? scope.split(',') : []));
        return pieces.includes(REDELIVER_SCOPE) ? added(scopes, REDELIVER_SCOPE) : [...scopes];
      }),
  },
  {
    id: 'ho-redeliver-scope-implied-by-stream-update',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `A permission model in which the scope of a resource covers what belongs to it: ${STREAM_UPDATE_SCOPE} is taken to include the deliveries of the stream's events, so a token holding it and not ${REDELIVER_SCOPE} is authorized to redeliver.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) => (scopes.includes(STREAM_UPDATE_SCOPE) ? added(scopes, REDELIVER_SCOPE) : [...scopes])),
  },
  {
    id: 'ho-vault-scope-implied-by-read-flows',
    clause: 'vault.scope',
    level: 'observed',
    bug: `Hierarchical scopes in the vault read: ${FLOWS_READ_SCOPE} (a scope of the catalogue) is taken to grant reading everything under flows, so a token holding it and not ${VAULT_SCOPE} reads connections.`,
    install: (app) =>
      readScopesAt(app, 'vault', (scopes) => (scopes.includes(FLOWS_READ_SCOPE) ? added(scopes, VAULT_SCOPE) : [...scopes])),
  },
  {
    id: 'ho-ticket-scope-read-from-scp',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `A permission check written for several identity providers, that reads scp (a list, as other providers issue it) when a token has one: a token whose scp lists ${TICKET_SCOPE} creates tickets though its scope claim lacks it.`,
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes, claims) => {
        const scp = Array.isArray(claims.scp) ? claims.scp : typeof claims.scp === 'string' ? claims.scp.split(' ') : [];
        return scp.includes(TICKET_SCOPE) ? added(scopes, TICKET_SCOPE) : [...scopes];
      }),
  },
  {
    id: 'ho-token-endpoint-grants-any-catalogue-scope',
    clause: 'token.scopes',
    level: 'contract',
    bug: "Requested scopes checked against the scopes the API defines instead of the client's grant: a client that asks for a scope of the catalogue it was never granted (say update:event_deliveries) gets a token carrying it, and with it is authorized; without a scope parameter the token carries the grant as before.",
    install(app) {
      // The scopes the current token request asks for, seen by the store's client lookup below.
      const requested = new AsyncLocalStorage<readonly string[]>();
      app.wrapRoute('token', (next) => async (exchange) => {
        const scope = scopeParameter(exchange.body.toString('utf8'), exchange.headers['content-type']);
        return requested.run(scope ? scope.split(' ').filter((s) => scopeCatalogue.includes(s)) : [], () => next(exchange));
      });
      app.override('store', (store) => {
        const widened = (client: Client | undefined): Client | undefined => {
          const wanted = requested.getStore() ?? [];
          if (!client?.managementGrant || wanted.every((s) => client.scopes.includes(s))) return client;
          return { ...client, scopes: Object.freeze([...new Set([...client.scopes, ...wanted])]) };
        };
        return new Proxy(store, {
          get(target, property) {
            if (property === 'client') return (clientId: string) => widened(target.client(clientId));
            const value: unknown = Reflect.get(target, property);
            return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
          },
        });
      });
    },
  },
]);

/** The scope parameter of a token request body, form-encoded or JSON. */
function scopeParameter(body: string, contentType: string | undefined): string | undefined {
  if (isJsonMediaType(contentType)) {
    try {
      const value: unknown = JSON.parse(body);
      const scope = value !== null && typeof value === 'object' ? (value as Record<string, unknown>).scope : undefined;
      return typeof scope === 'string' ? scope : undefined;
    } catch {
      return undefined;
    }
  }
  return new URLSearchParams(body).get('scope') ?? undefined;
}
