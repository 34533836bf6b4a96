// Requests of different callers arriving together. A server that keeps something of one request
// where another can reach it (the verified caller, its scopes, what it asked for) in a singleton, a
// module's variable or a cache keyed too loosely answers one caller with another's verdict once
// their requests overlap, though each request alone is answered right. So each operation's valid
// request is sent at the same moment as the same request without a credential, and as the same
// request with the token of a client that lacks the operation's scope, each pair in both orders
// (a field that keeps the last request's, or the first's, shows in one of them): the valid one is accepted,
// and the other is refused as it is when sent alone (its matrix row's first check). The valid
// request sent at once is the positive control of the refusal beside it: where it is refused, the
// refusal proves nothing and its clause is not verified.
import { conformance, role, type Need, type RoleName } from '../../harness/index.ts';
import { checkOutcome, rowTitle } from '../../harness/suite/matrix.ts';
import { operationNeeds } from '../../harness/suite/requests.ts';
import { cards } from '../../specs/cards/index.ts';
import type { OperationCard, RequestTemplate } from '../../specs/cards/card.ts';
import { baseTemplate, matrix, validTemplate, type MatrixRow } from '../../specs/matrix/index.ts';

function rowOf(card: OperationCard, id: string): MatrixRow {
  const row = matrix().operations[card.key].find((r) => r.id === `${card.key} ${id}`);
  if (!row) throw new Error(`the matrix has no row "${card.key} ${id}"`);
  return row;
}

/** The refusals sent beside the valid request: no credential, and a client without the scope. */
function besideValid(card: OperationCard): Array<{ row: MatrixRow; what: string; needs: Need[] }> {
  return [
    { row: rowOf(card, 'authorization absent:absent valid'), what: 'no Authorization header', needs: [] },
    {
      row: rowOf(card, `token.scope.${card.scope.value} other-owner:role-without-scope valid`),
      what: 'the token of a client without the scope',
      needs: [role(card.roleWithoutScope as RoleName)],
    },
  ];
}

for (const card of Object.values(cards) as OperationCard[]) {
  for (const { row, what, needs } of besideValid(card)) {
    if (!('checks' in row.expectation)) throw new Error(`the matrix row "${row.id}" states no expectation`);
    const check = row.expectation.checks[0]!;
    conformance(
      `${rowTitle(card.name, check, `${what}, sent at once with the valid request`)}, and accepts the valid one`,
      { operation: card.key, needs: [...operationNeeds(card.key), ...needs], requests: 4 },
      async ({ target }) => {
        const context = target.context;
        const send = (template: RequestTemplate) => target.sendTemplate(template, { label: card.key });
        const varied = () => send(row.variant.apply(baseTemplate(card, 'valid', row.element, context), context));
        const valid = () => send(validTemplate(card, context));
        // Both orders: whichever of two overlapping requests a shared field keeps, one order shows it.
        const [variedFirst, validSecond] = await Promise.all([varied(), valid()]);
        const [validFirst, variedSecond] = await Promise.all([valid(), varied()]);
        await target.control('the valid request, sent at the same moment (second)', () => Promise.resolve(validSecond));
        checkOutcome(variedFirst, check.outcome);
        await target.control('the valid request, sent at the same moment (first)', () => Promise.resolve(validFirst));
        checkOutcome(variedSecond, check.outcome);
      },
    );
  }
}
