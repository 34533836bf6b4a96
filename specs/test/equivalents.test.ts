// The shared text equivalents (specs/matrix/equivalents.ts) hold what they say: each makes another
// string that its lenient layer folds back onto the original, and every element compared exactly
// has a row of each one that applies to its value, whichever family makes its rows.
import { describe, expect, it } from 'vitest';
import { cards } from '../cards/index.ts';
import { EXACT_TEXT_ELEMENTS, TEXT_EQUIVALENTS, equivalentsOf, exactTextSample, hasEquivalent, variedFrom } from '../matrix/equivalents.ts';
import { matrix } from '../matrix/index.ts';

const { operations, token } = matrix();

/** Every element of the matrix compared exactly, with its card (none for the token request's). */
const exactElements = [
  ...Object.values(cards).flatMap((card) =>
    [...new Set(operations[card.key].map((row) => row.element.id))]
      .filter((id) => exactTextSample(id, card) !== undefined)
      .map((id) => ({ op: String(card.key), id, card, keys: operations[card.key].filter((row) => row.element.id === id) })),
  ),
  ...[...new Set(token.map((row) => row.element.id))]
    .filter((id) => exactTextSample(id) !== undefined)
    .map((id) => ({ op: 'token', id, card: undefined, keys: token.filter((row) => row.element.id === id) })),
].map(({ keys, ...rest }) => ({ ...rest, keys: keys.map((row) => row.variant.key) }));

describe('the text equivalents', () => {
  const samples = exactElements.map(({ id, card }) => exactTextSample(id, card)!);

  it.each(TEXT_EQUIVALENTS.map((entry) => [entry.key, entry] as const))(
    '%s makes another string that its layer folds back onto the original',
    (_key, entry) => {
      const made = samples.flatMap((sample) => {
        const varied = entry.make(sample, variedFrom(sample));
        return varied === undefined ? [] : [{ sample, varied }];
      });
      expect(made.length).toBeGreaterThan(0);
      expect(made.filter(({ sample, varied }) => varied === sample)).toEqual([]);
      expect(made.filter(({ sample, varied }) => entry.fold(varied) !== entry.fold(sample))).toEqual([]);
      // The narrowest layer maps the variation back, and leaves the original as it is.
      if (entry.undo) {
        expect(made.filter(({ sample, varied }) => entry.undo!(varied) !== sample)).toEqual([]);
        expect(samples.filter((sample) => entry.undo!(sample) !== sample)).toEqual([]);
      }
    },
  );

  it('keeps the varied part past a prefix or a scheme', () => {
    expect(variedFrom('https://tenant.example.com/')).toBe('https://'.length);
    const [id] = samples.filter((sample) => /^[a-z]+_/.test(sample));
    expect(id).toBeDefined();
    const from = variedFrom(id!);
    expect(from).toBeGreaterThan(0);
    for (const entry of TEXT_EQUIVALENTS.filter((e) => !['byte-order-mark', 'json-quoted', 'single-quoted'].includes(e.key))) {
      const varied = entry.make(id!, from);
      if (varied !== undefined) expect(varied.slice(0, from)).toBe(id!.slice(0, from));
    }
  });

  it('names elements the matrix has, each pattern at least one', () => {
    expect(EXACT_TEXT_ELEMENTS.filter((element) => !exactElements.some(({ id }) => element.id.test(id))).map((e) => String(e.id))).toEqual(
      [],
    );
  });

  it.each(exactElements.map(({ op, id, card, keys }) => [op, id, card, keys] as const))(
    'varies %s %s by every text equivalent that applies to its value',
    (_op, id, card, keys) => {
      const applicable = equivalentsOf(id, card);
      expect(applicable.length).toBeGreaterThan(0);
      expect(applicable.filter((entry) => !hasEquivalent(keys, entry)).map((entry) => entry.key)).toEqual([]);
    },
  );
});
