// Spec section 4.3: the read answers the record of the connection its path names. An id that
// differs from an existing one only by letter case, by a space or tab at one end, or by a
// character escaped once more names no connection, so the read is refused; a server with a
// case-insensitive collation, a binder that trims, or a path decoded twice would answer the
// existing record. The shortest existing id is the base, and a test whose near miss would be
// longer than the length limit (padding adds one character, an escape two) is skipped: refused
// for its length, it would pass without testing identity.
import type fc from 'fast-check';
import { cases, conformance, expectRefused, fixture, type PlanContext } from '../../harness/index.ts';
import { idInOtherCase, idWithEscapedCharacter, paddedId } from '../../generators/index.ts';
import { limit } from '../../specs/index.ts';
import { exampleOf } from '../requests.ts';

const maximum = limit('vault.path.id.length').max!;

const nearMisses: Array<{ what: string; of: (existing: string) => fc.Arbitrary<string>; added: number }> = [
  { what: 'in another letter case', of: idInOtherCase, added: 0 },
  { what: 'padded with a space or a tab', of: paddedId, added: 1 },
  { what: 'with one character escaped once more', of: idWithEscapedCharacter, added: 2 },
];

const shortest = (ids: readonly string[]) => [...ids].sort((a, b) => a.length - b.length)[0]!;

/** The near miss of the shortest id stays within the length limit, so only its identity can refuse it. */
function withinMaximum(added: number) {
  return {
    check: (c: PlanContext) => {
      const ids = c.target.fixtures.vaultConnections;
      const base = ids.length === 0 ? undefined : shortest(ids);
      return base !== undefined && base.length + added > maximum
        ? `needs a vault connection whose id has at most ${maximum - added} characters in fixtures.vault_connections (the shortest, ${base}, has ${base.length}; its near miss would be over the maximum length, ${maximum}, and refused for that)`
        : undefined;
    },
    category: 'config' as const,
  };
}

for (const { what, of, added } of nearMisses) {
  conformance(
    `[§4.3 vault.response.record] the vault read refuses an existing connection id ${what}`,
    { needs: [fixture('vaultConnections'), withinMaximum(added)], requests: cases(1) },
    async ({ target }) => {
      const ids = of(shortest(target.fixture('vaultConnections')));
      await target.cases([exampleOf(target, ids)], ids, async (id) => {
        expectRefused(await target.call('vault', { params: { id } }));
      });
    },
  );
}
