// A read of one record by its id: what a card with an echoed path parameter whose fixture has
// stated records declares (GET /flows/vault/connections/{id}, spec 4.3, is one). 200 with the
// record of that id in the store (unset optional fields omitted), else the card's observed error
// for an unknown id (404 "Connection not found" for the vault). An operation of this kind needs no
// route of its own.
import { recordsOf } from '../../specs/cards/fixtures.ts';
import type { OperationCard } from '../../specs/cards/card.ts';
import type { Components } from '../components.ts';
import { apiErrorCatalogue, type ApiErrorKind } from '../errors.ts';
import type { RouteHandler } from '../exchange.ts';
import { refuse } from '../refusal.ts';
import { authenticate } from '../stages/authenticate.ts';
import { authorize } from '../stages/authorize.ts';
import { validatePath } from '../stages/validate.ts';
import { success } from './success.ts';

export function readRecordRoute(deps: Components, card: OperationCard): RouteHandler {
  const { param, records, notFound } = readOf(card);
  return async function readRecord(exchange) {
    const principal = await authenticate(deps, exchange);
    authorize(deps, principal, card);
    const values = validatePath(deps, card.key, exchange.params);
    const record = deps.store.record(records, values[param]!) ?? refuse(deps, notFound);
    return success(card, record);
  };
}

/** The parameter a read echoes, the fixture of the records it reads, and the error of an unknown id, from the card. */
function readOf(card: OperationCard): { param: string; records: NonNullable<ReturnType<typeof recordsOf>>; notFound: ApiErrorKind } {
  const param = card.answer.echoes?.param;
  const fixture = param === undefined ? undefined : card.params[param]?.fixture;
  const records = fixture === undefined ? undefined : recordsOf(fixture);
  const notFound = param === undefined ? undefined : card.params[param]?.unknown.find((u) => u.outcome.kind === 'observed-error')?.outcome;
  if (
    param === undefined ||
    records === undefined ||
    notFound?.kind !== 'observed-error' ||
    !Object.hasOwn(apiErrorCatalogue, notFound.error)
  )
    throw new Error(
      `${card.key} is not a read of one record: its answer echoes no path parameter whose fixture has stated records (specs/cards/fixtures.ts), with an observed error of the mock's catalogue (mock/errors.ts) for an unknown id`,
    );
  return { param, records, notFound: notFound.error as ApiErrorKind };
}
