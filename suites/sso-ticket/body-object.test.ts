// Section 4.2: the request body is the ticket request object. Valid JSON that is not an object is
// refused, in particular the two that a check of `typeof body === 'object'` lets through, null and
// an array (an array has no fields, so a lenient server creates a ticket with the defaults).
// Observed: the real service answers them 400 invalid_body. One request each, read by both.
import { conformance, expectObservedError, expectRefused } from '../../harness/index.ts';
import { refusalPlan, refusals, sendRefusal } from '../refusals.ts';

for (const refusal of [refusals.ticketBodyNull, refusals.ticketBodyArray]) {
  conformance(`[§4.2 sso-ticket.body.object] ticket creation refuses ${refusal.what}`, refusalPlan(refusal), async ({ target }) => {
    expectRefused(await sendRefusal(target, refusal));
  });

  conformance(
    `[§7 errors.400.body] ticket creation answers ${refusal.what} with 400 invalid_body`,
    refusalPlan(refusal),
    async ({ target }) => {
      expectObservedError(await sendRefusal(target, refusal), 'invalid_body');
    },
  );
}
