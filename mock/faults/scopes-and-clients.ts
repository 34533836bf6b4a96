// Authorization (spec 5, 7): the scope each operation requires, and redelivery's global-client
// rule, forgotten, answered with the wrong status, or matched leniently (a scope that merely
// contains, extends or resembles the one needed; a client named by one claim of two).
import { AsyncLocalStorage } from 'node:async_hooks';
import { cards } from '../../specs/cards/index.ts';
import { scopeFaultsOf, scopeGrantedWhen } from './support/scope-faults.ts';
import { observed } from '../../specs/index.ts';
import { faultFamily, type FaultRow } from './fault.ts';
import { editErrors } from './support/error-edits.ts';
import { editReplies, replaceStatus, withStatus } from './support/route-edits.ts';
import { editPrincipal, editVerifier, forgiveClaim } from './support/verifier-edits.ts';
import type { Verification } from '../auth/verifier.ts';
import { bearerToken, decodeJws } from '../auth/bearer.ts';

const UNAUTHORIZED = 401;
const FORBIDDEN = 403;

/** A verifier that names the token's client by one of its two claims, taking the other on trust. */
function clientNamedBy(claim: 'sub' | 'azp'): FaultRow['install'] {
  const suffix = observed.tokens.subject_suffix;
  return (app) =>
    forgiveClaim(app, (claims) => {
      if (typeof claims.sub !== 'string' || typeof claims.azp !== 'string') return claims;
      return claim === 'sub'
        ? { ...claims, azp: claims.sub.replace(new RegExp(`${suffix}$`), '') }
        : { ...claims, sub: `${claims.azp}${suffix}` };
    });
}

/** A scope with the ending of its number ("ies", "y" or "s") cut off its resource. */
function stemmed(scope: string): string {
  return scope.replace(/(ies|y|s)$/, '');
}

/** The redelivery scope spelled as the stemming fault matches it: its resource singular (deliveries as delivery). */
function stemmedSpelling(scope: string): string {
  return scope.endsWith('ies') ? `${scope.slice(0, -3)}y` : stemmed(scope);
}

export const scopeAndClientFaults = faultFamily([
  {
    id: 'redeliver-scope-granted-by-cognito-groups',
    clause: 'redeliver.scope',
    bug: "Redelivery guarded by an AppSync-style directive that also admits the token's cognito:groups: a token without update:event_deliveries in its scope but with it in cognito:groups redelivers instead of 403; the same list under another claim is still refused.",
    install: scopeGrantedWhen(cards.redeliver, (exchange) => {
      const token = bearerToken(exchange.headers.authorization);
      const groups = token === undefined ? undefined : decodeJws(token)?.payload['cognito:groups'];
      return Array.isArray(groups) && groups.includes(cards.redeliver.scope.value);
    }),
  },
  {
    id: 'vault-scope-granted-by-coarse-read',
    clause: 'vault.scope',
    bug: 'The vault read guarded, beside its own scope, by a permission class of another scheme that lets a GET through on the coarse scope "read" (django-oauth-toolkit\'s TokenHasReadWriteScope): a token holding "read" (and not read:flows_vault_connections) reads a connection instead of 403; a token holding "write" is still refused.',
    install: scopeGrantedWhen(cards.vault, (exchange) => {
      const token = bearerToken(exchange.headers.authorization);
      const scope = token === undefined ? undefined : decodeJws(token)?.payload.scope;
      return typeof scope === 'string' && scope.split(' ').includes('read');
    }),
  },
  {
    id: 'vault-scope-unchecked-for-head',
    clause: 'vault.scope',
    bug: "The vault read's security rule matched on GET alone (a request matcher for HttpMethod.GET) while the router serves HEAD by running the GET: a HEAD with the token of a client without read:flows_vault_connections is answered 200 instead of 403; the GET is still refused.",
    install: scopeGrantedWhen(cards.vault, (exchange) => exchange.method === 'HEAD'),
  },
  {
    id: 'ticket-scope-read-after-the-last-dot',
    clause: 'sso-ticket.scope',
    bug: 'A scope check ported from XSUAA, where scopes are written "<xsappname>.<scope>", that takes the part after the last dot without comparing the application: a token holding "other-app!t1.create:sso_access_tickets" (and not the scope itself) creates a ticket instead of 403; a token with neither is still refused.',
    install: (app) =>
      editPrincipal(app, (principal) => {
        const read = [...principal.scopes].filter((held) => held.includes('.')).map((held) => held.slice(held.lastIndexOf('.') + 1));
        return read.length === 0 ? principal : { ...principal, scopes: new Set([...principal.scopes, ...read]) };
      }),
  },
  {
    id: '401-instead-of-403',
    clause: 'redeliver.errors.403.scope',
    bug: 'One status for every authorization failure of redelivery: a token without update:event_deliveries is answered 401 instead of 403 (still a refusal).',
    install: (app) => replaceStatus(app, ['redeliver'], FORBIDDEN, UNAUTHORIZED),
  },
  {
    id: 'accepts-non-global-client',
    clause: 'redeliver.global-client',
    bug: 'A server that does not know which client is the tenant\'s global one treats every client as global: redelivery accepts a token of a client that is not global (so no 401 "Client is not global" either).',
    install: (app) => editPrincipal(app, (principal) => ({ ...principal, client: { ...principal.client, global: true } })),
  },
  {
    id: 'global-client-from-authorizer-header',
    clause: 'redeliver.global-client',
    bug: 'Redelivery behind a gateway whose authorizer marks a global caller with X-Is-Global: true, the route never stripping the header from what callers send: a token of a client that is not global, sent with X-Is-Global: true, redelivers instead of 401; without the header it is still refused.',
    install: (app) => {
      const marked = new AsyncLocalStorage<boolean>();
      app.wrapRoute('redeliver', (next) => (exchange) => marked.run(exchange.headers['x-is-global'] === 'true', () => next(exchange)));
      editPrincipal(app, (principal) =>
        marked.getStore() === true ? { ...principal, client: { ...principal.client, global: true } } : principal,
      );
    },
  },
  {
    id: 'global-client-named-by-sub',
    clause: 'redeliver.global-client',
    bug: "A server that names the caller by sub and never compares it with azp: a token whose sub names the global client is taken for the global client's even when azp names a client that is not global.",
    install: clientNamedBy('sub'),
  },
  {
    id: 'global-client-named-by-azp',
    clause: 'redeliver.global-client',
    bug: "A server that names the caller by azp and never compares it with sub: a token whose azp names the global client is taken for the global client's even when sub names a client that is not global.",
    install: clientNamedBy('azp'),
  },
  {
    id: '403-for-non-global',
    clause: 'redeliver.errors.401.not-global',
    bug: '"The client is not global" filed under authorization: redelivery answers it 403 instead of 401 (still a refusal, same message).',
    install: (app) => editErrors(app, ['client_not_global'], (reply) => withStatus(reply, FORBIDDEN)),
  },
  {
    id: 'global-from-token-claim',
    clause: 'redeliver.global-client',
    bug: 'Whether the client is global read from the token when it says so (a claim "global": true, put there by a rule meant to save a lookup) instead of from the client\'s record: a non-global client\'s token with global true redelivers; without the claim it is still refused.',
    install: (app) =>
      editPrincipal(app, (principal) =>
        principal.claims.global === true ? { ...principal, client: { ...principal.client, global: true } } : principal,
      ),
  },
  {
    id: 'global-client-named-by-actor',
    clause: 'redeliver.global-client',
    bug: "Delegated tokens read as the delegate's: where a token names a party of delegation (act.sub, else may_act.sub, RFC 8693) that is a client of the tenant, the global-client rule asks about that client: a token of a client that is not global naming the global client there redelivers.",
    install: (app) =>
      editVerifier(app, (verifier, { store }) => {
        const asDelegate = (verification: Verification): Verification => {
          if (!verification.ok) return verification;
          const { act, may_act: mayAct } = verification.principal.claims as { act?: { sub?: unknown }; may_act?: { sub?: unknown } };
          const sub = act?.sub ?? mayAct?.sub;
          const delegate =
            typeof sub === 'string' ? store.client(sub.replace(new RegExp(`${observed.tokens.subject_suffix}$`), '')) : undefined;
          return delegate ? { ok: true, principal: { ...verification.principal, client: delegate } } : verification;
        };
        return {
          async verify(authorization, host) {
            return asDelegate(await verifier.verify(authorization, host));
          },
          checkClaims(claims, host) {
            return asDelegate(verifier.checkClaims(claims, host));
          },
        };
      }),
  },
  {
    id: 'scopes-read-by-two-segments',
    clause: 'vault.scope',
    bug: 'Scopes read as action:resource by destructuring each one\'s first two ":"-segments, for fine-grained scopes (action:resource:instance) meant to grant one instance: a token holding "read:flows_vault_connections:x_other" reads any connection instead of 403; "read:flows_vault_connection" (a letter short) is still refused.',
    install: (app) =>
      editPrincipal(app, (principal) => ({
        ...principal,
        scopes: new Set([...principal.scopes].map((scope) => scope.split(':').slice(0, 2).join(':'))),
      })),
  },
  {
    id: 'global-rule-skipped-for-client-admins',
    clause: 'redeliver.errors.401.not-global',
    bug: 'The global-client rule skipped for client administrators (a token holding update:clients may act for any client): a client that is not global whose token holds update:clients and the redeliver scope redelivers instead of 401.',
    install: (app) =>
      editPrincipal(app, (principal) =>
        !principal.client.global && principal.scopes.has('update:clients')
          ? { ...principal, client: { ...principal.client, global: true } }
          : principal,
      ),
  },
  {
    id: 'global-verdict-kept-from-ticket-session',
    clause: 'redeliver.global-client',
    bug: 'Verified callers kept in a session keyed by their Authorization value and shared by the routes, which ticket creation (it has no global-client rule) writes after it answers with the default verdict { global: true }: once a client that is not global has been given a ticket, its redeliveries with the same token are accepted instead of 401; a client that is not global and has created no ticket with that token is still refused.',
    install: (app) => {
      const sessions = new Set<string>();
      editReplies(app, ['sso-ticket'], (reply, exchange) => {
        const { authorization } = exchange.headers;
        if (reply.status === cards['sso-ticket'].success.status && authorization !== undefined) sessions.add(authorization);
        return reply;
      });
      editVerifier(app, (verifier) => ({
        ...verifier,
        async verify(authorization, host) {
          const verification = await verifier.verify(authorization, host);
          return verification.ok && authorization !== undefined && sessions.has(authorization)
            ? { ok: true, principal: { ...verification.principal, client: { ...verification.principal.client, global: true } } }
            : verification;
        },
      }));
    },
  },
  {
    id: 'ticket-scope-verdict-cached-by-token',
    clause: 'sso-ticket.scope',
    bug: `Ticket creation's scope check cached by the Authorization value alone (the route left out of the cache key), filled by the vault read when it serves a token: a token lacking ${cards['sso-ticket'].scope.value} that has read a connection then gets a ticket instead of 403; the same token that has read nothing is still refused.`,
    install: (app) => {
      const allowed = new Set<string>();
      editReplies(app, ['vault'], (reply, exchange) => {
        const { authorization } = exchange.headers;
        if (reply.status === cards.vault.success.status && authorization !== undefined) allowed.add(authorization);
        return reply;
      });
      scopeGrantedWhen(
        cards['sso-ticket'],
        (exchange) => exchange.headers.authorization !== undefined && allowed.has(exchange.headers.authorization),
      )(app);
    },
  },
  {
    id: 'redelivery-permitted-by-stream-creation',
    clause: 'redeliver.errors.403.scope',
    bug: "A permission table that files redelivery under the streams' write entry, which create:event_streams grants: a token holding create:event_streams but not update:event_deliveries redelivers instead of 403.",
    install: (app) =>
      editPrincipal(app, (principal) =>
        principal.scopes.has('create:event_streams')
          ? { ...principal, scopes: new Set([...principal.scopes, cards.redeliver.scope.value]) }
          : principal,
      ),
  },
  {
    id: 'redeliver-with-body-skips-scope',
    clause: 'redeliver.scope',
    bug: 'A redelivery request that carries a body taken by the batch route, which authenticates but has no permission entry: a token without update:event_deliveries redelivers when the request carries the body {} instead of 403.',
    install: scopeGrantedWhen(cards.redeliver, (exchange) => exchange.body.length > 0),
  },
  {
    id: 'vault-permission-from-controller-name',
    clause: 'vault.scope',
    bug: `The vault read's permission named after the controller that serves it, VaultConnectionsController, as read:vault_connections (its name snake-cased): a token holding read:vault_connections and not ${cards.vault.scope.value} reads the connection instead of 403; a token holding read:clients is still refused.`,
    install: (app) =>
      editPrincipal(app, (principal) =>
        principal.scopes.has('read:vault_connections')
          ? { ...principal, scopes: new Set([...principal.scopes, cards.vault.scope.value]) }
          : principal,
      ),
  },
  {
    id: 'redeliver-scope-parameter-taken-for-granted',
    clause: 'redeliver.scope',
    bug: `A "scope" query parameter, meant to let a caller act with fewer of its token's scopes, read as the scopes the request acts with and never checked against the token's: POST .../redeliver/...?scope=${cards.redeliver.scope.value} with a token lacking ${cards.redeliver.scope.value} redelivers instead of 403; the same request without the parameter is still refused.`,
    install: scopeGrantedWhen(cards.redeliver, (exchange) =>
      (new URLSearchParams(exchange.query).get('scope') ?? '').split(' ').includes(cards.redeliver.scope.value),
    ),
  },
  {
    id: 'ticket-scope-from-gateway-header',
    clause: 'sso-ticket.scope',
    bug: `Ticket creation behind a gateway whose OAuth plugin adds X-Authenticated-Scope once it has verified a token, the service reading the scopes from that header where present, and the gateway not stripping the header clients send: a token lacking ${cards['sso-ticket'].scope.value} sent with "X-Authenticated-Scope: ${cards['sso-ticket'].scope.value}" gets a ticket instead of 403; without the header it is still refused.`,
    install: scopeGrantedWhen(cards['sso-ticket'], (exchange) =>
      String(exchange.headers['x-authenticated-scope'] ?? '')
        .split(' ')
        .includes(cards['sso-ticket'].scope.value),
    ),
  },
  {
    id: 'ticket-scope-waived-for-custom-domains',
    clause: 'sso-ticket.scope',
    bug: `Ticket requests that name a custom domain routed to a handler of the domain's own, mounted after authentication and before the scope check ("the domain's owner is already trusted"): a token lacking ${cards['sso-ticket'].scope.value} gets a ticket when the request carries tenant-custom-domain (any domain) instead of 403; without the header it is still refused.`,
    install: scopeGrantedWhen(cards['sso-ticket'], (exchange) => typeof exchange.headers['tenant-custom-domain'] === 'string'),
  },
  {
    id: 'ticket-scopes-merged-from-scopes-list',
    clause: 'sso-ticket.scope',
    bug: `Ticket creation's scopes read by a helper written for an SDK that issues a "scopes" list: the scope claim's scopes and the scopes list's, merged. A token lacking ${cards['sso-ticket'].scope.value} whose scopes list holds it gets a ticket instead of 403.`,
    install: scopeGrantedWhen(cards['sso-ticket'], (exchange) => {
      const token = bearerToken(exchange.headers.authorization);
      const listed = token === undefined ? undefined : decodeJws(token)?.payload.scopes;
      return Array.isArray(listed) && listed.includes(cards['sso-ticket'].scope.value);
    }),
  },
  {
    id: 'scopes-format-characters-removed',
    clause: 'vault.scope',
    bug: "Held scopes cleaned of every Unicode format character (/\\p{Cf}/gu: zero-width characters, soft hyphens, byte-order marks, bidirectional marks) before they are compared, for scopes pasted from a document: a token holding the operation's scope with a word joiner or a byte-order mark in it, another string, is granted by every operation instead of 403; a token holding the scope with a letter changed is still refused.",
    install: (app) =>
      editPrincipal(app, (principal) => ({
        ...principal,
        scopes: new Set([...principal.scopes].map((held) => held.replace(/\p{Cf}/gu, ''))),
      })),
  },
  {
    id: 'scopes-quotes-and-trailing-punctuation-trimmed',
    clause: 'vault.scope',
    bug: "Held scopes trimmed of surrounding quotes and trailing punctuation before they are compared (for scopes copied out of a JSON list or a sentence): a token holding the operation's scope in quotes, or followed by a period, is granted by every operation instead of 403.",
    install: (app) =>
      editPrincipal(app, (principal) => ({
        ...principal,
        scopes: new Set([...principal.scopes].map((held) => held.replace(/^(["'])(.*)\1$/, '$2').replace(/[.;,]+$/, ''))),
      })),
  },
  {
    id: 'scopes-accents-folded',
    clause: 'redeliver.scope',
    bug: "Held scopes compared with their accents folded away (NFKD, then the combining marks dropped): a token holding the operation's scope with a letter accented is granted by every operation instead of 403.",
    install: (app) =>
      editPrincipal(app, (principal) => ({
        ...principal,
        scopes: new Set([...principal.scopes].map((held) => held.normalize('NFKD').replace(/\p{M}/gu, ''))),
      })),
  },
  {
    id: 'scopes-read-out-of-array-literals',
    clause: 'sso-ticket.scope',
    bug: "Held scopes read out of a database array's text form ({a,b}): a token holding the operation's scope in braces is granted by every operation instead of 403.",
    install: (app) =>
      editPrincipal(app, (principal) => ({
        ...principal,
        scopes: new Set([...principal.scopes].flatMap((held) => (/^\{.*\}$/.test(held) ? held.slice(1, -1).split(',') : [held]))),
      })),
  },
  {
    id: 'scopes-authority-prefix-stripped',
    clause: 'vault.scope',
    bug: "Held scopes compared as framework authorities, the SCOPE_ prefix stripped first: a token holding SCOPE_ and the operation's scope is granted by every operation instead of 403.",
    install: (app) =>
      editPrincipal(app, (principal) => ({
        ...principal,
        scopes: new Set([...principal.scopes].map((held) => held.replace(/^SCOPE_/, ''))),
      })),
  },
  {
    id: 'scopes-qualified-by-url-cut',
    clause: 'redeliver.scope',
    bug: "Held scopes qualified by an API's URL read with everything up to the URL's last slash cut off: a token holding the operation's scope after the token's audience is granted by every operation instead of 403.",
    install: (app) =>
      editPrincipal(app, (principal) => ({
        ...principal,
        scopes: new Set([...principal.scopes].map((held) => held.replace(/^https?:\/\/.*\//, ''))),
      })),
  },
  {
    id: 'scopes-mapped-back-from-enum-names',
    clause: 'redeliver.scope',
    bug: 'Held scopes mapped back from a gateway\'s enum names, whose first "_" stands for ":": a token holding the operation\'s scope with its colon written "_" is granted by every operation instead of 403.',
    install: (app) =>
      editPrincipal(app, (principal) => ({
        ...principal,
        scopes: new Set([...principal.scopes].map((held) => (held.includes(':') ? held : held.replace('_', ':')))),
      })),
  },
  {
    id: 'scopes-word-boundaries-folded',
    clause: 'sso-ticket.scope',
    bug: "Held scopes compared with their resource in snake case (camel case humps turned into underscores, as a helper for code identifiers does): a token holding the operation's scope with its resource in camel case is granted by every operation instead of 403.",
    install: (app) =>
      editPrincipal(app, (principal) => ({
        ...principal,
        scopes: new Set([...principal.scopes].map((held) => held.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase())),
      })),
  },
  {
    id: 'redeliver-scope-resource-stemmed',
    clause: 'redeliver.scope',
    bug: `Held scopes matched against redelivery's after the ending of its number ("ies", "y" or "s") is cut off the resource of each, so that a permission written in the singular still matches: a token holding ${stemmedSpelling(cards.redeliver.scope.value)} and not ${cards.redeliver.scope.value} redelivers instead of 403; a token holding update:events is still refused.`,
    install: (app) =>
      editPrincipal(app, (principal) =>
        [...principal.scopes].some((held) => stemmed(held) === stemmed(cards.redeliver.scope.value))
          ? { ...principal, scopes: new Set([...principal.scopes, cards.redeliver.scope.value]) }
          : principal,
      ),
  },
  {
    id: 'redeliver-scope-action-from-http-verb',
    clause: 'redeliver.scope',
    bug: `Held scopes whose action is an HTTP verb read as the action a REST layer maps it onto (patch and put as update): a token holding ${cards.redeliver.scope.value.replace(/^[^:]*/, 'patch')} and not ${cards.redeliver.scope.value} redelivers instead of 403; a token holding ${cards.redeliver.scope.value.replace(/^[^:]*/, 'post')} is still refused.`,
    install: (app) =>
      editPrincipal(app, (principal) =>
        [...principal.scopes].some((held) => held.replace(/^(patch|put):/, 'update:') === cards.redeliver.scope.value)
          ? { ...principal, scopes: new Set([...principal.scopes, cards.redeliver.scope.value]) }
          : principal,
      ),
  },
  {
    id: 'redeliver-scope-plural-regularised',
    clause: 'redeliver.scope',
    bug: `Held scopes whose resource ends in a regular plural of a word in "y" (deliverys) repaired to its irregular plural first (a helper for permissions typed by hand): a token holding ${cards.redeliver.scope.value.replace(/ies$/, 'ys')} and not ${cards.redeliver.scope.value} redelivers instead of 403; a token holding ${cards.redeliver.scope.value.replace(/ies$/, 'y')} is still refused.`,
    install: (app) =>
      editPrincipal(app, (principal) =>
        [...principal.scopes].some((held) => held.replace(/([^aeiou])ys$/, '$1ies') === cards.redeliver.scope.value)
          ? { ...principal, scopes: new Set([...principal.scopes, cards.redeliver.scope.value]) }
          : principal,
      ),
  },
  {
    id: 'vault-scope-model-name-singular',
    clause: 'vault.scope',
    bug: `Held scopes compared by the model they name, each word of the resource before the last made singular (the ORM's model is FlowVaultConnection): a token holding ${cards.vault.scope.value.replace('flows_', 'flow_')} and not ${cards.vault.scope.value} reads the connection instead of 403; a token holding ${cards.vault.scope.value.replace(/s$/, '')} is still refused.`,
    install: (app) => {
      const model = (scope: string) => {
        const words = scope.split('_');
        return [...words.slice(0, -1).map((word) => word.replace(/([^s])s$/, '$1')), words.at(-1)].join('_');
      };
      editPrincipal(app, (principal) =>
        [...principal.scopes].some((held) => held !== cards.vault.scope.value && model(held) === model(cards.vault.scope.value))
          ? { ...principal, scopes: new Set([...principal.scopes, cards.vault.scope.value]) }
          : principal,
      );
    },
  },
  {
    id: 'redeliver-scope-granted-by-higher-action',
    clause: 'redeliver.scope',
    bug: `Actions ranked on a role ladder (read < create < update < delete), a held scope granting every lower action on its resource: a token holding ${cards.redeliver.scope.value.replace(/^update:/, 'delete:')} and not ${cards.redeliver.scope.value} redelivers instead of 403; a token holding ${cards.redeliver.scope.value.replace(/^update:/, 'read:')} is still refused.`,
    install: (app) => {
      const ladder = ['read', 'create', 'update', 'delete'];
      const [action, resource] = cards.redeliver.scope.value.split(':') as [string, string];
      editPrincipal(app, (principal) =>
        [...principal.scopes].some(
          (held) => held.split(':')[1] === resource && ladder.indexOf(held.split(':')[0]!) > ladder.indexOf(action),
        )
          ? { ...principal, scopes: new Set([...principal.scopes, cards.redeliver.scope.value]) }
          : principal,
      );
    },
  },
  {
    id: 'ticket-scope-granted-by-create-connections',
    clause: 'sso-ticket.scope',
    bug: `Ticket creation also granted to create:connections, on the reasoning that the ticket only lets someone else create a connection: a token holding create:connections and not ${cards['sso-ticket'].scope.value} gets a ticket instead of 403; a token holding read:connections is still refused.`,
    install: (app) =>
      editPrincipal(app, (principal) =>
        principal.scopes.has('create:connections')
          ? { ...principal, scopes: new Set([...principal.scopes, cards['sso-ticket'].scope.value]) }
          : principal,
      ),
  },
  ...scopeFaultsOf(Object.values(cards)),
]);
