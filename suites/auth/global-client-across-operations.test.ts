// The global-client rule (spec 5 rule 4, spec 7: 401) holds for every request of a client that is
// not global, whatever that client did before: one test per other operation sends that operation's
// valid request with the non-global client's token (the positive control: it is served there), then
// the redelivery with the same token, which must still be refused 401. A verdict on the client kept
// across requests (a cache shared by the routes, a session of verified tokens) that another route
// fills with "global" lets the redelivery through.
import { conformance, role } from '../../harness/index.ts';
import { checkOutcome, extendedOnly } from '../../harness/suite/matrix.ts';
import { operationNeeds } from '../../harness/suite/requests.ts';
import type { OperationCard, RequestTemplate } from '../../specs/cards/card.ts';
import { cards } from '../../specs/cards/index.ts';
import { clause } from '../../specs/index.ts';
import { validTemplate, type RequestContext } from '../../specs/matrix/template.ts';

/** Not run on a real tenant by default, like the matrix's extended rows. */
const extended = extendedOnly('an extended check', 'the global-client rows of the matrix check its clause here');

/** An operation's valid request, sent with the token of the client that is not global. */
function asNonGlobal(card: OperationCard, context: RequestContext): RequestTemplate {
  return { ...validTemplate(card, context), credential: { kind: 'role', role: 'non_global' } };
}

const operations: OperationCard[] = Object.values(cards);
const ruled = operations.filter((card) => card.globalClient !== undefined);
for (const card of ruled) {
  const rule = card.globalClient!;
  for (const other of operations.filter((c) => c.key !== card.key)) {
    conformance(
      `[§${clause(rule.clause).section} ${rule.clause}] ${card.name} refuses a client that is not global (401) right after ${other.name} has served that client`,
      {
        operation: card.key,
        needs: [...operationNeeds(other.key), ...operationNeeds(card.key), role('non_global'), extended],
        requests: 2,
      },
      async ({ target }) => {
        await target.control(`${other.name} with the token of the client that is not global`, () =>
          target.sendTemplate(asNonGlobal(other, target.context), { label: other.key }),
        );
        checkOutcome(await target.sendTemplate(asNonGlobal(card, target.context), { label: card.key }), { kind: 'status', status: 401 });
      },
    );
  }
}
