// The request model's credential, varied by every operator of the catalogue that applies, on every
// operation (specs/matrix/families/credential.ts): the Authorization header, its scheme, the token
// as text, its JOSE header, its signature, each claim and the operation's scope token. One test per
// row and clause; each refusal stands on its positive control.
import { rowTests } from '../../harness/suite/matrix.ts';
import { cards } from '../../specs/cards/index.ts';
import { matrix, matrixSuiteOf } from '../../specs/matrix/index.ts';

for (const card of Object.values(cards)) {
  for (const row of matrix().operations[card.key]) if (matrixSuiteOf[row.element.kind] === 'credentials') rowTests(card, row);
}
