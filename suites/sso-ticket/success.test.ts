// Ticket creation: every body field is optional (4.2), the answer is {ticket: <URL>} (2.2). One
// ticket with an empty body is read by every clause about the answer.
import {
  cases,
  conformance,
  expectEqual,
  expectJsonMediaType,
  expectSchema,
  expectStatus,
  expectSuccess,
  fixture,
  writes,
} from '../../harness/index.ts';
import { ticketRequestBody } from '../../generators/index.ts';
import { successOf } from '../../harness/suite/requests.ts';
import { cards } from '../../specs/cards/index.ts';
import { observed, validator } from '../../specs/index.ts';

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

conformance('[§2.2 sso-ticket.response.ticket] the ticket response holds ticket, a URL', ticketWithEmptyBody.plan, async ({ target }) => {
  const exchange = await ticketWithEmptyBody.send(target);
  expectSuccess(exchange);
  expectSchema(exchange, validator('SsoTicket', 'contract'), 'an object whose ticket is a string holding a URL');
});

conformance(
  '[§4 sso-ticket.response.content-type] ticket creation answers with a JSON body',
  ticketWithEmptyBody.plan,
  async ({ target }) => {
    expectJsonMediaType(await ticketWithEmptyBody.send(target));
  },
);

conformance('[§4.4 sso-ticket.success.status] ticket creation answers 201', ticketWithEmptyBody.plan, async ({ target }) => {
  expectStatus(await ticketWithEmptyBody.send(target), observed.operations['sso-ticket'].success.status);
});

conformance(
  '[§2.2 sso-ticket.response.shape] the ticket is a connections-flow URL on the tenant host, alone in the body',
  ticketWithEmptyBody.plan,
  async ({ target }) => {
    const exchange = await ticketWithEmptyBody.send(target);
    expectSchema(
      exchange,
      validator('SsoTicket', 'observed'),
      `{"ticket": "https://<host>${observed.ticket.path}?${observed.ticket.query_parameter}=<${observed.ticket.code_length} alphanumerics>"} and nothing else`,
    );
    const host = safeHost((exchange.json as { ticket?: string } | undefined)?.ticket);
    const tenantHost = new URL(target.target.audience).host;
    expectEqual(host, tenantHost, "ticket host (the tenant's)", { exchange });
  },
);

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
