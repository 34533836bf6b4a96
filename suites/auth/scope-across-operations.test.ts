// An operation's scope (spec 5) holds for every request of a client without it, whatever that client
// did before: one test per other operation sends that operation's valid request with the token of
// the client that lacks this operation's scope but holds the other's (the positive control: the
// token is good and served there), then this operation's request with the same token, which must
// still be refused as the matrix's row of that client is. A verdict kept by the credential alone (an
// authorization subrequest cached by the Authorization header, a session of allowed tokens) that
// another route fills with "allowed" lets the request through.
import { conformance, role, type RoleName } from '../../harness/index.ts';
import { checkOutcome, extendedOnly, matrixRow, rowTitle } from '../../harness/suite/matrix.ts';
import { operationNeeds } from '../../harness/suite/requests.ts';
import type { OperationCard, RequestTemplate } from '../../specs/cards/card.ts';
import { cards } from '../../specs/cards/index.ts';
import { validTemplate, type RequestContext } from '../../specs/matrix/template.ts';

/** Not run on a real tenant by default, like the matrix's extended rows. */
const extended = extendedOnly('an extended check', "the scope rows of the matrix check each operation's scope here");

/** An operation's valid request, sent with the token of the client that lacks `without`'s scope. */
function asRoleWithout(card: OperationCard, without: OperationCard, context: RequestContext): RequestTemplate {
  return { ...validTemplate(card, context), credential: { kind: 'role', role: without.roleWithoutScope } };
}

const operations: OperationCard[] = Object.values(cards);
for (const card of operations) {
  const row = matrixRow(card.key, `${card.key} token.scope.${card.scope.value} other-owner:role-without-scope valid`);
  if (!('checks' in row.expectation)) throw new Error(`the matrix row "${row.id}" states no expectation`);
  const check = row.expectation.checks[0]!;
  for (const other of operations.filter((c) => c.key !== card.key)) {
    conformance(
      rowTitle(card.name, check, `the token of a client without the scope, right after ${other.name} has served that token`),
      {
        operation: card.key,
        needs: [...operationNeeds(other.key), ...operationNeeds(card.key), role(card.roleWithoutScope as RoleName), extended],
        requests: 2,
      },
      async ({ target }) => {
        await target.control(`${other.name} with the token of the client without ${card.scope.value}`, () =>
          target.sendTemplate(asRoleWithout(other, card, target.context), { label: other.key }),
        );
        checkOutcome(await target.sendTemplate(asRoleWithout(card, card, target.context), { label: card.key }), check.outcome);
      },
    );
  }
}
