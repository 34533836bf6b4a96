// Spec section 4.3: the read answers the record of the connection its path names. An id that
// differs from an existing one only by letter case, by a space or tab at one end, or by a
// character escaped once more names no connection, so the read is refused; a server with a
// case-insensitive collation, a binder that trims, or a path decoded twice would answer the
// existing record. The shortest existing id is the base, so padding and escaping stay within the
// length limit and only identity is tested.
import type fc from 'fast-check';
import { cases, conformance, expectRefused, fixture } from '../../harness/index.ts';
import { idInOtherCase, idWithEscapedCharacter, paddedId } from '../../generators/index.ts';
import { exampleOf } from '../requests.ts';

const nearMisses: Array<{ what: string; of: (existing: string) => fc.Arbitrary<string> }> = [
  { what: 'in another letter case', of: idInOtherCase },
  { what: 'padded with a space or a tab', of: paddedId },
  { what: 'with one character escaped once more', of: idWithEscapedCharacter },
];

const shortest = (ids: readonly string[]) => [...ids].sort((a, b) => a.length - b.length)[0]!;

for (const { what, of } of nearMisses) {
  conformance(
    `[§4.3 vault.response.record] the vault read refuses an existing connection id ${what}`,
    { needs: [fixture('vaultConnections')], requests: cases(1) },
    async ({ target }) => {
      const ids = of(shortest(target.fixture('vaultConnections')));
      await target.cases([exampleOf(target, ids)], ids, async (id) => {
        expectRefused(await target.call('vault', { params: { id } }));
      });
    },
  );
}
