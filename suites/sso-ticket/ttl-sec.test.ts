// Section 8: ttl_sec is 0 to 432000 inclusive; section 4.2: it is an integer. At each limit it is
// accepted, one under the minimum and one over the maximum refused, a fraction refused. The
// bounds come from specs/, so this file holds no number of its own.
import { cases, conformance, expectObservedError, expectRefused, expectSuccess, fixture, writes } from '../../harness/index.ts';
import { ttlSecAboveMaximum, ttlSecBelowMinimum, ttlSecNonInteger } from '../../generators/index.ts';
import { closedLimit } from '../../specs/index.ts';
import { refusalPlan, refusals, sendRefusal } from '../refusals.ts';
import { exampleOf } from '../requests.ts';

const range = closedLimit('sso-ticket.body.ttl_sec.range');
const needs = [fixture('selfServiceProfile'), writes];

for (const ttl_sec of [range.min, range.max]) {
  conformance(
    `[§8 sso-ticket.body.ttl_sec.range] ticket creation accepts ttl_sec ${ttl_sec}`,
    { needs, requests: 1 },
    async ({ target }) => {
      const exchange = await target.call('sso-ticket', { params: { id: target.fixture('selfServiceProfile') }, body: { ttl_sec } });
      expectSuccess(exchange);
    },
  );
}

conformance(
  `[§8 sso-ticket.body.ttl_sec.range] ticket creation refuses ttl_sec ${range.min - 1}, one under the minimum`,
  { needs, requests: cases(1) },
  async ({ target }) => {
    const profile = target.fixture('selfServiceProfile');
    await target.cases([range.min - 1], ttlSecBelowMinimum(), async (ttl_sec) => {
      expectRefused(await target.call('sso-ticket', { params: { id: profile }, body: { ttl_sec } }));
    });
  },
);

conformance(
  `[§8 sso-ticket.body.ttl_sec.range] ticket creation refuses ttl_sec ${range.max + 1}, one over the maximum`,
  { ...refusalPlan(refusals.ttlSecOverMaximum), requests: cases(0) },
  async ({ target }) => {
    expectRefused(await sendRefusal(target, refusals.ttlSecOverMaximum));
    const profile = target.fixture('selfServiceProfile');
    await target.cases([], ttlSecAboveMaximum(), async (ttl_sec) => {
      expectRefused(await target.call('sso-ticket', { params: { id: profile }, body: { ttl_sec } }));
    });
  },
);

conformance(
  '[§4.2 sso-ticket.body.ttl_sec.type] ticket creation refuses a ttl_sec with a fraction',
  { needs, requests: cases(1) },
  async ({ target }) => {
    const profile = target.fixture('selfServiceProfile');
    await target.cases([exampleOf(target, ttlSecNonInteger())], ttlSecNonInteger(), async (ttl_sec) => {
      expectRefused(await target.call('sso-ticket', { params: { id: profile }, body: { ttl_sec } }));
    });
  },
);

conformance(
  '[§7 errors.400.body] ticket creation answers ttl_sec above the maximum with 400 invalid_body',
  refusalPlan(refusals.ttlSecOverMaximum),
  async ({ target }) => {
    expectObservedError(await sendRefusal(target, refusals.ttlSecOverMaximum), 'invalid_body');
  },
);
