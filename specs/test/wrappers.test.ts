// The shared value wrappers (specs/matrix/wrappers.ts) hold what they say: each makes another JSON
// value that its reader unwraps back into the one it came from, and no other entry's reader does;
// and every JSON-typed element of the matrix has a row of each one that wraps its value, whichever
// family makes its rows.
import { describe, expect, it } from 'vitest';
import { cards } from '../cards/index.ts';
import { matrix } from '../matrix/index.ts';
import { validValueAt, canonicalContext } from '../matrix/template.ts';
import { NOT_WRAPPED, VALUE_WRAPPERS, hasWrapper } from '../matrix/wrappers.ts';

const { operations, token } = matrix();
const SAMPLES: readonly unknown[] = ['evt_1a2b3c', 'https://tenant.example.com/', 3600, 0.5, true, false];

/** A value of the JSON type an element holds, by its kind: a NumericDate's number, a header member's or claim's string. */
const memberSample = (member: string): unknown => (['exp', 'iat', 'nbf'].includes(member) ? 0 : 'x');

/** Every element of the matrix holding a JSON scalar, with its sample value and the keys of its rows. */
const scalarElements = [
  ...Object.values(cards).flatMap((card) => {
    const rows = operations[card.key];
    return [...new Set(rows.map((row) => row.element))].flatMap((element) => {
      const keys = rows.filter((row) => row.element === element).map((row) => row.variant.key);
      if (element.kind === 'body-field') {
        const sample = validValueAt(card, element.path!, canonicalContext);
        return ['string', 'number', 'boolean'].includes(typeof sample)
          ? [{ op: String(card.key), id: element.id, sample, keys, list: false }]
          : [];
      }
      const typed = rows.some((row) => row.element === element && row.variant.operator === 'other-type');
      if ((element.kind === 'claim' || element.kind === 'jose-header') && typed)
        return [{ op: String(card.key), id: element.id, sample: memberSample(element.member!), keys, list: element.member === 'aud' }];
      return [];
    });
  }),
  ...[...new Set(token.map((row) => row.element.id))]
    .filter((id) => /^form\.(client_id|client_secret|grant_type|audience)$/.test(id))
    .map((id) => ({
      op: 'token',
      id,
      sample: 'x',
      keys: token.filter((row) => row.element.id === id).map((row) => row.variant.key),
      list: false,
    })),
];

describe('the value wrappers', () => {
  it.each(VALUE_WRAPPERS.map((entry) => [entry.key, entry] as const))(
    '%s makes another value that only its own reader unwraps',
    (_key, entry) => {
      const wrapped = SAMPLES.filter((sample) => entry.wraps(sample));
      expect(wrapped.length).toBeGreaterThan(0);
      for (const sample of wrapped) {
        const made = entry.wrap(sample);
        expect(typeof made === 'object' && made !== null).toBe(true);
        if (entry.unwrap) expect(entry.unwrap(made)).toEqual(sample);
        for (const other of VALUE_WRAPPERS.filter((e) => e !== entry && e.unwrap)) expect(other.unwrap!(made)).toBe(NOT_WRAPPED);
      }
      if (entry.unwrap) for (const sample of SAMPLES) expect(entry.unwrap(sample)).toBe(NOT_WRAPPED);
    },
  );

  it('finds the JSON-typed elements of every kind', () => {
    expect(new Set(scalarElements.map(({ op, id }) => (op === 'token' ? 'token' : id.split('.')[0])))).toEqual(new Set(['body', 'token']));
    expect(scalarElements.length).toBeGreaterThan(40);
  });

  it.each(scalarElements.map(({ op, id, sample, keys, list }) => [op, id, sample, keys, list] as const))(
    'varies %s %s by every wrapper of its value',
    (_op, _id, sample, keys, list) => {
      const applicable = VALUE_WRAPPERS.filter((entry) => entry.wraps(sample) && !(list && Array.isArray(entry.wrap(sample))));
      expect(applicable.filter((entry) => !hasWrapper(keys, entry)).map((entry) => entry.key)).toEqual([]);
    },
  );
});
