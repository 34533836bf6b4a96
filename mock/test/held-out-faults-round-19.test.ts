// The nineteenth round of held-out faults (mock/faults/held-out/round-19/): kept apart from the
// gate's catalogue and from the first eighteen rounds, each row naming a clause of the registry at
// its own level, and each fault shown to do what its bug line says: a probe sends the fault's near
// miss to a conformant mock and to a faulted one, and the two answers differ as the row says (and,
// where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { heldOutRound19Faults } from '../faults/held-out/round-19/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client } from './support/http.ts';
import {
  CLOCKED_BUCKET,
  FORM,
  ORGANIZATION,
  TINY_BUCKET,
  advance,
  createTicket,
  domainOf,
  fieldsOf,
  globalToken,
  ids,
  messageOf,
  nowSeconds,
  probeKeyFile,
  read,
  readVault,
  record,
  redeliver,
  status,
  ticketOn,
  ticketStatus,
  tokenAnswer,
  tokenStatus,
  unknownLike,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-19');
const header = (answer: { headers: Record<string, string> }, name: string) => answer.headers[name];
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>, now: number) => Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) }, nowSeconds(m))));
const burst = async (m: MockServer, n: number) => {
  const token = await globalToken(m);
  const answers = [];
  for (let i = 0; i < n; i++) answers.push(await call(m, 'GET', vaultPath(ids(m).vault), { token }));
  return answers;
};
const redeliverPathOf = (stream: string, event: string) => `/api/v2/event-streams/${stream}/redeliver/${event}`;
const redeliverAt = async (m: MockServer, stream: string, event: string) =>
  status(await call(m, 'POST', redeliverPathOf(stream, event), { token: await globalToken(m) }));
const vaultAt = async (m: MockServer, id: string) => status(await read(m, await globalToken(m), id));
const ticketWith = async (m: MockServer, scope: string) => status(await createTicket(m, {}, await withScope(m, scope)));
const organization = (fields: Record<string, unknown>) => ({ enabled_organizations: [{ organization_id: ORGANIZATION, ...fields }] });
const idpInitiated = (idp: Record<string, unknown>) => ({ connection_config: { name: 'held-out-idp', options: { idpinitiated: idp } } });
const basicStatus = async (m: MockServer, credentials: string) => {
  const form = new URLSearchParams({ grant_type: 'client_credentials', audience: m.audience }).toString();
  const authorization = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
  return status(await call(m, 'POST', '/oauth/token', { body: form, headers: { 'content-type': FORM, authorization } }));
};
const withPath = (url: string, edit: (path: string) => string) => {
  const parsed = /^(https?:\/\/[^/]+)(\/.*)$/.exec(url)!;
  return `${parsed[1]}${edit(parsed[2]!)}`;
};

const probes: Probe[] = [
  {
    id: 'ho19-iss-default-port-dropped',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iss: String(c.iss).replace(/^(https:\/\/[^/]+)/, '$1:443') })),
      await redeliverWith(m, (c) => ({ ...c, iss: String(c.iss).replace(/^(https:\/\/[^/]+)/, '$1:8443') })),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho19-aud-scheme-ignored',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, aud: String(c.aud).replace(/^https:/, 'http:') })),
      await redeliverWith(m, (c) => ({ ...c, aud: 'http://other.example/api/v2/' })),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho19-iat-numeric-string-coerced',
    probe: async (m) => [
      await redeliverWith(m, (c, now) => ({ ...c, iat: String(now - 10) })),
      await redeliverWith(m, (c) => ({ ...c, iat: 'yesterday' })),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho19-kid-missing-single-key-fallback',
    probe: async (m) => [
      await redeliver(m, signedAsIs(m, await claimsOf(m), { kid: undefined })),
      await redeliver(m, signedAsIs(m, await claimsOf(m), { kid: 'no-such-key' })),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho19-enabled-organizations-null-items-skipped',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: [null, { organization_id: ORGANIZATION }] }),
      await ticketStatus(m, { enabled_organizations: [ORGANIZATION] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION }] }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho19-assign-membership-tinyint',
    probe: async (m) => [
      await ticketStatus(m, organization({ assign_membership_on_login: 1 })),
      await ticketStatus(m, organization({ assign_membership_on_login: 2 })),
      await ticketStatus(m, organization({ assign_membership_on_login: true })),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho19-sso-feature-parse-bool',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { sso: 'T' } }),
      await ticketStatus(m, { enabled_features: { sso: 'yes' } }),
      await ticketStatus(m, { enabled_features: { sso: true } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho19-domain-aliases-config-from-pairs',
    probe: async (m) => [
      await ticketStatus(m, { domain_aliases_config: [['domain_verification', 'none']] }),
      await ticketStatus(m, { domain_aliases_config: ['none'] }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'none' } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho19-provisioning-config-json-string',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: JSON.stringify({ scopes: ['get:users'] }) }),
      await ticketStatus(m, { provisioning_config: 'get:users' }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'] } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho19-provisioning-scopes-index-object',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: { '0': 'get:users' } } }),
      await ticketStatus(m, { provisioning_config: { scopes: { first: 'get:users' } } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho19-token-lifetime-fraction-truncated',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime: 1000.5 } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime: '1000' } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime: 1000 } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho19-ttl-sec-boolean-coerced',
    probe: async (m) => [await ticketStatus(m, { ttl_sec: true }), await ticketStatus(m, { ttl_sec: 'soon' })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho19-scope-hyphen-folded',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'update:event-deliveries')),
      await redeliver(m, await withScope(m, 'update:event-streams')),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho19-scope-quotes-stripped',
    probe: async (m) => [
      await redeliver(m, await withScope(m, '"update:event_deliveries"')),
      await redeliver(m, await withScope(m, '"update:event_streams"')),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho19-vault-scope-trailing-punctuation',
    probe: async (m) => [
      await readVault(m, await withScope(m, 'read:flows_vault_connections.')),
      await readVault(m, await withScope(m, 'read:flows_vault.')),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho19-ticket-scope-camel-case-folded',
    probe: async (m) => [await ticketWith(m, 'create:ssoAccessTickets'), await ticketWith(m, 'create:ssoTickets')],
    conformant: [403, 403],
    faulted: [201, 403],
  },
  {
    id: 'ho19-stream-id-crockford-folded',
    probe: async (m) => {
      const { otherStream, otherFailedEvent } = ids(m);
      return [
        await redeliverAt(m, otherStream.replace('1', 'l'), otherFailedEvent),
        await redeliverAt(m, otherStream.replace('1', 'w'), otherFailedEvent),
      ];
    },
    conformant: [400, 404],
    faulted: [202, 404],
  },
  {
    id: 'ho19-event-id-prefix-ignored',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [
        await redeliverAt(m, stream, `est_${failedEvent.slice(4)}`),
        await redeliverAt(m, stream, `est_${unknownLike(failedEvent).slice(4)}`),
      ];
    },
    conformant: [400, 400],
    faulted: [202, 404],
  },
  {
    id: 'ho19-vault-id-lstrip-prefix',
    probe: async (m) => [await vaultAt(m, `acc_${ids(m).vault.slice(3)}`), await vaultAt(m, `acx_${ids(m).vault.slice(3)}`)],
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho19-custom-domain-two-accepted',
    probe: async (m) => [await ticketOn(m, 'ab'), await ticketOn(m, 'a'), await ticketOn(m, 'abc')],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho19-basic-secret-cut-at-colon',
    probe: async (m) => {
      const { client_id, client_secret } = client(m, 'global');
      return [
        await basicStatus(m, `${client_id}:${client_secret}:x`),
        await basicStatus(m, `${client_id}:${client_secret}x`),
        await basicStatus(m, `${client_id}:${client_secret}`),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho19-grant-type-relaxed-binding',
    probe: async (m) => [
      await tokenStatus(m, { grant_type: 'client-credentials' }),
      await tokenStatus(m, { grant_type: 'client credentials' }),
    ],
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho19-audience-double-slash-collapsed',
    probe: async (m) => [
      await tokenStatus(m, { audience: withPath(m.audience, (p) => p.replace('/api/v2/', '/api//v2/')) }),
      await tokenStatus(m, { audience: withPath(m.audience, (p) => p.replace('/api/v2/', '/api/v2/v2/')) }),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho19-error-code-enum-name',
    probe: async (m) => {
      const answer = await tokenAnswer(m, { client_secret: 'wrong-secret' });
      return [answer.status, fieldsOf(answer).error];
    },
    conformant: [401, 'invalid_client'],
    faulted: [401, 'INVALID_CLIENT'],
  },
  {
    id: 'ho19-jwks-exponent-decimal',
    probe: async (m) => {
      const answer = await call(m, 'GET', '/.well-known/jwks.json');
      return (fieldsOf(answer).keys as Array<Record<string, unknown>>).map((key) => key.e);
    },
    conformant: ['AQAB'],
    faulted: ['65537'],
  },
  {
    id: 'ho19-pending-domain-256-accepted',
    probe: async (m) => {
      const pending = (length: number) => ({
        domain_aliases_config: { domain_verification: 'optional', pending_domains: [domainOf(length)] },
      });
      return [await ticketStatus(m, pending(256)), await ticketStatus(m, pending(257)), await ticketStatus(m, pending(255))];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho19-authorizequery-measured-in-bytes',
    probe: async (m) => [
      await ticketStatus(m, idpInitiated({ client_authorizequery: `${'x'.repeat(255)}\u00e9` })),
      await ticketStatus(m, idpInitiated({ client_authorizequery: 'x'.repeat(256) })),
      await ticketStatus(m, idpInitiated({ client_authorizequery: 'x'.repeat(257) })),
    ],
    conformant: [201, 201, 400],
    faulted: [400, 201, 400],
  },
  {
    id: 'ho19-token-lifetime-null-refused',
    probe: async (m) => {
      const lifetime = (token_lifetime: unknown) => ({ provisioning_config: { scopes: ['get:users'], token_lifetime } });
      return [await ticketStatus(m, lifetime(null)), await ticketStatus(m, lifetime(900)), await ticketStatus(m, lifetime(899))];
    },
    conformant: [201, 201, 400],
    faulted: [400, 201, 400],
  },
  {
    id: 'ho19-client-protocol-case-folded',
    probe: async (m) => [
      await ticketStatus(m, idpInitiated({ client_protocol: 'SAMLP' })),
      await ticketStatus(m, idpInitiated({ client_protocol: 'saml' })),
      await ticketStatus(m, idpInitiated({ client_protocol: 'samlp' })),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho19-vault-defaults-object-shared',
    probe: async (m) => {
      const full = await record(m, ids(m).vault);
      const minimal = await record(m, ids(m).minimalVault);
      return [full.environment, minimal.environment, minimal.account_name];
    },
    conformant: ['production', undefined, undefined],
    faulted: ['production', 'production', 'acme-workspace'],
  },
  {
    id: 'ho19-ticket-text-json',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      return [answer.status, header(answer, 'content-type')];
    },
    conformant: [201, 'application/json; charset=utf-8'],
    faulted: [201, 'text/json; charset=utf-8'],
  },
  {
    id: 'ho19-vault-created-at-decimal-comma',
    probe: async (m) => [(await record(m)).created_at],
    conformant: ['2024-09-12T12:52:16.553Z'],
    faulted: ['2024-09-12T12:52:16,553Z'],
  },
  {
    id: 'ho19-ticket-url-scheme-from-proxy',
    probe: async (m) => [new URL(fieldsOf(await createTicket(m, {})).ticket as string).protocol],
    conformant: ['https:'],
    faulted: ['http:'],
  },
  {
    id: 'ho19-event-found-in-any-stream',
    probe: async (m) => {
      const { stream, failedEvent, otherFailedEvent } = ids(m);
      return [await redeliverAt(m, stream, otherFailedEvent), await redeliverAt(m, stream, unknownLike(failedEvent))];
    },
    conformant: [404, 404],
    faulted: [202, 404],
  },
  {
    id: 'ho19-path-error-names-first-parameter',
    probe: async (m) => {
      const answer = await call(m, 'POST', redeliverPathOf(ids(m).stream, 'evt_short'), { token: await globalToken(m) });
      return [answer.status, messageOf(answer).includes('event_id')];
    },
    conformant: [400, true],
    faulted: [400, false],
  },
  {
    id: 'ho19-vault-404-message-translated',
    probe: async (m) => {
      const token = await globalToken(m);
      const path = vaultPath(unknownLike(ids(m).vault));
      const german = await call(m, 'GET', path, { token, headers: { 'accept-language': 'de-DE,de;q=0.9' } });
      const plain = await call(m, 'GET', path, { token });
      return [german.status, messageOf(german), messageOf(plain)];
    },
    conformant: [404, 'Connection not found', 'Connection not found'],
    faulted: [404, 'Verbindung nicht gefunden', 'Connection not found'],
  },
  {
    id: 'ho19-429-remaining-bucket4j-name',
    options: TINY_BUCKET,
    probe: async (m) => (await burst(m, 3)).map((a) => [a.status, header(a, 'x-ratelimit-remaining') !== undefined]),
    conformant: [
      [200, true],
      [200, true],
      [429, true],
    ],
    faulted: [
      [200, true],
      [200, true],
      [429, false],
    ],
  },
  {
    id: 'ho19-refill-uncapped-after-idle',
    options: CLOCKED_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      advance(m, 10_000);
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push((await call(m, 'GET', vaultPath(ids(m).vault), { token })).status);
      return answers;
    },
    conformant: [200, 200, 429, 429],
    faulted: [200, 200, 200, 200],
  },
  {
    id: 'ho19-reset-in-milliseconds',
    probe: async (m) => [String(header(await read(m, await globalToken(m)), 'x-ratelimit-reset')).length],
    conformant: [10],
    faulted: [13],
  },
  {
    id: 'ho19-limit-header-refill-rate',
    options: TINY_BUCKET,
    probe: async (m) => [header(await read(m, await globalToken(m)), 'x-ratelimit-limit')],
    conformant: ['2'],
    faulted: ['0.001'],
  },
];

heldOutRoundTests({
  name: 'the nineteenth held-out round',
  prefix: 'ho19-',
  faults: heldOutRound19Faults,
  least: { faults: 30, contract: 15 },
  probes,
  signingKey,
});
