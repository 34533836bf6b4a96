// The length limits of path ids (spec 8), broken the way a lookup breaks them: a prefix lookup
// (LIKE 'id%') finds an existing id from its first characters, and a validator written from the
// ids seen in practice refuses longer ones the spec allows. Each takes its route, parameter and
// bounds from the limit of its clause, and acts on the id as sent, before the route. The
// fixed-width column that cuts a longer id to its width is made for every path limit of every card
// (support/answer-faults.ts, operation-answers.ts).
import { observed, parameter, toJsonSchema } from '../../specs/index.ts';
import { faultFamily } from './fault.ts';
import { compileCheck, replaceParameterCheck } from './support/check-edits.ts';
import { prefixLookup } from './support/path-limits.ts';

/** The length the vault ids seen in practice have, shorter than the spec's maximum. */
const SEEN_VAULT_ID_LENGTH = observed.identifiers.flows_vault_connection.length;

export const pathIdLengthFaults = faultFamily([
  {
    id: 'accepts-25-char-stream-id',
    ...prefixLookup('redeliver.path.id.length', (store, id) => store.stream(id) !== undefined),
    bug: 'A prefix lookup of streams: redelivery accepts an existing stream id with its last character removed (the observed 400 for a short stream id goes too).',
  },
  {
    id: 'accepts-25-char-event-id',
    ...prefixLookup('redeliver.path.event_id.length', (store, id, params) => store.event(params.id ?? '', id) !== undefined),
    bug: 'A prefix lookup of events: redelivery accepts an existing event id with its last character removed.',
  },
  {
    id: 'refuses-30-char-vault-id',
    clause: 'vault.path.id.length',
    bug: 'A validator written from the 25-character ids seen in practice: the vault read answers 400 to a longer id the spec allows, so every read of an existing 30-character id fails.',
    install(app) {
      const check = compileCheck({ ...toJsonSchema(parameter('vault', 'path', 'id').schema, 'observed'), maxLength: SEEN_VAULT_ID_LENGTH });
      replaceParameterCheck(app, 'vault', 'path', 'id', () => check);
    },
  },
]);
