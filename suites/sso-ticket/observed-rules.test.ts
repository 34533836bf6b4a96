// Observed: a connection_config naming a connection that already exists is answered 409. Its
// positive control is the same ticket with a connection_config that names a new connection, alone
// in the body, accepted in the same run (the matrix's control of connection_config.name).
import { conformance, expectStatus, fixture } from '../../harness/index.ts';
import { sharedRequest, successOf } from '../../harness/suite/requests.ts';
import { cards } from '../../specs/cards/index.ts';
import { aloneBody, validTemplate } from '../../specs/matrix/index.ts';

const ticket = successOf('sso-ticket');
const NAME = ['connection_config', 'name'];
const CONTROL = sharedRequest.alone('sso-ticket', 'connection_config.name');

conformance(
  '[§7 sso-ticket.errors.409.name-taken] ticket creation answers 409 when connection_config names an existing connection',
  { ...ticket.plan, needs: [...(ticket.plan.needs as []), fixture('existingConnectionName')], requests: 1, shared: [CONTROL] },
  async ({ target }) => {
    const card = cards['sso-ticket'];
    await target.control('a ticket whose connection_config names a new connection', () =>
      target.sendTemplate(validTemplate(card, target.context, aloneBody(card, NAME, target.context)), { shared: CONTROL, label: card.key }),
    );
    const exchange = await target.call('sso-ticket', {
      params: { id: target.fixture('selfServiceProfile') },
      body: { connection_config: { name: target.fixture('existingConnectionName') } },
    });
    expectStatus(exchange, 409);
  },
);
