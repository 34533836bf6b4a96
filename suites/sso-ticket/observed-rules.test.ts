// Observed: a connection_config naming a connection that already exists is answered 409. Its
// positive control is the same ticket with a connection_config that names a new connection, alone
// in the body, accepted in the same run (the matrix's control of connection_config.name). And the
// contract's type of connection_config with the name of an existing connection as the value.
import { conformance, expectRefused, expectStatus, fixture, type TargetSession } from '../../harness/index.ts';
import { sharedRequest, successOf } from '../../harness/suite/requests.ts';
import { cards } from '../../specs/cards/index.ts';
import { aloneBody, validTemplate } from '../../specs/matrix/index.ts';

const ticket = successOf('sso-ticket');
const card = cards['sso-ticket'];
const NAME = ['connection_config', 'name'];
const CONTROL = sharedRequest.alone('sso-ticket', 'connection_config.name');

/** The positive control: the ticket with a connection_config that names a new connection, alone in the body, accepted. */
async function controlled(target: TargetSession): Promise<void> {
  await target.control('a ticket whose connection_config names a new connection', () =>
    target.sendTemplate(validTemplate(card, target.context, aloneBody(card, NAME, target.context)), { shared: CONTROL, label: card.key }),
  );
}

conformance(
  '[§7 sso-ticket.errors.409.name-taken] ticket creation answers 409 when connection_config names an existing connection',
  { ...ticket.plan, needs: [...(ticket.plan.needs as []), fixture('existingConnectionName')], requests: 1, shared: [CONTROL] },
  async ({ target }) => {
    await controlled(target);
    const exchange = await target.call('sso-ticket', {
      params: { id: target.fixture('selfServiceProfile') },
      body: { connection_config: { name: target.fixture('existingConnectionName') } },
    });
    expectStatus(exchange, 409);
  },
);

// The same taken name among every other field of the body, connection_id (the connection to edit)
// and its features included: the reference makes no exception to the 409 for them, so a check that
// only the new-connection branch makes does not pass. What the service does with connection_id and
// connection_config together is not known, but a ticket for a taken name is not among it: the
// request is refused (409, or another refusal of the pair).
conformance(
  '[§7 sso-ticket.errors.409.name-taken] ticket creation refuses a connection_config that names an existing connection among every other body field (connection_id too)',
  {
    ...ticket.plan,
    needs: [...(ticket.plan.needs as []), fixture('existingConnectionName'), fixture('connectionId')],
    requests: 1,
    shared: [CONTROL],
  },
  async ({ target }) => {
    await controlled(target);
    const every = card.body.full(target.target.fixtures, { global: target.target.roles.global?.clientId ?? '' });
    const exchange = await target.call('sso-ticket', {
      params: { id: target.fixture('selfServiceProfile') },
      body: {
        ...every,
        connection_config: {
          ...(aloneBody(card, NAME, target.context) as { connection_config: object }).connection_config,
          name: target.fixture('existingConnectionName'),
        },
      },
    });
    expectRefused(exchange);
  },
);

// connection_config is an object (spec 4.2): the name of an existing connection in its place, a
// string, is of another type, though a "start from this connection" shortcut takes it for a
// connection to copy. The matrix's other-type rows send a string that names nothing.
conformance(
  '[§4.2 sso-ticket.body.connection_config.type] ticket creation refuses a connection_config that is the name of an existing connection (a string, not an object)',
  { ...ticket.plan, needs: [...(ticket.plan.needs as []), fixture('existingConnectionName')], requests: 1, shared: [CONTROL] },
  async ({ target }) => {
    await controlled(target);
    const exchange = await target.call('sso-ticket', {
      params: { id: target.fixture('selfServiceProfile') },
      body: { connection_config: target.fixture('existingConnectionName') },
    });
    expectRefused(exchange);
  },
);
