// An Idempotency-Key names one request, for ticket creation as for redelivery
// (suites/redeliver/conflict.test.ts): a repeat may be answered as the first was, but another
// request under the same key is another request, answered for itself. A ticket is created under a
// new key, then a body whose ttl_sec is of another type is sent under the same key: refused (spec
// 4.2), not replayed as the first's 201. A layer that stores answers under the key alone, without a
// fingerprint of the request, creates nothing and answers the ticket again.
import { conformance, expectRefused } from '../../harness/index.ts';
import { operationNeeds, successOf } from '../../harness/suite/requests.ts';

const ticket = successOf('sso-ticket');

conformance(
  '[§4.2 sso-ticket.body.ttl_sec.type] ticket creation refuses ttl_sec of another type, also under the Idempotency-Key of a created ticket',
  { operation: 'sso-ticket', needs: operationNeeds('sso-ticket'), requests: 2, shared: ticket.plan.shared },
  async ({ target }) => {
    await target.control('the creation of a ticket with an empty body', () => ticket.send(target));
    const headers = { 'idempotency-key': `conformance-suite-${Date.now().toString(36)}-ticket` };
    const params = { id: target.fixture('selfServiceProfile') };
    const first = await target.call('sso-ticket', { params, body: {}, headers });
    target.needs(
      first.status >= 200 && first.status < 300,
      `the ticket under the key was not created (${first.status}), so the key names no accepted request`,
    );
    expectRefused(await target.call('sso-ticket', { params, body: { ttl_sec: '3600' }, headers }));
  },
);
