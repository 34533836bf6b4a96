// The thirteenth round of held-out faults (mock/faults/held-out/round-13/): kept apart from the
// gate's catalogue and from the first twelve rounds, each row naming a clause of the registry at
// its own level, and each fault shown to do what its bug line says: a probe sends the fault's near
// miss to a conformant mock and to a faulted one, and the two answers differ as the row says (and,
// where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { KeyObject, constants, sign } from 'node:crypto';
import { heldOutRound13Faults } from '../faults/held-out/round-13/catalogue.ts';
import { ManualClock, type MockServer } from '../index.ts';
import { claimsOf, signedAsIs as signed, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenRequest } from './support/http.ts';
import {
  MANUAL_CLOCK,
  ORGANIZATION,
  advance,
  anonymousRead,
  bucketOf,
  createTicket,
  fieldsOf,
  fixtureClientId,
  formToken,
  globalToken,
  ids,
  messageOf,
  nowSeconds,
  probeKeyFile,
  read,
  readAs,
  readVault,
  record,
  redeliver,
  redeliverAnswer,
  status,
  ticketPathOf,
  ticketStatus,
  ticketText,
  tokenAnswer,
  tokenStatus,
  vaultPath,
  withHost,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-13');

/** A token of the global client's claims with these changed, signed with the mock's key. */
const signedWith = async (mock: MockServer, changes: Record<string, unknown>) => signed(mock, { ...(await claimsOf(mock)), ...changes });
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** The global client's claims under an RS256 header, signed with RSA-PSS (SHA-256) by `key`. */
const pssSigned = async (mock: MockServer, key = mock.keys.privateKey) => {
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: mock.keys.kid })}.${b64(await claimsOf(mock))}`;
  const signature = sign('sha256', Buffer.from(input), {
    key: KeyObject.from(key),
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: 32,
  });
  return `${input}.${signature.toString('base64url')}`;
};
const ticketWith = async (mock: MockServer, body: unknown, token: string) => status(await createTicket(mock, body, token));
const withConnection = (mock: MockServer, config: Record<string, unknown>) =>
  ticketStatus(mock, { connection_config: { name: 'new-conn', ...config } });
const readWith = async (mock: MockServer, token: string, headers: Record<string, string>) =>
  call(mock, 'GET', vaultPath(ids(mock).vault), { token, headers });
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const vaultIdOf = (length: number) => `ac_${BASE58.repeat(2).slice(0, length - 3)}`;
const UUID = '3f2b8c1e-9a4d-4e6f-b7c2-1d5e8a9f0b34';
const metadataOf = (keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, 'x']));
const tenKeys = Array.from({ length: 10 }, (_, i) => `key${i}`);
const formOf = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
const hostOfUrl = (url: unknown) => new URL(String(url)).host;

const probes: Probe[] = [
  // Token verification
  {
    id: 'ho13-skew-setting-read-in-minutes',
    probe: async (m) => {
      const now = nowSeconds(m);
      return [
        await readVault(m, await signedWith(m, { iat: now - 7200, exp: now - 1200 })),
        await readVault(m, await signedWith(m, { iat: now - 7200, exp: now - 2400 })),
        await readVault(m, await globalToken(m)),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho13-pss-padding-retried',
    probe: async (m) => {
      const pss = await pssSigned(m);
      return [await readVault(m, pss), await readVault(m, withTamperedSignature(pss)), await readVault(m, await globalToken(m))];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho13-credential-whitespace-removed',
    probe: async (m) => {
      const [header, payload, signature] = (await globalToken(m)).split('.') as [string, string, string];
      const spaced = `${header}.${payload.slice(0, 10)} ${payload.slice(10)}.${signature}`;
      const changed = `${header}.${payload.slice(0, 10)} ${payload[10] === 'A' ? 'B' : 'A'}${payload.slice(11)}.${signature}`;
      return [
        await readAs(m, `Bearer ${spaced}`),
        await readAs(m, `Bearer ${changed}`),
        await readAs(m, `Bearer ${header}.${payload}.${signature}`),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho13-subject-nfkc-compared',
    probe: async (m) => {
      const { azp } = await claimsOf(m);
      return [
        await readVault(m, await signedWith(m, { sub: `${String(azp)}\uFF20clients` })),
        await readVault(m, await signedWith(m, { sub: `${String(azp)}@client` })),
        await readVault(m, await globalToken(m)),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho13-missing-alg-defaulted',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signed(m, claims, { alg: undefined })),
        await readVault(m, signed(m, claims, { alg: 'HS256' })),
        await readVault(m, signed(m, claims)),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  // Ticket body
  {
    id: 'ho13-ttl-sec-absolute-value',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: -3600 }),
      await ticketStatus(m, { ttl_sec: -500000 }),
      await ticketStatus(m, { ttl_sec: 3600 }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho13-enabled-clients-compacted',
    probe: async (m) => {
      const id = fixtureClientId(m, 'global');
      return [
        await ticketStatus(m, { enabled_clients: [id, null] }),
        await ticketStatus(m, { enabled_clients: [id, false] }),
        await ticketStatus(m, { enabled_clients: [id, 5] }),
        await ticketStatus(m, { enabled_clients: [id] }),
      ];
    },
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho13-body-list-of-one-unwrapped',
    probe: async (m) => [
      await ticketText(m, '[{"ttl_sec":3600}]'),
      await ticketText(m, '[{}]'),
      await ticketText(m, '[]'),
      await ticketText(m, '[{},{}]'),
      await ticketText(m, '{"ttl_sec":3600}'),
    ],
    conformant: [400, 400, 400, 400, 201],
    faulted: [201, 201, 400, 400, 201],
  },
  {
    id: 'ho13-feature-flags-enabled-words',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { sso: 'enabled' } }),
      await ticketStatus(m, { enabled_features: { provisioning: 'disabled' } }),
      await ticketStatus(m, { enabled_features: { sso: 'on' } }),
      await ticketStatus(m, { enabled_features: { sso: true } }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho13-token-lifetime-bitwise-truncated',
    probe: async (m) => {
      const lifetime = (token_lifetime: unknown) => ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime } });
      return [await lifetime(900.5), await lifetime(3600.25), await lifetime('900'), await lifetime(900)];
    },
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho13-enabled-features-csv-string',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: 'sso,provisioning' }),
      await ticketStatus(m, { enabled_features: 'everything' }),
      await ticketStatus(m, { enabled_features: { sso: true, provisioning: true } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho13-organization-id-trimmed',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ` ${ORGANIZATION}` }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: `${ORGANIZATION} ` }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION.replace('_', '-') }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION }] }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho13-provisioning-scopes-wildcard-expanded',
    probe: async (m) => {
      const scopes = (value: unknown) => ticketStatus(m, { provisioning_config: { scopes: value } });
      return [await scopes(['get:*']), await scopes(['get:everything']), await scopes(['get:users', 'get:groups'])];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho13-google-workspace-either-flag',
    probe: async (m) => {
      const workspace = (value: unknown) => ticketStatus(m, { provisioning_config: { scopes: ['get:users'], google_workspace: value } });
      return [await workspace({ sync_groups: true }), await workspace({}), await workspace({ sync_users: true, sync_groups: true })];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho13-metadata-keys-counted-case-folded',
    probe: async (m) => [
      await withConnection(m, { metadata: metadataOf([...tenKeys, 'KEY0']) }),
      await withConnection(m, { metadata: metadataOf([...tenKeys, 'key10']) }),
      await withConnection(m, { metadata: metadataOf(tenKeys) }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho13-metadata-value-whitespace-collapsed',
    probe: async (m) => [
      await withConnection(m, { metadata: { note: `${'a'.repeat(127)}  ${'a'.repeat(127)}` } }),
      await withConnection(m, { metadata: { note: 'a'.repeat(256) } }),
      await withConnection(m, { metadata: { note: 'a'.repeat(255) } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho13-idp-client-id-hyphens-removed',
    probe: async (m) => {
      const idp = (client_id: string) => withConnection(m, { options: { idpinitiated: { enabled: true, client_id } } });
      return [await idp(UUID), await idp(UUID.slice(1)), await idp(fixtureClientId(m, 'global'))];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho13-connection-name-slugified',
    probe: async (m) => {
      const named = (name: string) => ticketStatus(m, { connection_config: { name } });
      return [await named('new_conn'), await named('new conn'), await named('new.conn'), await named('new-conn')];
    },
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  // Authorization
  {
    id: 'ho13-scope-claim-percent-decoded',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'read:event_streams%20update:event_deliveries')),
      await redeliver(m, await withScope(m, 'read:event_streams%20read:event_deliveries')),
      await redeliver(m, await withScope(m, 'read:event_streams update:event_deliveries')),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho13-scope-resource-singularised',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'update:event_delivery')),
      await redeliver(m, await withScope(m, 'update:event')),
      await redeliver(m, await withScope(m, 'update:event_deliveries')),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho13-ticket-scope-verb-alias',
    probe: async (m) => [
      await ticketWith(m, {}, await withScope(m, 'post:sso_access_tickets')),
      await ticketWith(m, {}, await withScope(m, 'put:sso_access_tickets')),
      await ticketWith(m, {}, await withScope(m, 'create:sso_access_tickets')),
    ],
    conformant: [403, 403, 201],
    faulted: [201, 403, 201],
  },
  {
    id: 'ho13-vault-conditional-before-scope',
    probe: async (m) => {
      const { fingerprint } = await record(m);
      const unscoped = await withScope(m, 'update:event_deliveries');
      return [
        status(await readWith(m, unscoped, { 'if-none-match': `"${String(fingerprint)}"` })),
        status(await readWith(m, unscoped, { 'if-none-match': '"0123456789abcdef0123456789abcdef"' })),
        status(await readWith(m, unscoped, {})),
      ];
    },
    conformant: [403, 403, 403],
    faulted: [304, 403, 403],
  },
  // Requests
  {
    id: 'ho13-vault-id-quantifier-off-by-one',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readVault(m, token, vaultIdOf(31)), await readVault(m, token, vaultIdOf(32)), await readVault(m, token, vaultIdOf(30))];
    },
    conformant: [400, 400, 404],
    faulted: [404, 400, 404],
  },
  {
    id: 'ho13-method-from-query',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        status(await call(m, 'GET', `${ticketPathOf(m)}?_method=POST`, { token })),
        status(await call(m, 'GET', ticketPathOf(m), { token })),
      ];
    },
    conformant: [405, 405],
    faulted: [201, 405],
  },
  // Token endpoint
  {
    id: 'ho13-token-form-decoded-twice',
    probe: async (m) => {
      const { client_id, client_secret } = client(m, 'global');
      const escaped = `%25${client_secret.charCodeAt(0).toString(16)}${client_secret.slice(1)}`;
      const changed = `${client_secret[0] === 'x' ? 'y' : 'x'}${client_secret.slice(1)}`;
      const form = (secret: string) =>
        formOf({ grant_type: 'client_credentials', client_id, client_secret: secret, audience: encodeURIComponent(m.audience) });
      return [
        status(await formToken(m, form(escaped))),
        status(await formToken(m, form(changed))),
        status(await formToken(m, form(client_secret))),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho13-audience-www-folded',
    probe: async (m) => [
      await tokenStatus(m, { audience: withHost(m.audience, (host) => `www.${host}`) }),
      await tokenStatus(m, { audience: withHost(m.audience, (host) => `wwwx.${host}`) }),
      await tokenStatus(m, {}),
    ],
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho13-token-client-from-bearer',
    probe: async (m) => {
      const bearer = await globalToken(m);
      const body = tokenRequest(m, 'global', { client_id: undefined });
      return [
        status(await call(m, 'POST', '/oauth/token', { body, headers: { authorization: `Bearer ${bearer}` } })),
        status(await call(m, 'POST', '/oauth/token', { body })),
      ];
    },
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho13-jwks-modulus-standard-base64',
    probe: async (m) => {
      const { keys } = fieldsOf(await call(m, 'GET', '/.well-known/jwks.json')) as { keys: { n: string; kid: string }[] };
      return keys.map((key) => [/^[A-Za-z0-9_-]+$/.test(key.n), key.kid === m.keys.kid]);
    },
    conformant: [[true, true]],
    faulted: [[false, true]],
  },
  {
    id: 'ho13-discovery-urls-from-forwarded-host',
    probe: async (m) => {
      const onIssuerHost = async (headers: Record<string, string>) => {
        const document = fieldsOf(await call(m, 'GET', '/.well-known/openid-configuration', { headers }));
        const host = hostOfUrl(document.issuer);
        return [hostOfUrl(document.token_endpoint) === host, hostOfUrl(document.jwks_uri) === host];
      };
      return [await onIssuerHost({ 'x-forwarded-host': 'attacker.example' }), await onIssuerHost({})];
    },
    conformant: [
      [true, true],
      [true, true],
    ],
    faulted: [
      [false, false],
      [true, true],
    ],
  },
  {
    id: 'ho13-token-reused-from-cache',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      const first = fieldsOf(await tokenAnswer(m, {}));
      advance(m, 3_600_000);
      const second = fieldsOf(await tokenAnswer(m, {}));
      return [first.expires_in, second.expires_in, first.access_token === second.access_token];
    },
    conformant: [86400, 86400, false],
    faulted: [86400, 82800, true],
  },
  // Success answers
  {
    id: 'ho13-vault-environment-from-config',
    probe: async (m) => [
      (await record(m, ids(m).longVault)).environment ?? null,
      (await record(m, ids(m).bareVault)).environment ?? null,
      (await record(m)).environment ?? null,
    ],
    conformant: ['eu-central-production-environment-with-a-long-label-xyz', null, 'production'],
    faulted: ['production', 'production', 'production'],
  },
  {
    id: 'ho13-vault-app-id-display-name',
    probe: async (m) => [(await record(m)).app_id, (await record(m, ids(m).longVault)).app_id],
    conformant: ['SLACK', 'STRIPE_CONNECTED_ACCOUNT_WITH_A_VERY_LONG_PROVIDER_NAME'],
    faulted: ['Slack', 'STRIPE_CONNECTED_ACCOUNT_WITH_A_VERY_LONG_PROVIDER_NAME'],
  },
  {
    id: 'ho13-vault-refreshed-at-http-date',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.refreshed_at, fields.created_at];
    },
    conformant: ['2024-10-01T08:30:00.000Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['Tue, 01 Oct 2024 08:30:00 GMT', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho13-vault-timestamps-swapped',
    probe: async (m) => {
      const long = await record(m, ids(m).longVault);
      const first = await record(m);
      return [long.created_at, long.updated_at, first.created_at === first.updated_at];
    },
    conformant: ['2023-01-31T23:59:59.999Z', '2024-02-29T00:00:00.000Z', true],
    faulted: ['2024-02-29T00:00:00.000Z', '2023-01-31T23:59:59.999Z', true],
  },
  {
    id: 'ho13-vault-timestamps-rfc3339nano',
    probe: async (m) => {
      const first = await record(m);
      const bare = await record(m, ids(m).bareVault);
      return [first.refreshed_at, bare.created_at, first.created_at];
    },
    conformant: ['2024-10-01T08:30:00.000Z', '2024-08-02T09:15:42.120Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['2024-10-01T08:30:00Z', '2024-08-02T09:15:42.12Z', '2024-09-12T12:52:16.553Z'],
  },
  // State and errors
  {
    id: 'ho13-queued-redeliveries-keyed-by-event',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, otherStream, failedEvent, deliveredEvent } = ids(m);
      return [
        await redeliver(m, token, otherStream, failedEvent),
        await redeliver(m, token, stream, failedEvent),
        await redeliver(m, token, otherStream, failedEvent),
        await redeliver(m, token, otherStream, deliveredEvent),
      ];
    },
    conformant: [404, 202, 404, 404],
    faulted: [404, 202, 202, 404],
  },
  {
    id: 'ho13-concurrent-redelivery-refused',
    probe: async (m) => {
      const token = await globalToken(m);
      const together = await Promise.all([redeliver(m, token), redeliver(m, token)]);
      return [[...together].sort(), [await redeliver(m, token), await redeliver(m, token)]];
    },
    conformant: [
      [202, 202],
      [202, 202],
    ],
    faulted: [
      [202, 409],
      [202, 202],
    ],
  },
  {
    id: 'ho13-403-names-every-scope',
    probe: async (m) => {
      const answer = await redeliverAnswer(m, await withScope(m, 'read:event_streams'));
      return [status(answer), messageOf(answer), fieldsOf(answer).errorCode];
    },
    conformant: [403, 'Insufficient scope, expected any of: update:event_deliveries', 'insufficient_scope'],
    faulted: [
      403,
      'Insufficient scope, expected any of: update:event_deliveries,create:sso_access_tickets,read:flows_vault_connections',
      'insufficient_scope',
    ],
  },
  {
    id: 'ho13-expired-message-from-library',
    probe: async (m) => {
      const now = nowSeconds(m);
      const expired = await read(m, await signedWith(m, { iat: now - 7200, exp: now - 3600 }));
      const anonymous = await anonymousRead(m);
      return [status(expired), messageOf(expired), status(anonymous), messageOf(anonymous)];
    },
    conformant: [401, 'Expired token received for JSON Web Token validation', 401, 'Missing authentication'],
    faulted: [401, 'jwt expired', 401, 'Missing authentication'],
  },
  {
    id: 'ho13-path-error-parameter-camel-cased',
    probe: async (m) => {
      const token = await globalToken(m);
      const event = await redeliverAnswer(m, token, ids(m).stream, ids(m).failedEvent.slice(0, -1));
      const vault = await read(m, token, ids(m).vault.slice(0, 2));
      return [status(event), messageOf(event).split(' on property ')[1], status(vault), messageOf(vault).split(' on property ')[1]];
    },
    conformant: [400, 'event_id', 400, 'id'],
    faulted: [400, 'eventId', 400, 'id'],
  },
  // Rate limit
  {
    id: 'ho13-bucket-read-then-written',
    options: bucketOf(2),
    probe: async (m) => {
      const token = await globalToken(m);
      const burst = await Promise.all([0, 1, 2, 3].map(() => redeliver(m, token)));
      const after = [await redeliver(m, token), await redeliver(m, token), await redeliver(m, token)];
      return [[...burst].sort(), after];
    },
    conformant: [
      [202, 202, 429, 429],
      [429, 429, 429],
    ],
    faulted: [
      [202, 202, 202, 202],
      [202, 429, 429],
    ],
  },
  {
    id: 'ho13-bucket-keyed-by-forwarded-for',
    options: bucketOf(2),
    probe: async (m) => {
      const from = async (address?: string) =>
        status(await call(m, 'GET', vaultPath(ids(m).vault), address ? { headers: { 'x-forwarded-for': address } } : {}));
      const spread = [await from('203.0.113.1'), await from('203.0.113.2'), await from('203.0.113.3'), await from('203.0.113.4')];
      const one = [await from('198.51.100.7'), await from('198.51.100.7'), await from('198.51.100.7')];
      const none = [await from(), await from(), await from()];
      return [spread, one, none];
    },
    conformant: [
      [401, 401, 429, 429],
      [429, 429, 429],
      [429, 429, 429],
    ],
    faulted: [
      [401, 401, 401, 401],
      [401, 401, 429],
      [401, 401, 429],
    ],
  },
  {
    id: 'ho13-limit-from-default-plan',
    options: bucketOf(10),
    probe: async (m) => {
      const answer = await anonymousRead(m);
      return [answer.headers['x-ratelimit-limit'], answer.headers['x-ratelimit-remaining']];
    },
    conformant: ['10', '9'],
    faulted: ['50', '9'],
  },
  {
    id: 'ho13-reset-on-ten-second-grid',
    options: () => ({ clock: new ManualClock(Date.UTC(2025, 0, 1, 0, 0, 5, 500)), rateLimit: { bucketSize: 10, refillPerSecond: 2 } }),
    probe: async (m) => {
      const answer = await anonymousRead(m);
      return [Number(answer.headers['x-ratelimit-reset']) >= nowSeconds(m), answer.headers['x-ratelimit-remaining']];
    },
    conformant: [true, '9'],
    faulted: [false, '9'],
  },
  {
    id: 'ho13-remaining-unsigned-counter',
    options: bucketOf(1),
    probe: async (m) => {
      const first = await anonymousRead(m);
      const second = await anonymousRead(m);
      return [status(first), first.headers['x-ratelimit-remaining'], status(second), second.headers['x-ratelimit-remaining']];
    },
    conformant: [401, '0', 429, '0'],
    faulted: [401, '0', 429, '4294967295'],
  },
];

heldOutRoundTests({
  name: 'the thirteenth held-out round',
  prefix: 'ho13-',
  faults: heldOutRound13Faults,
  least: { faults: 45, contract: 22 },
  probes,
  signingKey,
});
