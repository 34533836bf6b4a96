// What a verified caller may do: CASL's "manage" action taken to grant every action, and a scope
// qualified with one resource instance read by its first two segments; and the observed rules: the
// scope claim's last scope dropped by a slice meant for a trailing empty string, and the vault
// read's scopes cached per client. Each changes the verdict on its near miss; other tokens are
// judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
const VAULT_SCOPE = cards.vault.scope.value;
const RESOURCE = REDELIVER_SCOPE.slice(REDELIVER_SCOPE.indexOf(':') + 1);

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho15-manage-action-grants-all',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `Permissions checked with an authorization library (CASL) in which the action "manage" stands for every action, the scopes mapped onto its rules as action:subject: a token holding "manage:${RESOURCE}" may redeliver instead of 403; "manage:event_streams" is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) =>
        scopes.includes(`manage:${RESOURCE}`) && !scopes.includes(REDELIVER_SCOPE) ? [...scopes, REDELIVER_SCOPE] : [...scopes],
      ),
  },
  {
    id: 'ho15-instance-scope-read-by-two-segments',
    clause: 'redeliver.errors.403.scope',
    level: 'contract',
    bug: `Scopes read as action:resource by destructuring (const [action, resource] = scope.split(":")), so a scope qualified with one instance, as the service's fine-grained scopes are ("${REDELIVER_SCOPE}:est_..."), counts as the whole resource's: a token holding "${REDELIVER_SCOPE}:est_other" may redeliver on any stream instead of 403; "update:event_streams:est_other" is still refused.`,
    install: (app) => readScopesAt(app, 'redeliver', (scopes) => scopes.map((scope) => scope.split(':').slice(0, 2).join(':'))),
  },
  {
    id: 'ho15-last-scope-dropped',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `The scope claim split with scope.split(" ").slice(0, -1), written to drop the empty string a trailing space leaves, which drops the last scope when there is no trailing space: a token whose scope is exactly "${TICKET_SCOPE}" (or ends with it) is refused 403 instead of getting a ticket; "read:users ${TICKET_SCOPE} " (a trailing space) or the scope in the middle of the list still gets one.`,
    install: (app) =>
      readScopesAt(app, 'sso-ticket', (scopes, claims) =>
        typeof claims.scope === 'string' && !claims.scope.endsWith(' ')
          ? claims.scope
              .split(' ')
              .slice(0, -1)
              .filter((scope) => scope.length > 0)
          : [...scopes],
      ),
  },
  {
    id: 'ho15-vault-scopes-cached-per-client',
    clause: 'vault.scope',
    level: 'observed',
    bug: `The vault read's permission lookup memoised by client id (azp), as the client's grant rarely changes, so the scopes of the first token a client shows are used for its later tokens: after a read with a token holding "${VAULT_SCOPE}", a token of the same client without it reads a record instead of 403; a client's first token without it is still refused.`,
    install: (app) => {
      const seen = new Map<string, string[]>();
      readScopesAt(app, 'vault', (scopes, claims) => {
        if (typeof claims.azp !== 'string') return [...scopes];
        const cached = seen.get(claims.azp);
        if (cached) return [...cached];
        seen.set(claims.azp, [...scopes]);
        return [...scopes];
      });
    },
  },
]);
