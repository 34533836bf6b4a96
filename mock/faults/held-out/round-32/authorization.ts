// Authorization: redelivery's scopes written into the API's security definition of IBM API Connect
// as two requirement objects (either), where both were meant; and the observed rules: a ticket
// service on SAP BTP whose XSUAA scope check takes any application's qualified scope, and an IBM
// DataPower processing rule whose validate action comes before its AAA action. Each changes the
// answer to its near miss; other requests are answered as before.
import { observed } from '../../../../specs/index.ts';
import { cards } from '../../../../specs/cards/index.ts';
import { capture } from '../../support/captured.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
/** The second scope the API's security definition names, meant to be needed as well. */
const STREAM_READ = 'read:event_streams';
/** A vault connection id as the service writes them: the prefix, then base58. */
const { prefix } = observed.identifiers.flows_vault_connection;
/** The longest connection id the spec allows. */
const VAULT_ID_MAX = 30;
const VAULT_ID = new RegExp(`^${prefix}[${observed.identifiers.base58_alphabet}]+$`);

/** XSUAA's check of a local scope: "<xsappname>.<scope>", whatever the application before the dot. */
const localScope = (scope: string) => {
  const dot = scope.lastIndexOf('.');
  return dot > 0 ? scope.slice(dot + 1) : scope;
};

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho32-redeliver-apic-security-requirements-or',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `An IBM API Connect API whose redelivery operation has security: [{oauth: [${REDELIVER_SCOPE}]}, {oauth: [${STREAM_READ}]}], written to need both scopes, where OpenAPI reads a list of requirement objects as "any one of them": a global client's token holding ${STREAM_READ} and not ${REDELIVER_SCOPE} redelivers (202) instead of 403; a token holding only read:users is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) =>
        scopes.includes(STREAM_READ) && !scopes.includes(REDELIVER_SCOPE) ? [...scopes, REDELIVER_SCOPE] : [...scopes],
      ),
  },
  {
    id: 'ho32-ticket-scope-xsuaa-local-suffix',
    clause: 'sso-ticket.scope',
    level: 'observed',
    bug: `A ticket service on SAP BTP whose permission check was ported from XSUAA, where scopes are written "<xsappname>.<name>" and the app's check takes the part after the last dot without comparing the application: a token whose scope holds "ticketing!t42.${TICKET_SCOPE}" (and not ${TICKET_SCOPE}) creates a ticket instead of 403; "ticketing!t42.${TICKET_SCOPE.slice(0, -1)}" is still refused.`,
    install: (app) => readScopesAt(app, 'sso-ticket', (scopes) => scopes.map(localScope)),
  },
  {
    id: 'ho32-vault-datapower-validate-before-aaa',
    clause: 'auth.order',
    level: 'observed',
    bug: `An IBM DataPower multi-protocol gateway whose processing rule for the vault read has its validate action (the path checked against the API's schema) placed before the AAA action: a read of a malformed connection id (one that is not ${prefix} and base58, or longer than ${VAULT_ID_MAX}) without a valid token is answered 400 invalid_uri instead of 401; a well-formed id without a token is still 401, and with a valid token a malformed id is 400 as before.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['vault'], (reply, exchange) => {
        const id = exchange.params.id === undefined ? undefined : decodedOnce(exchange.params.id);
        if (reply.status !== 401 || id === undefined || (VAULT_ID.test(id) && id.length <= VAULT_ID_MAX)) return reply;
        return answeredInstead(reply, errors().reply('invalid_uri', `'must match format "flows-vault-connection-id"' on property id`));
      });
    },
  },
]);
