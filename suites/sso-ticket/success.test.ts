// Ticket creation: every body field is optional (4.2), the answer is {ticket: <URL>} (2.2).
import fc from 'fast-check';
import { conformance, expectClause, expectJsonMediaType, expectSchema, expectStatus, expectSuccess } from '../../harness/index.ts';
import { customDomain, ticketRequestBody } from '../../generators/index.ts';
import { observed, validator } from '../../specs/index.ts';

conformance('[§4.2 sso-ticket.body.optional] ticket creation with an empty body object creates a ticket', async ({ target }) => {
  target.writes();
  const exchange = await target.call('sso-ticket', { params: { id: target.fixture('selfServiceProfile') }, body: {} });
  expectSuccess(exchange);
});

conformance('[§4.2 sso-ticket.body.optional] ticket creation accepts any well-formed selection of the fields', async ({ target }) => {
  target.writes();
  const profile = target.fixture('selfServiceProfile');
  // Ids inside the body are ones the target has (or the field is left out): a real service may
  // check that they exist, and this test is about well-formed bodies, not existence.
  const existing = {
    connectionIds: target.target.fixtures.connectionId ? [target.target.fixtures.connectionId] : [],
    clientIds: [target.target.roles.global!.clientId],
    organizationIds: [],
  };
  await fc.assert(
    fc.asyncProperty(ticketRequestBody(existing), async (body) => {
      expectSuccess(await target.call('sso-ticket', { params: { id: profile }, body }));
    }),
  );
});

conformance('[§2.2 sso-ticket.response.ticket] the ticket response holds ticket, a URL', async ({ target }) => {
  target.writes();
  const exchange = await target.call('sso-ticket', { params: { id: target.fixture('selfServiceProfile') }, body: {} });
  expectSuccess(exchange);
  expectSchema(exchange, validator('SsoTicket', 'contract'), 'an object whose ticket is a string holding a URL');
});

conformance('[§4 sso-ticket.response.content-type] ticket creation answers with a JSON body', async ({ target }) => {
  target.writes();
  const exchange = await target.call('sso-ticket', { params: { id: target.fixture('selfServiceProfile') }, body: {} });
  expectJsonMediaType(exchange);
});

conformance('[§4.4 sso-ticket.success.status] ticket creation answers 201', async ({ target }) => {
  target.writes();
  const exchange = await target.call('sso-ticket', { params: { id: target.fixture('selfServiceProfile') }, body: {} });
  expectStatus(exchange, observed.operations['sso-ticket'].success.status);
});

conformance('[§2.2 sso-ticket.response.shape] the ticket is a connections-flow URL on the tenant host, alone in the body', async ({ target }) => {
  target.writes();
  const exchange = await target.call('sso-ticket', { params: { id: target.fixture('selfServiceProfile') }, body: {} });
  expectSchema(exchange, validator('SsoTicket', 'observed'), `{"ticket": "https://<host>${observed.ticket.path}?${observed.ticket.query_parameter}=<${observed.ticket.code_length} alphanumerics>"} and nothing else`);
  const host = safeHost((exchange.json as { ticket?: string } | undefined)?.ticket);
  const tenantHost = new URL(target.target.audience).host;
  expectClause({ pass: host === tenantHost, expected: `ticket host ${tenantHost} (the tenant's)`, actual: `ticket host ${host ?? '(none)'}`, exchange });
});

conformance('[§4.2 sso-ticket.custom-domain.host] with tenant-custom-domain the ticket URL is on that domain', async ({ target }) => {
  target.writes();
  const [domain] = fc.sample(customDomain(), { numRuns: 1, seed: target.settings.seed });
  const exchange = await target.call('sso-ticket', {
    params: { id: target.fixture('selfServiceProfile') },
    headers: { [target.target.customDomainHeader]: domain! },
    body: {},
  });
  const host = safeHost((exchange.json as { ticket?: string } | undefined)?.ticket);
  expectClause({ pass: host === domain!.toLowerCase(), expected: `ticket host ${domain}`, actual: `ticket host ${host ?? '(none)'} (status ${exchange.status})`, exchange });
});

function safeHost(url: string | undefined): string | undefined {
  try {
    return url === undefined ? undefined : new URL(url).host;
  } catch {
    return undefined;
  }
}

conformance('[§4.2 sso-ticket.body.optional] ticket creation accepts connection_id alone', async ({ target }) => {
  target.writes();
  const exchange = await target.call('sso-ticket', {
    params: { id: target.fixture('selfServiceProfile') },
    body: { connection_id: target.fixture('connectionId') },
  });
  expectSuccess(exchange);
});
