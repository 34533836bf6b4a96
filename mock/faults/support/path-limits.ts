// Path ids broken the way a lookup breaks their length limit (spec 8), each made from the limit of
// its clause: a fixed-width column that cuts a longer id to its width, a prefix lookup that finds an
// existing id from its first characters. They act on the id as sent, before the route.
import { clause, limit, observed, type OperationKey } from '../../../specs/index.ts';
import type { FaultHooks } from '../../app.ts';
import type { Store } from '../../store.ts';
import type { FaultRow } from '../fault.ts';
import { capture } from './captured.ts';
import { editRequests } from './route-edits.ts';

/** Every character an identifier of the service uses (base58 is a subset). */
const ID_CHARACTERS = observed.identifiers.alphanumeric_alphabet;

export type Exists = (store: Store, id: string, params: Record<string, string>) => boolean;

/** The operation and path parameter whose length a clause limits. */
function limitedParameter(clauseId: string): { key: OperationKey; name: string } {
  const location = clause(clauseId).limit?.location;
  if (location?.in !== 'path' || !location.operation || !location.name) throw new Error(`clause ${clauseId} limits no path parameter`);
  return { key: location.operation, name: location.name };
}

/** Ids kept in a column as wide as the maximum: a longer id is cut to the width before the lookup. */
export function fixedWidthColumn(clauseId: string): Pick<FaultRow, 'clause' | 'install'> {
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
export function prefixLookup(clauseId: string, exists: Exists): Pick<FaultRow, 'clause' | 'install'> {
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
