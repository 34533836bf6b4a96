// The request model's method and path, varied by every operator that applies, on every operation
// (specs/matrix/families/path.ts): each other method, each literal segment, each path parameter at
// its exact bounds and by its near misses (case, whitespace, an escape, an id of another kind or
// owner, a well-formed id that names nothing). One test per row and clause.
import { rowTests } from '../../harness/suite/matrix.ts';
import { cards } from '../../specs/cards/index.ts';
import { matrix, matrixSuiteOf } from '../../specs/matrix/index.ts';

for (const card of Object.values(cards)) {
  for (const row of matrix().operations[card.key]) if (matrixSuiteOf[row.element.kind] === 'paths') rowTests(card, row);
}
