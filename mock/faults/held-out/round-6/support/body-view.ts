// Ticket creation's body checks made to validate a view of the body, as a hand-written pre-check
// or a converter in front of the compiled schema does: the JSON body's check and the form body's
// alike. The route still acts on the body as sent.
import type { ValidateFunction } from 'ajv';
import type { FaultHooks } from '../../../../app.ts';
import { checksOf } from '../../../../validators.ts';
import { isObject, type Fields } from '../../round-3/support/ticket-fields.ts';
import { checkedAs } from '../../round-5/support/checked-as.ts';

/** Wraps the JSON and form body checks of ticket creation. */
export function wrapTicketBodyChecks(app: FaultHooks, wrap: (validate: ValidateFunction) => ValidateFunction): void {
  app.override('validators', (validators) => {
    const checks = checksOf(validators, 'sso-ticket');
    if (checks.body) checks.body = wrap(checks.body);
    if (checks.formBody) checks.formBody = wrap(checks.formBody);
    return validators;
  });
}

/** The body checks decide on `view(body)`; `view` returns the body unchanged where it does not apply. */
export function viewTicketBody(app: FaultHooks, view: (body: Fields) => Fields): void {
  wrapTicketBodyChecks(app, (validate) => checkedAs(validate, (value) => (isObject(value) ? view(value) : value)));
}

/** The body with the nested object `name` seen through `view` (when it is an object). */
export function nestedView(body: Fields, name: string, view: (nested: Fields) => Fields): Fields {
  const nested = body[name];
  return isObject(nested) ? { ...body, [name]: view(nested) } : body;
}
