// Requests of different callers close together. A server that keeps something of one request where
// another can reach it (the verified caller, its scopes, what it asked for) in a singleton or a
// module's variable answers one caller with another's verdict once their requests overlap, though
// each request alone is answered right; a cache keyed without the credential answers the next
// caller of the same URL with the last one's answer. So each operation's valid request is followed
// at once by the same request without a credential, and by the same request with the token of a
// client that lacks the operation's scope; then each pair is sent at the same moment, in both orders
// (a field that keeps the last request's, or the first's, shows in one of them). The valid one is
// accepted each time, and the other is refused as it is when sent alone (its matrix row's first
// check). The valid request beside it is the positive control of each refusal: where it is refused,
// the refusal proves nothing and its clause is not verified.
import { conformance, role, type Need, type RoleName } from '../../harness/index.ts';
import { checkOutcome, matrixRow, rowTitle } from '../../harness/suite/matrix.ts';
import { operationNeeds } from '../../harness/suite/requests.ts';
import { cards } from '../../specs/cards/index.ts';
import type { OperationCard, RequestTemplate } from '../../specs/cards/card.ts';
import { baseTemplate, validTemplate, type MatrixRow } from '../../specs/matrix/index.ts';

function rowOf(card: OperationCard, id: string): MatrixRow {
  return matrixRow(card.key, `${card.key} ${id}`);
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
      `${rowTitle(card.name, check, `${what}, sent right after the valid request and at once with it`)}, and accepts the valid one`,
      { operation: card.key, needs: [...operationNeeds(card.key), ...needs], requests: 6 },
      async ({ target }) => {
        const context = target.context;
        const send = (template: RequestTemplate) => target.sendTemplate(template, { label: card.key });
        const varied = () => send(row.variant.apply(baseTemplate(card, 'valid', row.element, context), context));
        const valid = () => send(validTemplate(card, context));
        // Right after the valid request: an answer kept by a cache keyed without the credential.
        const before = await valid();
        const after = await varied();
        // Both orders at once: whichever of two overlapping requests a shared field keeps, one order shows it.
        const [variedFirst, validSecond] = await Promise.all([varied(), valid()]);
        const [validFirst, variedSecond] = await Promise.all([valid(), varied()]);
        for (const [control, refused, when] of [
          [before, after, 'just before'],
          [validSecond, variedFirst, 'at the same moment, second'],
          [validFirst, variedSecond, 'at the same moment, first'],
        ] as const) {
          await target.control(`the valid request, sent ${when}`, () => Promise.resolve(control));
          checkOutcome(refused, check.outcome);
        }
      },
    );
  }
}
