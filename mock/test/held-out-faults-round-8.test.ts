// The eighth round of held-out faults (mock/faults/held-out/round-8/): kept apart from the gate's
// catalogue and from the first seven rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the fault's near miss to
// a conformant mock and to a faulted one, and the two answers differ as the row says (and, where
// the fault lets only the near value through, a plainly wrong value is still refused by both). A
// fault that changed nothing would count as a survivor of the suite for no reason; this rules that
// out.
import { domainToASCII } from 'node:url';
import { decodeProtectedHeader } from 'jose';
import { request } from 'undici';
import { heldOutRound8Faults } from '../faults/held-out/round-8/catalogue.ts';
import { claimsOf, signedAsIs as signed, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, type Answer } from './support/http.ts';
import {
  advance,
  CLOCKED_BUCKET,
  createTicket,
  DOMAIN_SUFFIX,
  domainOf,
  fieldsOf,
  formToken,
  globalToken,
  ids,
  JSON_TYPE,
  nowSeconds,
  probeKeyFile,
  redeliverWithScope,
  read,
  readAs,
  readVault,
  record,
  redeliver,
  redeliverPath,
  status,
  ticketHost,
  ticketOn,
  ticketPathOf,
  ticketStatus,
  ticketText,
  TINY_BUCKET,
  tokenAnswer,
  unknownLike,
  vaultPath,
  withHost,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-8');

/** A form token request of the global client with these parameters first (raw names, values encoded). */
const formWith = (first: string, rest: Record<string, string>) =>
  [first, ...Object.entries(rest).map(([name, value]) => `${name}=${encodeURIComponent(value)}`)].join('&');
/** A punycode host name of exactly `length` characters, shorter once shown in Unicode. */
function punycodeDomainOf(length: number): string {
  for (let n = 1; n < 255; n += 1) {
    const ascii = domainToASCII(`${'ü'.repeat(60)}.${'é'.repeat(60)}.${'ö'.repeat(60)}.${'a'.repeat(n)}${DOMAIN_SUFFIX}`);
    if (ascii.length === length) return ascii;
  }
  throw new Error(`no punycode host name of ${length} characters`);
}
const NEW_CONNECTION = 'new-conn';

const probes: Probe[] = [
  // Token verification
  {
    id: 'ho8-issuer-host-idna-mapped',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const dotted = (host: string) => host.replace(/\./g, '\u3002');
      return [
        await readVault(m, signed(m, { ...claims, iss: withHost(claims.iss!, dotted) })),
        await readVault(m, signed(m, { ...claims, iss: withHost(claims.iss!, (h) => dotted(h.replace(/\.com$/, '.org'))) })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho8-padded-segments-accepted',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readAs(m, `Bearer ${token}==`), await readAs(m, `Bearer ${withTamperedSignature(token)}==`)];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho8-bearer-prefix-stripped-repeatedly',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readAs(m, `Bearer Bearer ${token}`), await readAs(m, `Bearer Bearer ${withTamperedSignature(token)}`)];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho8-audience-pattern-dots-unescaped',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const aud = claims.aud as string;
      return [
        await readVault(m, signed(m, { ...claims, aud: withHost(aud, (h) => h.replace('.', '-')) })),
        await readVault(m, signed(m, { ...claims, aud: withHost(aud, (h) => h.replace(/\.com$/, '.org')) })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho8-loopback-issuer-signature-skipped',
    probe: async (m) => {
      const local = fieldsOf(await tokenAnswer(m, { audience: `${m.url}/api/v2/` })).access_token as string;
      return [
        await readVault(m, local),
        await readVault(m, withTamperedSignature(local)),
        await readVault(m, withTamperedSignature(await globalToken(m))),
      ];
    },
    conformant: [200, 401, 401],
    faulted: [200, 200, 401],
  },
  {
    id: 'ho8-kid-percent-decoded',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const { kid } = m.keys;
      const other = kid.startsWith('x') ? '%79' : '%78';
      return [
        await readVault(m, signed(m, claims, { kid: `%${kid.charCodeAt(0).toString(16)}${kid.slice(1)}` })),
        await readVault(m, signed(m, claims, { kid: `${other}${kid.slice(1)}` })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho8-sub-and-azp-checked-apart',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const other = client(m, 'without-redeliver-scope').client_id;
      return [
        await readVault(m, signed(m, { ...claims, sub: `${other}@clients` })),
        await readVault(m, signed(m, { ...claims, sub: 'nobody@clients' })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  // Ticket body
  {
    id: 'ho8-organizations-deduplicated-before-check',
    probe: async (m) => {
      const bad = { organization_id: 'org_a', show_as_button: 'yes' };
      return [
        await ticketStatus(m, { enabled_organizations: [bad, { organization_id: 'org_a', show_as_button: true }] }),
        await ticketStatus(m, { enabled_organizations: [bad] }),
      ];
    },
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho8-enabled-clients-skipped-when-isempty',
    probe: async (m) => [
      await ticketStatus(m, { enabled_clients: {} }),
      await ticketStatus(m, { enabled_clients: 5 }),
      await ticketStatus(m, { enabled_clients: 'abc' }),
      await ticketStatus(m, { enabled_clients: { a: 'b' } }),
    ],
    conformant: [400, 400, 400, 400],
    faulted: [201, 201, 400, 400],
  },
  {
    id: 'ho8-ttl-sec-integer-by-missing-dot',
    probe: async (m) => [await ticketText(m, '{"ttl_sec": 1e-7}'), await ticketStatus(m, { ttl_sec: 0.5 })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho8-ttl-sec-minus-one-sentinel',
    probe: async (m) => [await ticketStatus(m, { ttl_sec: -1 }), await ticketStatus(m, { ttl_sec: -2 })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho8-member-names-case-insensitive',
    probe: async (m) => [await ticketText(m, '{"TTL_SEC": 3600}'), await ticketText(m, '{"TTL_SECS": 1}')],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho8-organization-members-camel-aliased',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: [{ organizationId: 'org_a' }] }),
      await ticketStatus(m, { enabled_organizations: [{ organisationId: 'org_a' }] }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho8-icon-url-any-scheme',
    probe: async (m) => {
      const icon = (icon_url: string) => ticketStatus(m, { connection_config: { name: NEW_CONNECTION, options: { icon_url } } });
      return [await icon('http://cdn.example/icon.png'), await icon('icon'), await icon('https://cdn.example/icon.png')];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho8-connection-name-tested-by-regex-only',
    probe: async (m) => {
      const named = (name: unknown) => ticketStatus(m, { connection_config: { name } });
      return [await named(12345), await named({}), await named('bad name!'), await named(NEW_CONNECTION)];
    },
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  // Authorization
  {
    id: 'ho8-held-scope-as-prefix',
    probe: async (m) => [await redeliverWithScope(m, 'update:event'), await redeliverWithScope(m, 'update:event_streams')],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho8-global-rule-skipped-for-stream-admins',
    probe: async (m) => {
      const claims = await claimsOf(m, 'non-global');
      return [
        await redeliver(m, signed(m, { ...claims, scope: 'update:event_deliveries update:event_streams' })),
        await redeliver(m, signed(m, { ...claims, scope: 'update:event_deliveries' })),
      ];
    },
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho8-redeliver-with-body-checked-as-read',
    probe: async (m) => {
      const token = signed(m, { ...(await claimsOf(m)), scope: 'read:event_deliveries' });
      const { stream, failedEvent } = ids(m);
      return [status(await call(m, 'POST', redeliverPath(stream, failedEvent), { token, body: {} })), await redeliver(m, token)];
    },
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho8-ticket-scope-missed-in-middle',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const withScope = async (scope: string) => status(await createTicket(m, {}, signed(m, { ...claims, scope })));
      return [
        await withScope('read:users create:sso_access_tickets delete:users'),
        await withScope('create:sso_access_tickets delete:users'),
      ];
    },
    conformant: [201, 201],
    faulted: [403, 201],
  },
  // Requests
  {
    id: 'ho8-custom-domain-measured-as-unicode',
    probe: async (m) => [await ticketOn(m, punycodeDomainOf(256)), await ticketOn(m, domainOf(256))],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho8-stream-id-unescaped',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [
        await redeliver(m, token, `%u0065${stream.slice(1)}`, failedEvent),
        await redeliver(m, token, `%u0078${stream.slice(1)}`, failedEvent),
      ];
    },
    conformant: [400, 400],
    faulted: [202, 400],
  },
  {
    id: 'ho8-id-shape-in-route-pattern',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      const malformed = await call(m, 'POST', redeliverPath(`${stream.slice(0, -1)}0`, failedEvent), { token });
      return [malformed.status, fieldsOf(malformed).errorCode ?? 'none', await redeliver(m, token, unknownLike(stream))];
    },
    conformant: [400, 'invalid_uri', 404],
    faulted: [404, 'none', 404],
  },
  {
    id: 'ho8-custom-domain-underscore-alias',
    probe: async (m) => [
      await ticketHost(m, { tenant_custom_domain: 'login.partner.example' }),
      await ticketHost(m, { 'tenant.custom.domain': 'login.partner.example' }),
    ],
    conformant: ['tenant.example.com', 'tenant.example.com'],
    faulted: ['login.partner.example', 'tenant.example.com'],
  },
  {
    id: 'ho8-ticket-json-trailing-data-ignored',
    probe: async (m) => [
      await ticketText(m, '{"ttl_sec": 60} x'),
      await ticketText(m, '{"ttl_sec": 60}{}'),
      await ticketText(m, '{"ttl_sec": 60'),
      await ticketText(m, 'x {"ttl_sec": 60}'),
    ],
    conformant: [400, 400, 400, 400],
    faulted: [201, 201, 400, 400],
  },
  // Token endpoint
  {
    id: 'ho8-token-parameter-names-case-folded',
    probe: async (m) => {
      const rest = { ...client(m, 'global'), audience: m.audience };
      return [
        status(await formToken(m, formWith('GRANT_TYPE=client_credentials', rest))),
        status(await formToken(m, formWith('GRANT_TYPE=password', rest))),
      ];
    },
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho8-token-bracketed-parameter-names',
    probe: async (m) => {
      const { client_id, client_secret } = client(m, 'global');
      const rest = { grant_type: 'client_credentials', client_secret, audience: m.audience };
      const other = client(m, 'without-redeliver-scope').client_id;
      return [
        status(await formToken(m, formWith(`client_id[]=${client_id}`, rest))),
        status(await formToken(m, formWith(`client_id[]=${other}`, rest))) >= 400,
      ];
    },
    conformant: [400, true],
    faulted: [200, true],
  },
  {
    id: 'ho8-token-audience-split-as-list',
    probe: async (m) => [
      status(await tokenAnswer(m, { audience: `${m.audience} https://other.example/` })),
      status(await tokenAnswer(m, { audience: 'https://other.example/ https://another.example/' })),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho8-token-secret-compared-as-base64',
    probe: async (m) => {
      const { client_secret } = client(m, 'global');
      const changed = `${client_secret.slice(0, 10)}${client_secret[10] === 'x' ? 'y' : 'x'}${client_secret.slice(11)}`;
      return [
        status(await tokenAnswer(m, { client_secret: `${client_secret.slice(0, 10)}.${client_secret.slice(10)}` })),
        status(await tokenAnswer(m, { client_secret: changed })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho8-token-scopes-keyed-by-resource',
    probe: async (m) => {
      const answer = fieldsOf(await tokenAnswer(m, {}));
      return [(answer.scope as string).split(' ').includes('update:event_deliveries'), await redeliver(m, answer.access_token as string)];
    },
    conformant: [true, 202],
    faulted: [false, 403],
  },
  {
    id: 'ho8-token-answer-access-token-prefixed',
    probe: async (m) => {
      const token = fieldsOf(await tokenAnswer(m, {})).access_token as string;
      return [token.startsWith('eyJ'), await readAs(m, `Bearer ${token}`)];
    },
    conformant: [true, 200],
    faulted: [false, 401],
  },
  {
    id: 'ho8-token-signed-hs256-with-client-secret',
    probe: async (m) => {
      const token = fieldsOf(await tokenAnswer(m, {})).access_token as string;
      return [decodeProtectedHeader(token).alg, await readVault(m, token)];
    },
    conformant: ['RS256', 200],
    faulted: ['HS256', 401],
  },
  {
    id: 'ho8-jwks-keys-as-map',
    probe: async (m) => Array.isArray(fieldsOf(await call(m, 'GET', '/.well-known/jwks.json')).keys),
    conformant: true,
    faulted: false,
  },
  // Success answers
  {
    id: 'ho8-vault-updated-at-double-zone',
    probe: async (m) => {
      const { created_at, updated_at } = await record(m);
      return [created_at, updated_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553ZZ'],
  },
  {
    id: 'ho8-vault-created-at-two-digit-year',
    probe: async (m) => {
      const { created_at, updated_at } = await record(m);
      return [created_at, updated_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['24-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho8-vault-id-answered-as-composite-key',
    probe: async (m) => {
      const { id } = await record(m);
      return [id, (id as string).length];
    },
    conformant: ['ac_NbWaizZTo4vfWnCwDq76Vj', 25],
    faulted: ['SLACK:ac_NbWaizZTo4vfWnCwDq76Vj', 31],
  },
  {
    id: 'ho8-vault-name-keeps-csv-quotes',
    probe: async (m) => [((await record(m, ids(m).longVault)).name as string).length, (await record(m)).name],
    conformant: [150, 'Team notifications'],
    faulted: [152, 'Team notifications'],
  },
  {
    id: 'ho8-vault-fingerprint-colon-separated',
    probe: async (m) => (await record(m)).fingerprint,
    conformant: '6d8cd5d8165fd55597d6ab7e02a78bf3',
    faulted: '6d:8c:d5:d8:16:5f:d5:55:97:d6:ab:7e:02:a7:8b:f3',
  },
  {
    id: 'ho8-vault-refreshed-month-zero-based',
    probe: async (m) => {
      const { created_at, refreshed_at } = await record(m);
      return [refreshed_at, Date.parse(refreshed_at as string) >= Date.parse(created_at as string)];
    },
    conformant: ['2024-10-01T08:30:00.000Z', true],
    faulted: ['2024-09-01T08:30:00.000Z', false],
  },
  {
    id: 'ho8-ticket-query-joined-with-ampersand',
    probe: async (m) => {
      const url = new URL(fieldsOf(await createTicket(m, {})).ticket as string);
      return [url.host, url.searchParams.get('ticket')?.length ?? 'none'];
    },
    conformant: ['tenant.example.com', 32],
    faulted: ['tenant.example.com', 'none'],
  },
  {
    id: 'ho8-redeliver-answered-by-send-status',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const answer = await call(m, 'POST', redeliverPath(stream, failedEvent), { token: await globalToken(m) });
      return [answer.status, answer.headers['content-type'], answer.json];
    },
    conformant: [202, 'application/json; charset=utf-8', {}],
    faulted: [202, 'text/plain; charset=utf-8', 'Accepted'],
  },
  // State and errors
  {
    id: 'ho8-redeliveries-capped-per-event',
    probe: async (m) => {
      const token = await globalToken(m);
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push(await redeliver(m, token));
      return statuses;
    },
    conformant: [202, 202, 202, 202],
    faulted: [202, 202, 202, 429],
  },
  {
    id: 'ho8-state-check-skipped-with-force',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, deliveredEvent, pendingEvent } = ids(m);
      return [
        status(await call(m, 'POST', `${redeliverPath(stream, deliveredEvent)}?force=true`, { token })),
        await redeliver(m, token, stream, pendingEvent),
      ];
    },
    conformant: [409, 409],
    faulted: [202, 409],
  },
  {
    id: 'ho8-unrouted-404-as-framework-html',
    probe: async (m) => {
      const token = await globalToken(m);
      const jsonAnswer = (answer: Answer) => [answer.status, answer.headers['content-type']!.startsWith(JSON_TYPE)];
      return [
        jsonAnswer(await call(m, 'GET', `/api/v2/flows/vault/connection/${ids(m).vault}`, { token })),
        jsonAnswer(await read(m, token, unknownLike(ids(m).vault))),
      ];
    },
    conformant: [
      [404, true],
      [404, true],
    ],
    faulted: [
      [404, false],
      [404, true],
    ],
  },
  {
    id: 'ho8-body-error-status-code-from-validator',
    probe: async (m) => {
      const answer = await createTicket(m, { ttl_sec: 'x' });
      return [answer.status, fieldsOf(answer).statusCode, fieldsOf(answer).error];
    },
    conformant: [400, 400, 'Bad Request'],
    faulted: [400, 422, 'Unprocessable Entity'],
  },
  {
    id: 'ho8-ticket-reserves-connection-name',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: { name: NEW_CONNECTION } }),
      await ticketStatus(m, { connection_config: { name: NEW_CONNECTION } }),
      await ticketStatus(m, { connection_config: { name: 'another-conn' } }),
      await ticketStatus(m, { connection_config: { name: m.fixtures.data.connections![0]!.name } }),
    ],
    conformant: [201, 201, 201, 409],
    faulted: [201, 409, 201, 409],
  },
  {
    id: 'ho8-repeated-authorization-folded',
    probe: async (m) => {
      const authorization = `Bearer ${await globalToken(m)}`;
      const twice = await request(`${m.url}${vaultPath(ids(m).vault)}`, {
        method: 'GET',
        headers: ['authorization', authorization, 'authorization', authorization],
      });
      await twice.body.text();
      return [twice.statusCode, await readAs(m, authorization)];
    },
    conformant: [400, 200],
    faulted: [401, 200],
  },
  {
    id: 'ho8-ticket-authorization-validated-as-parameter',
    probe: async (m) => {
      const token = await globalToken(m);
      const ticketAs = async (authorization?: string) =>
        status(await call(m, 'POST', ticketPathOf(m), { body: {}, headers: authorization === undefined ? {} : { authorization } }));
      return [await ticketAs(), await ticketAs(`bearer ${token}`), await ticketAs('Bearer x')];
    },
    conformant: [401, 201, 401],
    faulted: [400, 400, 401],
  },
  // Rate limit
  {
    id: 'ho8-refill-measured-from-start',
    options: CLOCKED_BUCKET,
    probe: async (m) => {
      const burst = async () => {
        const statuses = [];
        for (let i = 0; i < 3; i += 1) statuses.push(status(await call(m, 'GET', vaultPath(ids(m).vault))));
        return statuses;
      };
      const first = await burst();
      advance(m, 3000);
      return [first, await burst()];
    },
    conformant: [
      [401, 401, 429],
      [401, 401, 429],
    ],
    faulted: [
      [401, 401, 429],
      [401, 401, 401],
    ],
  },
  {
    id: 'ho8-bucket-starts-empty',
    options: CLOCKED_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const first = await redeliver(m, token);
      advance(m, 1000);
      return [first, await redeliver(m, token)];
    },
    conformant: [202, 202],
    faulted: [429, 202],
  },
  {
    id: 'ho8-reset-in-local-time',
    options: TINY_BUCKET,
    probe: async (m) => {
      const answer = await call(m, 'GET', vaultPath(ids(m).vault));
      return [answer.status, Number(answer.headers['x-ratelimit-reset']) >= nowSeconds(m)];
    },
    conformant: [401, true],
    faulted: [401, false],
  },
];

heldOutRoundTests({
  name: 'the eighth held-out round',
  prefix: 'ho8-',
  faults: heldOutRound8Faults,
  least: { faults: 50, contract: 29 },
  probes,
  signingKey,
});
