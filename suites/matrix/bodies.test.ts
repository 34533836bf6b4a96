// The request model's body and every field of it at every depth, alone and among every other field,
// varied by every operator that applies (specs/matrix/families/body.ts): null, empty, each other
// JSON type, each bound at its exact value and one step beyond, case, whitespace, an unknown
// property. Judged by the body's validity at both levels. One test per row and clause.
import { rowTests } from '../../harness/suite/matrix.ts';
import { cards } from '../../specs/cards/index.ts';
import { matrix, type ElementKind } from '../../specs/matrix/index.ts';

const BODY: readonly ElementKind[] = ['body', 'body-field'];

for (const card of Object.values(cards)) {
  for (const row of matrix().operations[card.key]) if (BODY.includes(row.element.kind)) rowTests(card, row);
}
