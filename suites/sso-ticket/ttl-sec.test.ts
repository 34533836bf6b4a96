// Section 8: ttl_sec is 0 to 432000 inclusive; section 4.2: it is an integer. The bounds come from
// specs/, so this file holds no number of its own.
import fc from 'fast-check';
import { conformance, expectObservedError, expectRefused, expectSuccess } from '../../harness/index.ts';
import { ttlSecAboveMaximum, ttlSecBelowMinimum, ttlSecNonInteger } from '../../generators/index.ts';
import { closedLimit } from '../../specs/index.ts';

const range = closedLimit('sso-ticket.body.ttl_sec.range');
for (const ttl_sec of [range.min, range.min + 1, range.max - 1, range.max]) {
  conformance(`[§8 sso-ticket.body.ttl_sec.range] ticket creation accepts ttl_sec ${ttl_sec}`, async ({ target }) => {
    target.writes();
    const exchange = await target.call('sso-ticket', { params: { id: target.fixture('selfServiceProfile') }, body: { ttl_sec } });
    expectSuccess(exchange);
  });
}

conformance('[§8 sso-ticket.body.ttl_sec.range] ticket creation refuses ttl_sec below the minimum', async ({ target }) => {
  target.writes();
  const profile = target.fixture('selfServiceProfile');
  await fc.assert(
    fc.asyncProperty(ttlSecBelowMinimum(), async (ttl_sec) => {
      expectRefused(await target.call('sso-ticket', { params: { id: profile }, body: { ttl_sec } }));
    }),
  );
});

conformance('[§8 sso-ticket.body.ttl_sec.range] ticket creation refuses ttl_sec above the maximum', async ({ target }) => {
  target.writes();
  const profile = target.fixture('selfServiceProfile');
  await fc.assert(
    fc.asyncProperty(ttlSecAboveMaximum(), async (ttl_sec) => {
      expectRefused(await target.call('sso-ticket', { params: { id: profile }, body: { ttl_sec } }));
    }),
  );
});

conformance('[§4.2 sso-ticket.body.ttl_sec.type] ticket creation refuses a ttl_sec with a fraction', async ({ target }) => {
  target.writes();
  const profile = target.fixture('selfServiceProfile');
  await fc.assert(
    fc.asyncProperty(ttlSecNonInteger(), async (ttl_sec) => {
      expectRefused(await target.call('sso-ticket', { params: { id: profile }, body: { ttl_sec } }));
    }),
  );
});

conformance('[§7 errors.400.body] ticket creation answers ttl_sec above the maximum with 400 invalid_body', async ({ target }) => {
  target.writes();
  const exchange = await target.call('sso-ticket', {
    params: { id: target.fixture('selfServiceProfile') },
    body: { ttl_sec: range.max + 1 },
  });
  expectObservedError(exchange, 'invalid_body');
});
