// Observed: the real service refuses bodies that break its published rules for the nested
// objects (400 invalid_body), and a connection_config naming an existing connection (409).
import { cases, conformance, expectObservedError, expectStatus, fixture, writes } from '../../harness/index.ts';
import { ticketObservedRules, ticketRequestBodyBreakingObservedRule } from '../../generators/index.ts';
import { exampleOf } from '../requests.ts';

for (const rule of ticketObservedRules) {
  conformance(
    `[§2.4 sso-ticket.body.nested-rules] ticket creation answers 400 invalid_body to a body with ${rule}`,
    { needs: [fixture('selfServiceProfile'), writes], requests: cases(1) },
    async ({ target }) => {
      const profile = target.fixture('selfServiceProfile');
      const breaking = ticketRequestBodyBreakingObservedRule(rule);
      await target.cases([exampleOf(target, breaking)], breaking, async (body) => {
        expectObservedError(await target.call('sso-ticket', { params: { id: profile }, body }), 'invalid_body');
      });
    },
  );
}

conformance(
  '[§7 sso-ticket.errors.409.name-taken] ticket creation answers 409 when connection_config names an existing connection',
  { needs: [fixture('selfServiceProfile'), fixture('existingConnectionName'), writes], requests: 1 },
  async ({ target }) => {
    const exchange = await target.call('sso-ticket', {
      params: { id: target.fixture('selfServiceProfile') },
      body: { connection_config: { name: target.fixture('existingConnectionName') } },
    });
    expectStatus(exchange, 409);
  },
);
