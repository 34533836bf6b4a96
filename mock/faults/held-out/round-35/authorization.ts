// Authorization: a Micronaut controller whose @Secured lists the redelivery scope beside the stream
// read scope, and @Secured grants when the caller holds any one of the values it lists. Other
// tokens are judged as before.
import { cards } from '../../../../specs/cards/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

const REDELIVER_SCOPE = cards.redeliver.scope.value;
const STREAM_READ = 'read:event_streams';

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho35-redeliver-micronaut-secured-any-of',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: `A Micronaut controller whose redelivery action is annotated @Secured({"${REDELIVER_SCOPE}", "${STREAM_READ}"}) (the author meant both: the event must be readable too), and Micronaut's SecuredAnnotationRule grants when the roles hold any one of the listed values: a correctly signed token whose scope has ${STREAM_READ} but not ${REDELIVER_SCOPE} is let redeliver (202) instead of 403; a token with only read:flows_vault_connections is still refused.`,
    install: (app) =>
      readScopesAt(app, 'redeliver', (scopes) =>
        scopes.includes(STREAM_READ) && !scopes.includes(REDELIVER_SCOPE) ? [...scopes, REDELIVER_SCOPE] : [...scopes],
      ),
  },
]);
