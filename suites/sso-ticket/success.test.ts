// Ticket creation: every body field is optional (4.2), and the ticket's host (2.2, observed). Its
// status, content type and body are checked with every operation's answer
// (suites/operations/answer.test.ts), on the same ticket with an empty body.
import {
  cases,
  conformance,
  expectClause,
  expectEqual,
  expectSuccess,
  fixture,
  shown,
  writes,
  type Credential,
  type Exchange,
  type TargetSession,
} from '../../harness/index.ts';
import { extendedOnly } from '../../harness/suite/matrix.ts';
import { SkipRequest } from '../../harness/skip.ts';
import { ticketRequestBody } from '../../generators/index.ts';
import { successOf } from '../../harness/suite/requests.ts';
import { cards } from '../../specs/cards/index.ts';
import { audiencePath, observed } from '../../specs/index.ts';

/** A custom domain in mixed case: its ticket's host is the domain, in lower case (host names are case-insensitive). */
const CUSTOM_DOMAIN = 'Login.Conformance-Suite.example';

const needs = [fixture('selfServiceProfile'), writes];
/** The one ticket with an empty body, read by every clause about the answer. */
const ticketWithEmptyBody = successOf('sso-ticket');

/**
 * The host of a URL as written (in lower case, host names being case-insensitive), with any port
 * or user name: a URL parser drops a default port (":443"), which the observed tickets never have.
 */
function safeHost(url: string | undefined): string | undefined {
  try {
    if (url === undefined) return undefined;
    new URL(url);
    return /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1]?.toLowerCase();
  } catch {
    return undefined;
  }
}

/** The host of the ticket an answer holds, as written (safeHost). */
const ticketHost = (exchange: Exchange) => safeHost((exchange.json as { ticket?: string } | undefined)?.ticket);

/** The tenant's own host: its management audience's. */
const tenantHostOf = (target: TargetSession) => new URL(target.target.audience).host;

conformance(
  '[§4.2 sso-ticket.body.optional] ticket creation with an empty body object creates a ticket',
  ticketWithEmptyBody.plan,
  async ({ target }) => {
    expectSuccess(await ticketWithEmptyBody.send(target));
  },
);

conformance('[§2.2 sso-ticket.response.shape] the ticket is a URL on the tenant host', ticketWithEmptyBody.plan, async ({ target }) => {
  const exchange = await ticketWithEmptyBody.send(target);
  expectEqual(ticketHost(exchange), tenantHostOf(target), "ticket host (the tenant's)", { exchange });
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

/**
 * A ticket created with the custom domain header, as a credential (the global role's token by
 * default), with `headers` besides it.
 */
async function ticketOnCustomDomain(target: TargetSession, as?: Credential, headers: Record<string, string> = {}) {
  const exchange = await target.call('sso-ticket', {
    params: { id: target.fixture('selfServiceProfile') },
    headers: { [target.target.customDomainHeader]: CUSTOM_DOMAIN, ...headers },
    body: {},
    ...(as ? { as } : {}),
  });
  // host, not hostname: the ticket is on the custom domain itself, with no port.
  expectEqual(ticketHost(exchange), CUSTOM_DOMAIN.toLowerCase(), 'ticket host', { exchange });
}

conformance(
  '[§4.2 sso-ticket.custom-domain.host] with tenant-custom-domain the ticket URL is on that domain',
  { needs, requests: 1 },
  async ({ target }) => ticketOnCustomDomain(target),
);

/** Another host, named by the headers a proxy adds (X-Forwarded-Host, RFC 7239's Forwarded). */
const PROXY_HOST = 'proxy.internal.conformance-suite.example';
const PROXY_HEADERS = { 'x-forwarded-host': PROXY_HOST, forwarded: `host=${PROXY_HOST};proto=https` };

/** Variations of the ticket request's headers: against test doubles, or with --matrix full. */
const extended = extendedOnly("a variation of the ticket request's headers", 'the tests without them check the clause here');

// The host a proxy says the request reached (X-Forwarded-Host, Forwarded: host=) names no host of
// the tenant: a ticket is on the custom domain the header names, else on the tenant's own host,
// never on the host a client can write into those headers (a host-header injection, a framework's
// "trust proxy" reading req.hostname).
conformance(
  '[§4.2 sso-ticket.custom-domain.host] with tenant-custom-domain, and X-Forwarded-Host and Forwarded naming another host, the ticket URL is on the custom domain',
  { needs: [...needs, extended], requests: 1 },
  async ({ target }) => ticketOnCustomDomain(target, undefined, PROXY_HEADERS),
);

conformance(
  '[§2.2 sso-ticket.response.shape] with X-Forwarded-Host and Forwarded naming another host, the ticket is a URL on the tenant host',
  { needs: [...needs, extended], requests: 1 },
  async ({ target }) => {
    const exchange = await target.call('sso-ticket', {
      params: { id: target.fixture('selfServiceProfile') },
      headers: PROXY_HEADERS,
      body: {},
    });
    expectEqual(ticketHost(exchange), tenantHostOf(target), "ticket host (the tenant's)", { exchange });
  },
);

/** The management audience at the address the target file's base_url names, where it is another than the file's audience. */
function audienceAtBaseUrl(target: { baseUrl: string; audience: string }): string | undefined {
  const audience = `${new URL(target.baseUrl).origin}${audiencePath}`;
  return audience === target.audience ? undefined : audience;
}

// The custom domain replaces the whole host the ticket would have had, its port too: a caller
// whose token names the tenant at an address with a port (a test double, a proxy) gets a ticket
// on the custom domain all the same. Against a tenant reached at its audience's address there is
// no other address to name.
conformance(
  "[§4.2 sso-ticket.custom-domain.host] with tenant-custom-domain the ticket URL is on that domain, with no port, for a token naming the tenant at the base URL's address",
  {
    needs: [
      ...needs,
      {
        check: (context) =>
          audienceAtBaseUrl(context.target)
            ? undefined
            : "the target file's base_url names the tenant at its audience's address: a token can name no other",
        category: 'not-applicable',
      },
    ],
    requests: 2,
  },
  async ({ target }) => {
    const { token } = await target.tokenRequest('global', { audience: audienceAtBaseUrl(target.target)! });
    if (!token) throw new SkipRequest('depends', `the target issues no token for ${audienceAtBaseUrl(target.target)}`);
    await ticketOnCustomDomain(target, { token });
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

/**
 * A ticket asked for with `domain` as the custom domain (in the target's header), after the same
 * request with CUSTOM_DOMAIN, a host name, accepted (the positive control).
 */
async function ticketWithDomain(target: TargetSession, header: string, domain: string): Promise<Exchange> {
  const profile = target.fixture('selfServiceProfile');
  await target.control('a ticket request with a custom domain that is a host name', () =>
    target.call('sso-ticket', { params: { id: profile }, headers: { [target.target.customDomainHeader]: CUSTOM_DOMAIN }, body: {} }),
  );
  return target.call('sso-ticket', { params: { id: profile }, headers: { [header]: domain }, body: {} });
}

// A custom domain of 3 to 255 characters that is no host name (a space, a slash inside): the
// ticket URL is on the custom domain, so either the domain is refused or the URL a client gets
// parses with exactly that host; a ticket that only glues the text into a URL is neither.
for (const [what, domain] of [
  ['a space', 'login acme.example'],
  ['a slash', 'login/acme.example'],
] as const) {
  conformance(
    `[§4.2 sso-ticket.custom-domain.host] with a tenant-custom-domain of ${what} inside (${JSON.stringify(domain)}), ticket creation refuses it, or the ticket URL parses with exactly that host`,
    { needs: [...needs, extended], requests: 2 },
    async ({ target }) => {
      const exchange = await ticketWithDomain(target, target.target.customDomainHeader, domain);
      const refusal = exchange.status >= 400 && exchange.status < 500 && exchange.status !== 429;
      const ticket = (exchange.json as { ticket?: unknown } | undefined)?.ticket;
      let host: string | undefined;
      try {
        host = typeof ticket === 'string' ? new URL(ticket).host : undefined;
      } catch {
        host = undefined;
      }
      expectClause({
        pass: refusal || (exchange.status >= 200 && exchange.status < 300 && host === domain.toLowerCase()),
        expected: `a refusal (a 4xx other than 429), or a ticket URL whose host is ${JSON.stringify(domain)}`,
        actual: `status ${exchange.status}, ticket ${shown(ticket)}${host === undefined ? ' (no URL that parses)' : `, host ${JSON.stringify(host)}`}`,
        exchange,
      });
    },
  );
}

// The real service reads the custom domain from a header of its own name, auth0-custom-domain
// (observed.yaml custom_domain_header), where the spec says tenant-custom-domain: a ticket asked
// for under that name is on the custom domain too. Observed level.
conformance(
  `[§4.2 sso-ticket.custom-domain.host] with the custom domain sent as ${observed.custom_domain_header.value} (the service's name of tenant-custom-domain), the ticket URL is on that domain`,
  { needs: [...needs, extended], requests: 1 },
  async ({ target }) => {
    const exchange = await target.call('sso-ticket', {
      params: { id: target.fixture('selfServiceProfile') },
      headers: { [observed.custom_domain_header.value]: CUSTOM_DOMAIN },
      body: {},
    });
    expectEqual(ticketHost(exchange), CUSTOM_DOMAIN.toLowerCase(), 'ticket host', { exchange });
  },
);
