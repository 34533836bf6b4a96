// The request model's header parameters and content type, varied by every operator that applies
// (specs/matrix/families/headers.ts): the custom-domain header at its exact lengths, empty, padded,
// twice, beside its other name; the Accept header naming other types besides JSON. One test per
// row and clause.
import { rowTests } from '../../harness/suite/matrix.ts';
import { cards } from '../../specs/cards/index.ts';
import { matrix, matrixSuiteOf } from '../../specs/matrix/index.ts';

for (const card of Object.values(cards)) {
  for (const row of matrix().operations[card.key]) if (matrixSuiteOf[row.element.kind] === 'headers') rowTests(card, row);
}
