// The twelfth round of held-out faults (mock/faults/held-out/round-12/): kept apart from the
// gate's catalogue and from the first eleven rounds, each row naming a clause of the registry at
// its own level, and each fault shown to do what its bug line says: a probe sends the fault's near
// miss to a conformant mock and to a faulted one, and the two answers differ as the row says (and,
// where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { afterAll } from 'vitest';
import { heldOutRound12Faults } from '../faults/held-out/round-12/catalogue.ts';
import { ManualClock, type MockServer } from '../index.ts';
import { claimsOf, signedAsIs as signed, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor, tokenRequest, type Answer } from './support/http.ts';

const keyDir = mkdtempSync(join(tmpdir(), 'held-out-faults-round-12-'));
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));
/** One signing key file for every mock of this file: a key pair is made once, not a hundred times. */
const signingKey = join(keyDir, 'signing-key.pem');

/** The default fixtures' ids, as the probes use them. */
function ids(mock: MockServer) {
  const [stream, otherStream] = mock.fixtures.data.event_streams!;
  const event = (status: string) => stream!.events.find((e) => e.status === status)!.id;
  const vault = mock.fixtures.data.vault_connections!;
  return {
    stream: stream!.id,
    failedEvent: event('failed'),
    deliveredEvent: event('delivered'),
    otherStream: otherStream!.id,
    otherFailedEvent: otherStream!.events.find((e) => e.status === 'failed')!.id,
    profile: mock.fixtures.data.self_service_profiles![0]!.id,
    /** The connection with every optional field. */
    vault: vault[0]!.id,
    /** The connection with no optional field. */
    bareVault: vault[1]!.id,
    /** The connection with every string at its maximum length. */
    longVault: vault[2]!.id,
  };
}

const FORM = 'application/x-www-form-urlencoded';
const ORGANIZATION = 'org_W2ZLgbPCnRCoBXGF';

const redeliverPath = (stream: string, event: string) => `/api/v2/event-streams/${stream}/redeliver/${event}`;
const ticketPath = (profile: string) => `/api/v2/self-service-profiles/${profile}/sso-ticket`;
const vaultPath = (id: string) => `/api/v2/flows/vault/connections/${id}`;
/** The same id with its last character changed: well formed, naming nothing. */
const unknownLike = (id: string) => `${id.slice(0, -1)}${id.endsWith('w') ? 'x' : 'w'}`;
/** The id with the character at `at` replaced by `by`. */
const replacedAt = (id: string, at: number, by: string) => `${id.slice(0, at)}${by}${id.slice(at + 1)}`;
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** The string with its last character changed. */
const lastChanged = (text: string) => `${text.slice(0, -1)}${text.endsWith('x') ? 'y' : 'x'}`;
/** The string with its first character changed. */
const firstChanged = (text: string) => `${text.startsWith('x') ? 'y' : 'x'}${text.slice(1)}`;

const status = (answer: Answer) => answer.status;
const fieldsOf = (answer: Answer) => answer.json as Record<string, unknown>;
const nowSeconds = (mock: MockServer) => Math.floor(mock.clock.now() / 1000);
const httpDate = (seconds: number) => new Date(seconds * 1000).toUTCString();
const globalToken = (mock: MockServer) => tokenFor(mock, 'global');
const read = async (mock: MockServer, token: string, id = ids(mock).vault, headers: Record<string, string> = {}) =>
  call(mock, 'GET', vaultPath(id), { token, headers });
const readVault = async (mock: MockServer, token: string, id = ids(mock).vault) => status(await read(mock, token, id));
const record = async (mock: MockServer, id = ids(mock).vault) => fieldsOf(await read(mock, await globalToken(mock), id));
const redeliverAnswer = async (mock: MockServer, token: string, event = ids(mock).failedEvent, stream = ids(mock).stream) =>
  call(mock, 'POST', redeliverPath(stream, event), { token });
const redeliver = async (mock: MockServer, token: string, event = ids(mock).failedEvent, stream = ids(mock).stream) =>
  status(await redeliverAnswer(mock, token, event, stream));
/** A token of the global client's claims with these changed, signed with the mock's key. */
const signedWith = async (mock: MockServer, changes: Record<string, unknown>) => signed(mock, { ...(await claimsOf(mock)), ...changes });
const createTicket = async (mock: MockServer, body: unknown, token?: string) =>
  call(mock, 'POST', ticketPath(ids(mock).profile), { token: token ?? (await globalToken(mock)), body });
const ticketStatus = async (mock: MockServer, body: unknown) => status(await createTicket(mock, body));
/** Ticket statuses of connection_config {name: "new-conn", ...config}. */
const withConnection = (mock: MockServer, config: Record<string, unknown>) =>
  ticketStatus(mock, { connection_config: { name: 'new-conn', ...config } });
const tokenAnswer = async (mock: MockServer, overrides: Record<string, string | undefined>) =>
  call(mock, 'POST', '/oauth/token', { body: tokenRequest(mock, 'global', overrides) });
const tokenStatus = async (mock: MockServer, overrides: Record<string, string | undefined>) => status(await tokenAnswer(mock, overrides));
const anonymousRead = async (mock: MockServer, headers: Record<string, string> = {}) =>
  call(mock, 'GET', vaultPath(ids(mock).vault), { headers });
const anonymousRedeliver = async (mock: MockServer) =>
  status(await call(mock, 'POST', redeliverPath(ids(mock).stream, ids(mock).failedEvent)));
const count429 = (statuses: readonly number[]) => statuses.filter((s) => s === 429).length;

const probes: Probe[] = [
  // Token verification
  {
    id: 'ho12-now-from-date-header',
    probe: async (m) => {
      const now = nowSeconds(m);
      const expired = await signedWith(m, { iat: now - 7200, exp: now - 3600 });
      const withDate = async (token: string, date?: string) => status(await read(m, token, ids(m).vault, date ? { date } : {}));
      return [
        await withDate(expired, httpDate(now - 7200)),
        await withDate(expired),
        await withDate(expired, httpDate(now)),
        await withDate(await globalToken(m), httpDate(now)),
      ];
    },
    conformant: [401, 401, 401, 200],
    faulted: [200, 401, 401, 200],
  },
  {
    id: 'ho12-exp-against-minute-clock',
    options: () => ({ clock: new ManualClock(Date.UTC(2025, 0, 1, 0, 0, 55)) }),
    probe: async (m) => {
      const now = nowSeconds(m);
      return [
        await readVault(m, await signedWith(m, { exp: now - 50 })),
        await readVault(m, await signedWith(m, { exp: now - 120 })),
        await readVault(m, await globalToken(m)),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho12-verified-signatures-cache',
    probe: async (m) => {
      const token = await globalToken(m);
      const [header, , signature] = token.split('.');
      const edited = `${header}.${base64url({ ...decodeJwt(token), note: 'edited' })}.${signature}`;
      return [await readVault(m, edited), await readVault(m, token), await readVault(m, edited)];
    },
    conformant: [401, 200, 401],
    faulted: [401, 200, 200],
  },
  {
    id: 'ho12-subject-rule-per-grant-type',
    probe: async (m) => [
      await readVault(m, await signedWith(m, { gty: 'password', sub: 'auth0|someone' })),
      await readVault(m, await signedWith(m, { sub: 'auth0|someone' })),
      await readVault(m, await globalToken(m)),
    ],
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  // Ticket body
  {
    id: 'ho12-ttl-sec-longer-bound-for-new-connections',
    probe: async (m) => {
      const creating = (ttl_sec: number) => ticketStatus(m, { ttl_sec, connection_config: { name: 'new-conn' } });
      return [
        await creating(432001),
        await creating(500000),
        await creating(604801),
        await ticketStatus(m, { ttl_sec: 432001 }),
        await creating(432000),
      ];
    },
    conformant: [400, 400, 400, 400, 201],
    faulted: [201, 201, 400, 400, 201],
  },
  {
    id: 'ho12-organization-ids-fanned-out',
    probe: async (m) => {
      const other = `${ORGANIZATION.slice(0, -1)}X`;
      return [
        await ticketStatus(m, { enabled_organizations: [{ organization_id: [ORGANIZATION, other], show_as_button: true }] }),
        await ticketStatus(m, { enabled_organizations: [{ organization_id: 5 }] }),
        await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION }, { organization_id: other }] }),
      ];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho12-provisioning-scopes-permission-map',
    probe: async (m) => {
      const scopes = (value: unknown) => ticketStatus(m, { provisioning_config: { scopes: value } });
      return [await scopes({ 'get:users': true }), await scopes('get:users'), await scopes(['get:users'])];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho12-organizations-keyed-by-id',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: { [ORGANIZATION]: { show_as_button: true } } }),
      await ticketStatus(m, { enabled_organizations: { [ORGANIZATION]: true } }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION, show_as_button: true }] }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho12-feature-flags-yes-no-letters',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { provisioning: 'Y' } }),
      await ticketStatus(m, { enabled_features: { provisioning: 'N' } }),
      await ticketStatus(m, { enabled_features: { provisioning: 'yes' } }),
      await ticketStatus(m, { enabled_features: { provisioning: true } }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho12-provisioning-config-base64-blob',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: Buffer.from(JSON.stringify({ scopes: ['get:users'] })).toString('base64') }),
      await ticketStatus(m, { provisioning_config: 'get:users' }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'] } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho12-connection-name-hyphen-class',
    probe: async (m) => {
      const named = (name: string) => ticketStatus(m, { connection_config: { name } });
      return [await named('new--conn'), await named('new-conn-'), await named('-new'), await named('new-conn')];
    },
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho12-icon-url-protocol-relative',
    probe: async (m) => {
      const icon = (icon_url: string) => withConnection(m, { options: { icon_url } });
      return [
        await icon('//cdn.example.com/icon.png'),
        await icon('http://cdn.example.com/icon.png'),
        await icon('https://cdn.example.com/icon.png'),
      ];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho12-client-protocol-newer-enum',
    probe: async (m) => {
      const protocol = (client_protocol: string) => withConnection(m, { options: { idpinitiated: { client_protocol } } });
      return [await protocol('oidc'), await protocol('saml'), await protocol('oauth2')];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho12-display-name-bound-of-record-name',
    probe: async (m) => {
      const display = (display_name: string) => withConnection(m, { display_name });
      return [
        await display('a'.repeat(129)),
        await display('a'.repeat(150)),
        await display('a'.repeat(151)),
        await display('a'.repeat(128)),
      ];
    },
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho12-authorize-query-question-mark-lost',
    probe: async (m) => {
      const query = (client_authorizequery: string) => withConnection(m, { options: { idpinitiated: { client_authorizequery } } });
      return [await query(`?a=${'b'.repeat(254)}`), await query(`a=${'b'.repeat(255)}`), await query(`a=${'b'.repeat(254)}`)];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  // Authorization
  {
    id: 'ho12-permissions-claim-merged',
    probe: async (m) => [
      await redeliver(m, await signedWith(m, { scope: 'read:event_deliveries', permissions: ['update:event_deliveries'] })),
      await redeliver(m, await signedWith(m, { scope: 'read:event_deliveries', permissions: ['read:event_streams'] })),
      await redeliver(m, await signedWith(m, { scope: 'update:event_deliveries' })),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho12-not-global-as-scope-filter',
    probe: async (m) => {
      const answer = await redeliverAnswer(m, await tokenFor(m, 'non-global'));
      return [answer.status, fieldsOf(answer).message, await redeliver(m, await globalToken(m))];
    },
    conformant: [401, 'Client is not global', 202],
    faulted: [403, 'Insufficient scope, expected any of: update:event_deliveries', 202],
  },
  {
    id: 'ho12-scopes-matched-by-word-pattern',
    probe: async (m) => [
      await redeliver(m, await signedWith(m, { scope: 'update:event_deliveries-test' })),
      await redeliver(m, await signedWith(m, { scope: 'update:event_deliveries.readonly' })),
      await redeliver(m, await signedWith(m, { scope: 'read:event_deliveries' })),
    ],
    conformant: [403, 403, 403],
    faulted: [202, 202, 403],
  },
  {
    id: 'ho12-vault-scopes-from-gateway-header',
    probe: async (m) => {
      const token = await tokenFor(m, 'without-vault-scope');
      return [
        status(await read(m, token, ids(m).vault, { 'x-scopes': 'read:flows_vault_connections' })),
        await readVault(m, token),
        status(await anonymousRead(m, { 'x-scopes': 'read:flows_vault_connections' })),
      ];
    },
    conformant: [403, 403, 401],
    faulted: [200, 403, 401],
  },
  {
    id: 'ho12-ticket-organization-token-bypass',
    probe: async (m) => [
      status(await createTicket(m, {}, await signedWith(m, { scope: 'read:event_deliveries', org_id: ORGANIZATION }))),
      status(await createTicket(m, {}, await signedWith(m, { scope: 'read:event_deliveries' }))),
    ],
    conformant: [403, 403],
    faulted: [201, 403],
  },
  {
    id: 'ho12-scope-judged-before-signature',
    probe: async (m) => [
      await readVault(m, withTamperedSignature(await tokenFor(m, 'without-vault-scope'))),
      await readVault(m, withTamperedSignature(await globalToken(m))),
    ],
    conformant: [401, 401],
    faulted: [403, 401],
  },
  // Requests
  {
    id: 'ho12-redeliver-empty-json-body-refused',
    probe: async (m) => {
      const token = await globalToken(m);
      const path = redeliverPath(ids(m).stream, ids(m).failedEvent);
      return [
        status(await call(m, 'POST', path, { token, body: '', headers: { 'content-type': 'application/json' } })),
        status(await call(m, 'POST', path, { token })),
      ];
    },
    conformant: [202, 202],
    faulted: [400, 202],
  },
  {
    id: 'ho12-vault-accept-negotiated-406',
    probe: async (m) => {
      const token = await globalToken(m);
      const accepting = async (accept: string) => status(await read(m, token, ids(m).vault, { accept }));
      return [await accepting('text/html'), await accepting('application/json'), await accepting('*/*')];
    },
    conformant: [200, 200, 200],
    faulted: [406, 200, 200],
  },
  // Token endpoint
  {
    id: 'ho12-client-id-after-pipe',
    probe: async (m) => {
      const { client_id } = client(m, 'global');
      return [await tokenStatus(m, { client_id: `tenant|${client_id}` }), await tokenStatus(m, { client_id: `${client_id}x` })];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho12-audience-without-query',
    probe: async (m) => [
      await tokenStatus(m, { audience: `${m.audience}?tenant=other` }),
      await tokenStatus(m, { audience: `${m.audience}#x` }),
      await tokenStatus(m, { audience: 'https://other.example.com/api/v2/' }),
    ],
    conformant: [403, 403, 403],
    faulted: [200, 200, 403],
  },
  {
    id: 'ho12-secret-bcrypt-72-bytes',
    probe: async (m) => {
      const { client_secret } = client(m, 'global');
      return [
        await tokenStatus(m, { client_secret: lastChanged(client_secret) }),
        await tokenStatus(m, { client_secret: firstChanged(client_secret) }),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho12-form-charset-allow-list',
    probe: async (m) => {
      const body = new URLSearchParams(tokenRequest(m, 'global')).toString();
      const post = async (contentType: string) =>
        status(await call(m, 'POST', '/oauth/token', { body, headers: { 'content-type': contentType } }));
      return [await post(`${FORM}; charset=ISO-8859-1`), await post(`${FORM}; charset=UTF-8`), await post(FORM)];
    },
    conformant: [200, 200, 200],
    faulted: [415, 200, 200],
  },
  {
    id: 'ho12-discovery-issuer-origin',
    probe: async (m) => {
      const document = fieldsOf(await call(m, 'GET', '/.well-known/openid-configuration'));
      return [(document.issuer as string).endsWith('/'), (document.token_endpoint as string).endsWith('/oauth/token')];
    },
    conformant: [true, true],
    faulted: [false, true],
  },
  {
    id: 'ho12-invalid-client-400-for-body-credentials',
    probe: async (m) => {
      const { client_id } = client(m, 'global');
      const basic = Buffer.from(`${client_id}:not-the-secret`).toString('base64');
      const viaBasic = await call(m, 'POST', '/oauth/token', {
        body: { grant_type: 'client_credentials', audience: m.audience },
        headers: { authorization: `Basic ${basic}` },
      });
      const inBody = await tokenAnswer(m, { client_secret: 'not-the-secret' });
      return [inBody.status, fieldsOf(inBody).error, viaBasic.status];
    },
    conformant: [401, 'invalid_client', 401],
    faulted: [400, 'invalid_client', 401],
  },
  {
    id: 'ho12-issued-token-without-typ',
    probe: async (m) => {
      const token = await globalToken(m);
      const header = decodeProtectedHeader(token);
      return [header.typ, typeof header.kid, await readVault(m, token)];
    },
    conformant: ['JWT', 'string', 200],
    faulted: [undefined, 'string', 200],
  },
  {
    id: 'ho12-expires-in-setting-text',
    probe: async (m) => {
      const fields = fieldsOf(await tokenAnswer(m, {}));
      const claims = decodeJwt(fields.access_token as string);
      return [fields.expires_in, claims.exp! - claims.iat!];
    },
    conformant: [86400, 86400],
    faulted: ['1d', 86400],
  },
  {
    id: 'ho12-jwks-alg-node-digest-name',
    probe: async (m) => {
      const [key] = fieldsOf(await call(m, 'GET', '/.well-known/jwks.json')).keys as JWK[];
      const imported = await importJWK(key!).then(
        () => true,
        () => false,
      );
      return [key!.alg, imported, typeof key!.kid];
    },
    conformant: ['RS256', true, 'string'],
    faulted: ['RSA-SHA256', false, 'string'],
  },
  // Success answers
  {
    id: 'ho12-vault-updated-at-touched-on-read',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.updated_at === '2024-09-12T12:52:16.553Z', fields.created_at, fields.name];
    },
    conformant: [true, '2024-09-12T12:52:16.553Z', 'Team notifications'],
    faulted: [false, '2024-09-12T12:52:16.553Z', 'Team notifications'],
  },
  {
    id: 'ho12-vault-ready-postgres-text',
    probe: async (m) => [(await record(m)).ready, (await record(m, ids(m).bareVault)).ready, (await record(m)).app_id],
    conformant: [true, false, 'SLACK'],
    faulted: ['t', 'f', 'SLACK'],
  },
  {
    id: 'ho12-vault-account-name-handle',
    probe: async (m) => [
      (await record(m)).account_name,
      ((await record(m, ids(m).longVault)).account_name as string).length,
      'account_name' in (await record(m, ids(m).bareVault)),
    ],
    conformant: ['acme-workspace', 150, false],
    faulted: ['@acme-workspace', 151, false],
  },
  {
    id: 'ho12-vault-fingerprint-number-round-trip',
    probe: async (m) => [((await record(m, ids(m).longVault)).fingerprint as string).length, (await record(m)).fingerprint],
    conformant: [32, '6d8cd5d8165fd55597d6ab7e02a78bf3'],
    faulted: [31, '6d8cd5d8165fd55597d6ab7e02a78bf3'],
  },
  // State and errors
  {
    id: 'ho12-stream-lock-kept-after-refusal',
    probe: async (m) => {
      const token = await globalToken(m);
      const { deliveredEvent, otherStream, otherFailedEvent } = ids(m);
      return [
        await redeliver(m, token, deliveredEvent),
        await redeliver(m, token),
        await redeliver(m, token, otherFailedEvent, otherStream),
      ];
    },
    conformant: [409, 202, 202],
    faulted: [409, 409, 202],
  },
  {
    id: 'ho12-error-filter-timestamp-path',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m), unknownLike(ids(m).vault));
      return [answer.status, Object.keys(fieldsOf(answer)).sort()];
    },
    conformant: [404, ['error', 'message', 'statusCode']],
    faulted: [404, ['error', 'message', 'path', 'statusCode', 'timestamp']],
  },
  {
    id: 'ho12-path-error-code-from-location',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m), replacedAt(ids(m).vault, 8, '0'));
      return [answer.status, fieldsOf(answer).errorCode, fieldsOf(await createTicket(m, { ttl_sec: 'abc' })).errorCode];
    },
    conformant: [400, 'invalid_uri', 'invalid_body'],
    faulted: [400, 'invalid_path', 'invalid_body'],
  },
  // Rate limit
  {
    id: 'ho12-refill-fraction-lost',
    options: () => ({ clock: new ManualClock(), rateLimit: { bucketSize: 3, refillPerSecond: 2 } }),
    probe: async (m) => {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i += 1) {
        statuses.push(await anonymousRedeliver(m));
        (m.clock as ManualClock).advance(600);
      }
      return count429(statuses);
    },
    conformant: 0,
    faulted: 5,
  },
  {
    id: 'ho12-dashboard-agent-exempt',
    options: { rateLimit: { bucketSize: 3, refillPerSecond: 0.001 } },
    probe: async (m) => {
      const dashboard: number[] = [];
      for (let i = 0; i < 6; i += 1) dashboard.push(status(await anonymousRead(m, { 'user-agent': 'Dashboard/2.4' })));
      const other: number[] = [];
      for (let i = 0; i < 6; i += 1) other.push(status(await anonymousRead(m, { 'user-agent': 'curl/8.5' })));
      return [count429(dashboard), count429(other)];
    },
    conformant: [3, 6],
    faulted: [0, 3],
  },
  {
    id: 'ho12-reset-from-uptime',
    options: { rateLimit: { bucketSize: 10, refillPerSecond: 0.001 } },
    probe: async (m) => {
      const answer = await anonymousRead(m);
      return [Number(answer.headers['x-ratelimit-reset']) >= nowSeconds(m), answer.headers['x-ratelimit-remaining']];
    },
    conformant: [true, '9'],
    faulted: [false, '9'],
  },
  {
    id: 'ho12-limit-halved-after-429',
    options: { rateLimit: { bucketSize: 4, refillPerSecond: 0.001 } },
    probe: async (m) => {
      const limits: string[] = [];
      for (let i = 0; i < 6; i += 1) limits.push((await anonymousRead(m)).headers['x-ratelimit-limit']!);
      return limits;
    },
    conformant: ['4', '4', '4', '4', '4', '4'],
    faulted: ['4', '4', '4', '4', '4', '2'],
  },
  {
    id: 'ho12-remaining-fixed-window',
    options: () => ({ clock: new ManualClock(), rateLimit: { bucketSize: 10, refillPerSecond: 0.001 } }),
    probe: async (m) => {
      const remaining: string[] = [];
      for (let i = 0; i < 3; i += 1) remaining.push((await anonymousRead(m)).headers['x-ratelimit-remaining']!);
      (m.clock as ManualClock).advance(1000);
      for (let i = 0; i < 2; i += 1) remaining.push((await anonymousRead(m)).headers['x-ratelimit-remaining']!);
      return remaining;
    },
    conformant: ['9', '8', '7', '6', '5'],
    faulted: ['9', '8', '7', '9', '8'],
  },
  {
    id: 'ho12-limit-in-policy-syntax',
    options: { rateLimit: { bucketSize: 10, refillPerSecond: 0.001 } },
    probe: async (m) => {
      const answer = await anonymousRead(m);
      return [answer.headers['x-ratelimit-limit'], answer.headers['x-ratelimit-remaining']];
    },
    conformant: ['10', '9'],
    faulted: ['10;w=10000', '9'],
  },
];

heldOutRoundTests({
  name: 'the twelfth held-out round',
  prefix: 'ho12-',
  faults: heldOutRound12Faults,
  least: { faults: 45, contract: 23 },
  probes,
  signingKey,
});
