// The shared text equivalents (specs/matrix/equivalents.ts), each folded by a lenient comparison
// of one exactly compared value: the client secret compared after the fold on both sides, the
// event id of the redelivery path folded before its lookup, a held scope folded onto the one an
// operation requires. One fault per equivalence and element, so that every entry of the list is
// shown to be caught by the rows made of it; the secret's lossy twins, hash code and case mappings
// are client-credentials.ts's already.
import { cards } from '../../specs/cards/index.ts';
import type { OperationCard } from '../../specs/cards/card.ts';
import { equivalent, type TextEquivalent } from '../../specs/matrix/equivalents.ts';
import { faultFamily, type FaultRow } from './fault.ts';
import { decoded, editPathParameter, secretMatching } from './support/parameter-edits.ts';
import { editPrincipal } from './support/verifier-edits.ts';

const SECRET_FOLDS = [
  'fullwidth',
  'mathematical-bold',
  'superscript-digit',
  'cyrillic-look-alike',
  'zero-width-space',
  'soft-hyphen',
  'word-joiner',
  'byte-order-mark',
  'no-break-space-after',
  'unit-separator-after',
  'underscore-inside',
  'accented-letter',
  'tab-after',
  'line-feed-after',
  'carriage-return-after',
  'plus-after',
  'percent-encoded-character',
  'json-quoted',
  'single-quoted',
  'semicolon-parameter',
];
// Not the underscore: the event id's own prefix has one, which its fold would take off too.
const EVENT_ID_FOLDS = [...SECRET_FOLDS.filter((key) => key !== 'underscore-inside'), 'low-byte-twin', 'high-bit-twin'];
/** Each scope fold on an operation whose scope holds what the entry changes ("fl" of flows, "ss" of sso and access). */
const SCOPE_FOLDS: ReadonlyArray<[string, OperationCard]> = [
  ['ligature', cards.vault],
  ['sharp-s', cards['sso-ticket']],
  ['kelvin-sign', cards['sso-ticket']],
  ['dotted-capital-i', cards.redeliver],
  ['dotless-i', cards.redeliver],
  ['long-s', cards.redeliver],
  ['underscore-inside', cards.vault],
  ['plus-after', cards.redeliver],
  ['percent-encoded-character', cards['sso-ticket']],
  ['line-feed-after', cards.vault],
  ['json-quoted', cards.redeliver],
];

/** The entry's narrowest layer (its undo), else its fold: what a fault applies to the value sent. */
const narrowest = (entry: TextEquivalent) => entry.undo ?? entry.fold;

const secretFault = (entry: TextEquivalent): FaultRow => ({
  id: `secret-matched-by-${entry.key}-fold`,
  clause: 'token.endpoint.wrong-secret',
  bug: `The client secret compared after ${entry.foldedBy} (at its narrowest): the secret with ${entry.says} gets a token instead of 401 invalid_client; another secret is still refused.`,
  install: secretMatching((sent, stored) => sent !== stored && narrowest(entry)(sent) === narrowest(entry)(stored)),
});

/** Whether an entry adds a character: the id it makes is over its length, refused under the length's clause first. */
const lengthens = (entry: TextEquivalent): boolean => [...(entry.make('evt_x') ?? '')].length > 'evt_x'.length;

const eventIdFault = (entry: TextEquivalent): FaultRow => ({
  id: `event-id-read-by-${entry.key}-fold`,
  clause: lengthens(entry) ? 'redeliver.path.event_id.length' : 'redeliver.errors.404.event',
  bug: `The redelivery path's event id passed through ${entry.foldedBy} (at its narrowest) before it is checked and looked up: the failed event's id with ${entry.says} is redelivered instead of refused; an unknown id is still 404.`,
  install: (app) =>
    editPathParameter(app, 'redeliver', 'event_id', (raw) => {
      const id = decoded(raw);
      const folded = id === undefined ? undefined : narrowest(entry)(id);
      return folded === undefined || folded === id ? undefined : encodeURIComponent(folded);
    }),
});

const scopeFault = (entry: TextEquivalent, card: OperationCard): FaultRow => ({
  id: `scope-${card.key}-granted-by-${entry.key}-fold`,
  clause: `${card.key}.scope`,
  bug: `Held scopes compared with the one ${card.key} requires after ${entry.foldedBy}: a token holding ${card.scope.value} with ${entry.says} is let through instead of 403; a token without it is still refused.`,
  install: (app) =>
    editPrincipal(app, (principal) => {
      const required = card.scope.value;
      const fold = narrowest(entry);
      const folded = [...principal.scopes].some((held) => held !== required && fold(held) === fold(required));
      return folded ? { ...principal, scopes: new Set([...principal.scopes, required]) } : principal;
    }),
});

export const textEquivalentFaults = faultFamily([
  ...SECRET_FOLDS.map((key) => secretFault(equivalent(key))),
  ...EVENT_ID_FOLDS.map((key) => eventIdFault(equivalent(key))),
  ...SCOPE_FOLDS.map(([key, card]) => scopeFault(equivalent(key), card)),
]);
