// Observed: the real service refuses bodies that break its published rules for the nested
// objects (400 invalid_body), and a connection_config naming an existing connection (409).
import fc from 'fast-check';
import { conformance, expectObservedError, expectStatus } from '../../harness/index.ts';
import { ticketObservedRules, ticketRequestBodyBreakingObservedRule } from '../../generators/index.ts';

for (const rule of ticketObservedRules) {
  conformance(`[§2.4 sso-ticket.body.nested-rules] ticket creation answers 400 invalid_body to a body with ${rule}`, async ({ target }) => {
    target.writes();
    const profile = target.fixture('selfServiceProfile');
    await fc.assert(
      fc.asyncProperty(ticketRequestBodyBreakingObservedRule(rule), async (body) => {
        expectObservedError(await target.call('sso-ticket', { params: { id: profile }, body }), 'invalid_body');
      }),
    );
  });
}

conformance('[§7 sso-ticket.errors.409.name-taken] ticket creation answers 409 when connection_config names an existing connection', async ({ target }) => {
  target.writes();
  const exchange = await target.call('sso-ticket', {
    params: { id: target.fixture('selfServiceProfile') },
    body: { connection_config: { name: target.fixture('existingConnectionName') } },
  });
  expectStatus(exchange, 409);
});
