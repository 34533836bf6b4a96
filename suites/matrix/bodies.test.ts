// The request model's body and every field of it at every depth, alone and among every other field,
// varied by every operator that applies (specs/matrix/families/body.ts): null, empty, each other
// JSON type, each bound at its exact value and one step beyond, case, whitespace, an unknown
// property. Judged by the body's validity at both levels. One test per row and clause.
import { rowTests } from '../../harness/suite/matrix.ts';
import { cards } from '../../specs/cards/index.ts';
import { matrix, matrixSuiteOf } from '../../specs/matrix/index.ts';

for (const card of Object.values(cards)) {
  for (const row of matrix().operations[card.key]) if (matrixSuiteOf[row.element.kind] === 'bodies') rowTests(card, row);
}
