// Ticket creation: every body field is optional (4.2), and the ticket's host (2.2, observed). Its
// status, content type and body are checked with every operation's answer
// (suites/operations/answer.test.ts), on the same ticket with an empty body.
import { cases, conformance, expectEqual, expectSuccess, fixture, writes } from '../../harness/index.ts';
import { ticketRequestBody } from '../../generators/index.ts';
import { successOf } from '../../harness/suite/requests.ts';
import { cards } from '../../specs/cards/index.ts';

/** A custom domain in mixed case: its ticket's host is the domain, in lower case (host names are case-insensitive). */
const CUSTOM_DOMAIN = 'Login.Conformance-Suite.example';

const needs = [fixture('selfServiceProfile'), writes];
/** The one ticket with an empty body, read by every clause about the answer. */
const ticketWithEmptyBody = successOf('sso-ticket');

function safeHost(url: string | undefined): string | undefined {
  try {
    return url === undefined ? undefined : new URL(url).host;
  } catch {
    return undefined;
  }
}

conformance(
  '[§4.2 sso-ticket.body.optional] ticket creation with an empty body object creates a ticket',
  ticketWithEmptyBody.plan,
  async ({ target }) => {
    expectSuccess(await ticketWithEmptyBody.send(target));
  },
);

conformance('[§2.2 sso-ticket.response.shape] the ticket is a URL on the tenant host', ticketWithEmptyBody.plan, async ({ target }) => {
  const exchange = await ticketWithEmptyBody.send(target);
  const host = safeHost((exchange.json as { ticket?: string } | undefined)?.ticket);
  const tenantHost = new URL(target.target.audience).host;
  expectEqual(host, tenantHost, "ticket host (the tenant's)", { exchange });
});

conformance(
  '[§4.2 sso-ticket.body.optional] ticket creation accepts a body with every field, and generated selections of them',
  { needs, requests: cases(1) },
  async ({ target }) => {
    const profile = target.fixture('selfServiceProfile');
    // Ids inside the body are ones the target has (or the field is left out): a real service may
    // check that they exist, and this test is about well-formed bodies, not existence.
    const existing = {
      connectionIds: target.target.fixtures.connectionId ? [target.target.fixtures.connectionId] : [],
      clientIds: [target.target.roles.global!.clientId],
      organizationIds: [],
    };
    const every = cards['sso-ticket'].body.full(target.target.fixtures, { global: target.target.roles.global!.clientId });
    await target.cases<unknown>([every], ticketRequestBody(existing), async (body) => {
      expectSuccess(await target.call('sso-ticket', { params: { id: profile }, body }));
    });
  },
);

conformance(
  '[§4.2 sso-ticket.custom-domain.host] with tenant-custom-domain the ticket URL is on that domain',
  { needs, requests: 1 },
  async ({ target }) => {
    const domain = CUSTOM_DOMAIN;
    const exchange = await target.call('sso-ticket', {
      params: { id: target.fixture('selfServiceProfile') },
      headers: { [target.target.customDomainHeader]: domain },
      body: {},
    });
    const host = safeHost((exchange.json as { ticket?: string } | undefined)?.ticket);
    expectEqual(host, domain.toLowerCase(), 'ticket host', { exchange });
  },
);

conformance(
  '[§4.2 sso-ticket.body.optional] ticket creation accepts connection_id alone',
  { needs: [...needs, fixture('connectionId')], requests: 1 },
  async ({ target }) => {
    const exchange = await target.call('sso-ticket', {
      params: { id: target.fixture('selfServiceProfile') },
      body: { connection_id: target.fixture('connectionId') },
    });
    expectSuccess(exchange);
  },
);
