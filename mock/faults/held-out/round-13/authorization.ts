// What a verified caller may do: the scope claim percent-decoded before it is split, and the
// resource of a held scope singularised before it is compared; and the observed rules: ticket
// creation's scope also granted under the HTTP verb's name, and the vault read answered 304 by a
// conditional-request layer that sits before the permission check. Each grants (or answers) its
// near miss; other tokens are judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import type { Reply } from '../../../exchange.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
const VAULT_SCOPE = cards.vault.scope.value;
/** The HTTP verbs a REST layer maps onto the catalogue's actions. */
const VERB_ACTIONS: Record<string, string> = { post: 'create', get: 'read', put: 'update', patch: 'update', delete: 'delete' };

/** A plural resource name made singular the way a small inflector does (deliveries -> delivery, tickets -> ticket). */
function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** action:resource with the resource's last word made singular. */
function singularScope(scope: string): string {
  const [action, resource] = scope.split(':');
  if (action === undefined || resource === undefined) return scope;
  const words = resource.split('_');
  words[words.length - 1] = singular(words[words.length - 1]!);
  return `${action}:${words.join('_')}`;
}

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho13-scope-claim-percent-decoded',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `The scope claim passed through decodeURIComponent before it is split on spaces, because one issuer once sent it form-encoded: a token whose scope is "read:event_streams%20${REDELIVER_SCOPE}" (one scope, as issued) is read as holding ${REDELIVER_SCOPE} and let redeliver (202) instead of 403; "read:event_streams%20read:event_deliveries" is still refused 403.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes, claims) => {
        if (typeof claims.scope !== 'string' || !claims.scope.includes('%')) return [...scopes];
        try {
          return decodeURIComponent(claims.scope)
            .split(' ')
            .filter((s) => s.length > 0);
        } catch {
          return [...scopes];
        }
      }),
  },
  {
    id: 'ho13-scope-resource-singularised',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Held and needed scopes compared after the resource is made singular by the inflector the route table uses for its resource names (event_deliveries -> event_delivery): a token holding "${singularScope(REDELIVER_SCOPE)}" is let redeliver (202) instead of 403; a token holding "update:event" is still refused 403.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) =>
        !scopes.includes(REDELIVER_SCOPE) && scopes.some((s) => singularScope(s) === singularScope(REDELIVER_SCOPE))
          ? [...scopes, REDELIVER_SCOPE]
          : [...scopes],
      ),
  },
  {
    id: 'ho13-ticket-scope-verb-alias',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `Ticket creation's permission check also takes the scope named with the HTTP verb of the route (post:sso_access_tickets), a REST layer mapping verbs onto actions (post -> create): a token holding "post:sso_access_tickets" but not ${TICKET_SCOPE} gets a ticket (201) instead of 403; a token holding "put:sso_access_tickets" is still refused 403.`,
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes) => {
        const mapped = scopes.map((scope) => {
          const [verb, resource] = scope.split(':');
          return verb === 'post' && resource !== undefined ? `${VERB_ACTIONS[verb]}:${resource}` : scope;
        });
        return mapped.includes(TICKET_SCOPE) && !scopes.includes(TICKET_SCOPE) ? [...scopes, TICKET_SCOPE] : [...scopes];
      }),
  },
  {
    id: 'ho13-vault-conditional-before-scope',
    clause: 'vault.scope',
    level: 'observed',
    bug: `A conditional-request layer (ETag "<fingerprint>" on the record) mounted between authentication and the permission check, which, once a caller allowed to has read the record, answers 304 Not Modified to an If-None-Match naming its ETag: a valid token without ${VAULT_SCOPE} sent with If-None-Match: "<the record's fingerprint>" is answered 304 instead of 403, telling it the record has not changed; the same token with another ETag, or none, is still refused 403.`,
    install: (app) => {
      const etags = new Map<string, string>();
      editReplies(app, ['vault'], (reply, exchange): Reply => {
        const id = exchange.params.id;
        const body = reply.body as Record<string, unknown> | undefined;
        if (reply.status === 200 && id !== undefined && typeof body?.fingerprint === 'string') {
          const etag = `"${body.fingerprint}"`;
          etags.set(id, etag);
          return { ...reply, headers: { ...reply.headers, etag } };
        }
        const sent = exchange.headers['if-none-match'];
        if (reply.status !== 403 || id === undefined || sent === undefined) return reply;
        return etags.get(id) !== undefined && sent.split(',').some((tag) => tag.trim() === etags.get(id))
          ? {
              status: 304,
              headers: Object.fromEntries(Object.entries(reply.headers).filter(([name]) => name.toLowerCase().startsWith('x-ratelimit'))),
            }
          : reply;
      });
    },
  },
]);
