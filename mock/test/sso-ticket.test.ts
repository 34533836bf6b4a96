// POST /api/v2/self-service-profiles/{id}/sso-ticket: the ticket URL, what the store keeps, and
// the errors (path, header, body, state), with the bounds read from specs/.
import { describe, expect, test } from 'vitest';
import { closedLimit, observed, schemaAt, validator } from '../../specs/index.ts';
import { ManualClock } from '../clock.ts';
import { call, tokenFor, tokenRequest } from './support/http.ts';
import { expectError, expectErrorStarting } from './support/expect.ts';
import { mockForTest, sharedMock } from './support/mock.ts';
import { fixtureIds as ids, ticketPath } from './support/paths.ts';

const mock = sharedMock();
const DOMAIN = closedLimit('sso-ticket.header.custom-domain.length');
const TTL = closedLimit('sso-ticket.body.ttl_sec.range');
const TTL_DEFAULT = schemaAt({ operation: 'sso-ticket', in: 'body', property: 'ttl_sec' })['x-default-when-omitted-or-zero'] as number;

async function create(options: { body?: unknown; headers?: Record<string, string>; profile?: string; client?: string } = {}) {
  return call(mock(), 'POST', ticketPath(options.profile ?? ids.profile), {
    token: await tokenFor(mock(), options.client ?? 'global'),
    ...(options.body !== undefined ? { body: options.body } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

function ticketUrl(answer: { json: unknown }): URL {
  return new URL((answer.json as { ticket: string }).ticket);
}

/** A host name of exactly `length` characters: labels of "a" joined by dots. */
function hostOfLength(length: number): string {
  const labels: string[] = [];
  let left = length;
  while (left > 0) {
    const label = Math.min(63, left === 64 ? 62 : left);
    labels.push('a'.repeat(label));
    left -= label + 1;
  }
  return labels.join('.');
}

describe('success', () => {
  test('an empty body object creates a ticket: 201 {"ticket": URL on the tenant domain}, nothing else', async () => {
    const answer = await create({ body: {} });
    expect([answer.status, answer.headers['content-type']]).toEqual([
      observed.operations['sso-ticket'].success.status,
      observed.content_type,
    ]);
    expect(validator('SsoTicket', 'observed')(answer.json)).toBe(true);
    const url = ticketUrl(answer);
    expect([url.host, url.pathname]).toEqual(['tenant.example.com', observed.ticket.path]);
    expect(url.searchParams.get(observed.ticket.query_parameter)).toMatch(new RegExp(`^[A-Za-z0-9]{${observed.ticket.code_length}}$`));
  });

  test("a token for the mock as reached at its origin gets tickets on that origin's host (a client behind a proxy, or using a host name)", async () => {
    const origin = mock().url;
    const issued = await call(mock(), 'POST', '/oauth/token', { body: tokenRequest(mock(), 'global', { audience: `${origin}/api/v2/` }) });
    const token = (issued.json as { access_token: string }).access_token;
    const answer = await call(mock(), 'POST', ticketPath(ids.profile), { token, body: {} });
    expect(ticketUrl(answer).host).toBe(new URL(origin).host);
  });

  test('no body at all counts as {}', async () => {
    expect((await create()).status).toBe(201);
  });

  test('tickets differ from one request to the next', async () => {
    const [a, b] = [await create({ body: {} }), await create({ body: {} })];
    expect(ticketUrl(a).href).not.toBe(ticketUrl(b).href);
  });

  test('with tenant-custom-domain the URL is on that domain', async () => {
    expect(ticketUrl(await create({ body: {}, headers: { 'tenant-custom-domain': 'login.acme.example' } })).host).toBe(
      'login.acme.example',
    );
  });

  test("the real service's header name, auth0-custom-domain, works too; the spec's name wins when both are sent", async () => {
    expect(ticketUrl(await create({ body: {}, headers: { 'auth0-custom-domain': 'sso.acme.example' } })).host).toBe('sso.acme.example');
    expect(
      ticketUrl(
        await create({ body: {}, headers: { 'auth0-custom-domain': 'sso.acme.example', 'tenant-custom-domain': 'login.acme.example' } }),
      ).host,
    ).toBe('login.acme.example');
  });

  test.for([DOMAIN.min, DOMAIN.max])('a custom domain of %i characters is accepted', async (length) => {
    const domain = hostOfLength(length);
    expect(domain).toHaveLength(length);
    const answer = await create({ body: {}, headers: { 'tenant-custom-domain': domain } });
    expect(answer.status).toBe(201);
    expect((answer.json as { ticket: string }).ticket.startsWith(`https://${domain}/`)).toBe(true);
  });

  test('a full, well-formed body is accepted', async () => {
    const answer = await create({
      body: {
        connection_config: { name: 'new-partner-sso' },
        enabled_clients: ['2nmc0Qf7UqGHv2NqccuxrVdKWEB2yK9H'],
        enabled_organizations: [{ organization_id: 'org_ABCDEFGH12345678', assign_membership_on_login: true, show_as_button: false }],
        ttl_sec: TTL.max,
        domain_aliases_config: { domain_verification: 'optional', pending_domains: ['acme.example'] },
        provisioning_config: { scopes: ['get:users', 'post:groups'], token_lifetime: 900 },
        use_for_organization_discovery: true,
      },
    });
    expect(answer.status).toBe(201);
  });
});

describe('what the store keeps', () => {
  test.for([
    ['omitted', {}],
    ['zero', { ttl_sec: 0 }],
  ] as const)('ttl_sec %s is stored as the default', async ([, body]) => {
    const clock = new ManualClock(Date.UTC(2025, 0, 1));
    const own = await mockForTest({ clock });
    const answer = await call(own, 'POST', ticketPath(ids.profile), { token: await tokenFor(own, 'global'), body });
    const code = ticketUrl(answer).searchParams.get(observed.ticket.query_parameter)!;
    expect(own.store.ticket(code)).toMatchObject({
      profileId: ids.profile,
      ttlSec: TTL_DEFAULT,
      expiresAt: clock.now() + TTL_DEFAULT * 1000,
    });
  });

  test('a given ttl_sec and the custom domain are stored', async () => {
    const own = await mockForTest();
    const answer = await call(own, 'POST', ticketPath(ids.profile), {
      token: await tokenFor(own, 'global'),
      body: { ttl_sec: 60 },
      headers: { 'tenant-custom-domain': 'Login.Acme.example' },
    });
    const code = ticketUrl(answer).searchParams.get(observed.ticket.query_parameter)!;
    expect(own.store.ticket(code)).toMatchObject({ ttlSec: 60, host: 'login.acme.example' });
  });
});

describe('errors', () => {
  test('an unknown profile is 404 "Profile with ID: <id> not found"', async () => {
    expectError(await create({ body: {}, profile: 'ssp_9KgfU2kfX7fonvodDzoqxE' }), 'profile_not_found', 'ssp_9KgfU2kfX7fonvodDzoqxE');
  });

  test('a malformed profile id is 400 invalid_uri naming id', async () => {
    expect(expectErrorStarting(await create({ body: {}, profile: 'profile-1' }), 'invalid_uri')).toMatch(/on property id$/);
  });

  test('connection_config naming an existing connection is 409', async () => {
    expectError(await create({ body: { connection_config: { name: ids.connectionName } } }), 'connection_name_taken');
  });

  test.for([TTL.min - 1, TTL.max + 1, 1.5, '60', null].map((ttl) => [JSON.stringify(ttl), ttl] as const))(
    'ttl_sec %s is 400 invalid_body naming ttl_sec',
    async ([, ttl]) => {
      expect(expectErrorStarting(await create({ body: { ttl_sec: ttl } }), 'invalid_body')).toMatch(/on property ttl_sec$/);
    },
  );

  test('ttl_sec above the maximum gets the observed wording', async () => {
    expectError(
      await create({ body: { ttl_sec: TTL.max + 1 } }),
      'invalid_body',
      `'Value ${TTL.max + 1} is greater than maximum ${TTL.max}' on property ttl_sec`,
    );
  });

  test.for([
    ['an unknown property', { colour: 'blue' }],
    ['a nested unknown property', { enabled_features: { sso: true, extra: 1 } }],
    ['a connection_config without name', { connection_config: {} }],
    ['a malformed connection name', { connection_config: { name: '-bad-' } }],
    ['an organization without organization_id', { enabled_organizations: [{ show_as_button: true }] }],
    ['an organization_id over 50 characters', { enabled_organizations: [{ organization_id: 'o'.repeat(51) }] }],
    ['an empty provisioning scopes array', { provisioning_config: { scopes: [] } }],
    ['an unknown provisioning scope', { provisioning_config: { scopes: ['get:roles'] } }],
    ['a token_lifetime under 900', { provisioning_config: { token_lifetime: 899 } }],
    ['a domain_aliases_config without domain_verification', { domain_aliases_config: {} }],
    ['an unknown domain_verification', { domain_aliases_config: { domain_verification: 'maybe' } }],
    ['an enabled_clients item that is not a string', { enabled_clients: [1] }],
    ['a body that is an array', []],
    ['a body that is a string', 'text'],
  ])('%s is 400 invalid_body', async ([, body]) => {
    expectErrorStarting(
      await create({ body: typeof body === 'string' ? JSON.stringify(body) : body, headers: { 'content-type': 'application/json' } }),
      'invalid_body',
    );
  });

  test('malformed JSON is 400 with the observed message', async () => {
    expectError(await create({ body: '{"ttl_sec": ', headers: { 'content-type': 'application/json' } }), 'malformed_json');
  });

  test('a body of another content type is 415', async () => {
    expectError(await create({ body: 'ttl_sec=5', headers: { 'content-type': 'text/plain' } }), 'unsupported_media_type');
  });

  test.for([
    ['shorter than the minimum', 'a'.repeat(DOMAIN.min - 1)],
    ['longer than the maximum', hostOfLength(DOMAIN.max + 1)],
    ['not a host name', 'acme.example/path'],
  ])('a custom domain %s is 400 invalid_headers', async ([, domain]) => {
    expect(expectErrorStarting(await create({ body: {}, headers: { 'tenant-custom-domain': domain! } }), 'invalid_headers')).toMatch(
      /on header tenant-custom-domain$/,
    );
  });

  test('a bad auth0-custom-domain is 400 invalid_headers naming that header', async () => {
    expect(expectErrorStarting(await create({ body: {}, headers: { 'auth0-custom-domain': 'x' } }), 'invalid_headers')).toMatch(
      /on header auth0-custom-domain$/,
    );
  });

  test('a token without create:sso_access_tickets is 403 naming it', async () => {
    expectError(await create({ body: {}, client: 'without-sso-ticket-scope' }), 'insufficient_scope', 'create:sso_access_tickets');
  });

  test('a body over the size limit is 413', async () => {
    const small = await mockForTest({ maxBodyBytes: 512 });
    const answer = await call(small, 'POST', ticketPath(ids.profile), {
      token: await tokenFor(small, 'global'),
      body: { enabled_clients: Array.from({ length: 20 }, () => 'c'.repeat(32)) },
    });
    expectError(answer, 'payload_too_large', '512');
  });
});
