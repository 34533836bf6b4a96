// The length limits of path ids (spec 8), broken the way a lookup breaks them: a fixed-width column
// cuts a longer id to its width (so an existing id with characters added is found), a prefix lookup
// (LIKE 'id%') finds an existing id from its first characters, and a validator written from the
// ids seen in practice refuses longer ones the spec allows. Each takes its route, parameter and
// bounds from the limit of its clause, and acts on the id as sent, before the route.
import { clause, limit, observed, parameter, toJsonSchema, type OperationKey } from '../../specs/index.ts';
import type { FaultHooks } from '../app.ts';
import type { Store } from '../store.ts';
import { faultFamily, type FaultRow } from './fault.ts';
import { capture } from './support/captured.ts';
import { compileCheck, replaceParameterCheck } from './support/check-edits.ts';
import { editRequests } from './support/route-edits.ts';

/** Every character an identifier of the service uses (base58 is a subset). */
const ID_CHARACTERS = observed.identifiers.alphanumeric_alphabet;

/** The length the vault ids seen in practice have, shorter than the spec's maximum. */
const SEEN_VAULT_ID_LENGTH = observed.identifiers.flows_vault_connection.length;

type Exists = (store: Store, id: string, params: Record<string, string>) => boolean;

/** The operation and path parameter whose length a clause limits. */
function limitedParameter(clauseId: string): { key: OperationKey; name: string } {
  const location = clause(clauseId).limit?.location;
  if (location?.in !== 'path' || !location.operation || !location.name) throw new Error(`clause ${clauseId} limits no path parameter`);
  return { key: location.operation, name: location.name };
}

/** Ids kept in a column as wide as the maximum: a longer id is cut to the width before the lookup. */
function fixedWidthColumn(clauseId: string): Pick<FaultRow, 'clause' | 'install'> {
  const { key, name } = limitedParameter(clauseId);
  const width = limit(clauseId).max!;
  return {
    clause: clauseId,
    install: (app) =>
      editRequests(app, key, (exchange) => {
        const value = exchange.params[name];
        if (value === undefined || value.length <= width) return exchange;
        return { ...exchange, params: { ...exchange.params, [name]: value.slice(0, width) } };
      }),
  };
}

/**
 * Ids looked up by prefix: an id one character short of the minimum becomes the one existing id it
 * is a prefix of. The store lists no ids, so the lookup tries each character of the identifier
 * alphabet in the missing place; `exists` asks the store about one.
 */
function prefixLookup(clauseId: string, exists: Exists): Pick<FaultRow, 'clause' | 'install'> {
  const { key, name } = limitedParameter(clauseId);
  const width = limit(clauseId).min!;
  return {
    clause: clauseId,
    install(app: FaultHooks) {
      const store = capture(app, 'store');
      editRequests(app, key, (exchange) => {
        const value = exchange.params[name];
        if (value === undefined || value.length !== width - 1) return exchange;
        const matches = [...ID_CHARACTERS].map((c) => value + c).filter((id) => exists(store(), id, exchange.params));
        if (matches.length !== 1) return exchange;
        return { ...exchange, params: { ...exchange.params, [name]: matches[0]! } };
      });
    },
  };
}

export const pathIdLengthFaults = faultFamily([
  {
    id: 'accepts-27-char-stream-id',
    ...fixedWidthColumn('redeliver.path.id.length'),
    bug: 'A stream id column 26 characters wide: redelivery cuts a longer stream id to 26 before looking it up, so an existing id with a character added is accepted.',
  },
  {
    id: 'accepts-25-char-stream-id',
    ...prefixLookup('redeliver.path.id.length', (store, id) => store.stream(id) !== undefined),
    bug: 'A prefix lookup of streams: redelivery accepts an existing stream id with its last character removed (the observed 400 for a short stream id goes too).',
  },
  {
    id: 'accepts-27-char-event-id',
    ...fixedWidthColumn('redeliver.path.event_id.length'),
    bug: 'An event id column 26 characters wide: redelivery cuts a longer event id to 26 before looking it up, so an existing id with a character added is accepted (the observed 400 for a long event id goes too).',
  },
  {
    id: 'accepts-25-char-event-id',
    ...prefixLookup('redeliver.path.event_id.length', (store, id, params) => store.event(params.id ?? '', id) !== undefined),
    bug: 'A prefix lookup of events: redelivery accepts an existing event id with its last character removed.',
  },
  {
    id: 'accepts-31-char-vault-id',
    ...fixedWidthColumn('vault.path.id.length'),
    bug: 'A VARCHAR(30) column in a non-strict SQL mode: the vault read cuts a longer id to 30 characters, so an existing id with a character added is found (and the observed 400 for a long id becomes 404).',
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
