// Observed: a request with two defects of its input that no order is known for (a header and the
// body) is refused with the status of one of them (errors.two-causes), never answered 5xx: a
// validator that gathers its problems must take a second one. On every operation with a header
// parameter and a body: each header parameter's first refusal row of the matrix, applied to the
// body of its first refused top-level field alone (its own row), one after the other. The positive
// control is the valid request.
import { conformance } from '../../harness/index.ts';
import { checkOutcome, rowTitle } from '../../harness/suite/matrix.ts';
import { operationNeeds, sharedRequest, successOf } from '../../harness/suite/requests.ts';
import type { ClauseCheck, OperationCard } from '../../specs/cards/card.ts';
import { cards } from '../../specs/cards/index.ts';
import { errorFact } from '../../specs/index.ts';
import { baseTemplate, expectsRefusal, matrix, type MatrixRow } from '../../specs/matrix/index.ts';

const BAD_REQUEST = 400;

/** The status a refusal row's real-service error gives (its observed error), else 400. */
function statusOf(row: MatrixRow): number {
  const checks = 'checks' in row.expectation ? row.expectation.checks : [];
  const error = checks.find((check) => check.outcome.kind === 'observed-error');
  return error && error.outcome.kind === 'observed-error' ? errorFact(error.outcome.error).status : BAD_REQUEST;
}

/** A core refusal row (runs everywhere, needs nothing) answered 400 by the real service. */
function isPlainRefusal(row: MatrixRow): boolean {
  return expectsRefusal(row.expectation) && !row.variant.extended && !row.variant.needs && statusOf(row) === BAD_REQUEST;
}

for (const card of Object.values(cards) as OperationCard[]) {
  if (!card.body) continue;
  const rows = matrix().operations[card.key];
  const body = rows.find(
    (row) => row.element.kind === 'body-field' && row.base === 'alone' && row.element.path!.length === 1 && isPlainRefusal(row),
  );
  if (!body) continue;
  const headers = [...new Set(rows.filter((row) => row.element.kind === 'header-param').map((row) => row.element.id))].flatMap(
    (element) => rows.find((row) => row.element.id === element && row.base === 'valid' && isPlainRefusal(row)) ?? [],
  );
  const control = successOf(card.key);
  for (const header of headers) {
    const what = `${header.element.label} ${header.variant.says} and ${body.element.label} ${body.variant.says} (either: no order is known)`;
    const check: ClauseCheck = { clause: 'errors.two-causes', outcome: { kind: 'status', status: BAD_REQUEST } };
    const key = `${card.key}: two causes, ${header.id} and ${body.id}`;
    conformance(
      rowTitle(card.name, check, what),
      { operation: card.key, needs: operationNeeds(card.key), requests: 0, shared: [key, sharedRequest.success(card.key)] },
      async ({ target }) => {
        await target.control('the valid request', () => control.send(target));
        const context = target.context;
        const base = baseTemplate(card, body.base, body.element, context);
        const varied = header.variant.apply(body.variant.apply(base, context), context);
        checkOutcome(await target.sendTemplate(varied, { shared: key, label: card.key }), check.outcome);
      },
    );
  }
}
