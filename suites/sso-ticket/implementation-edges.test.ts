// Section 8, at edges a real implementation has beyond the spec's own bounds: a ttl_sec so far
// outside the range that a 32-bit integer wraps it back in (a range of 2^32 and a value of the
// range, either way), and a tenant-custom-domain header that is present but empty (0 characters,
// under the minimum of 3; a server that takes an empty header for an absent one creates a ticket
// on the tenant's own domain). A server that wrongly accepts either creates a ticket, so these run
// on a tenant only with --allow-writes.
import { cases, conformance, expectRefused, fixture, writes } from '../../harness/index.ts';
import { ttlSecWrappingIntoRange } from '../../generators/index.ts';
import { exampleOf } from '../requests.ts';

const needs = [fixture('selfServiceProfile'), writes];

conformance(
  '[§8 sso-ticket.body.ttl_sec.range] ticket creation refuses a ttl_sec that a 32-bit integer would wrap into the range',
  { needs, requests: cases(1) },
  async ({ target }) => {
    const profile = target.fixture('selfServiceProfile');
    await target.cases([exampleOf(target, ttlSecWrappingIntoRange())], ttlSecWrappingIntoRange(), async (ttl_sec) => {
      expectRefused(await target.call('sso-ticket', { params: { id: profile }, body: { ttl_sec } }));
    });
  },
);

conformance(
  '[§8 sso-ticket.header.custom-domain.length] ticket creation refuses a custom domain header that is present but empty',
  { needs, requests: 1 },
  async ({ target }) => {
    const exchange = await target.call('sso-ticket', {
      params: { id: target.fixture('selfServiceProfile') },
      headers: { [target.target.customDomainHeader]: '' },
      body: {},
    });
    expectRefused(exchange);
  },
);
