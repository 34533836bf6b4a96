// The ninth round of held-out faults (mock/faults/held-out/round-9/): kept apart from the gate's
// catalogue and from the first eight rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the fault's near miss to
// a conformant mock and to a faulted one, and the two answers differ as the row says (and, where
// the fault lets only the near value through, a plainly wrong value is still refused by both). A
// fault that changed nothing would count as a survivor of the suite for no reason; this rules that
// out.
import { KeyObject, constants, sign } from 'node:crypto';
import { decodeJwt, type JWTPayload } from 'jose';
import { heldOutRound9Faults } from '../faults/held-out/round-9/catalogue.ts';
import { ManualClock, type MockServer, type MockServerOptions } from '../index.ts';
import { claimsOf, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor, tokenRequest } from './support/http.ts';
import {
  advance,
  anonymousRead,
  bucketOf,
  CLOCKED_BUCKET,
  createTicket,
  fieldsOf,
  FORM,
  globalToken,
  ids,
  JSON_TYPE,
  messageOf,
  nowSeconds,
  PARTNER_DOMAIN,
  probeKeyFile,
  withScope,
  readAs,
  readVault,
  record,
  redeliverPath,
  status,
  ticketHost,
  ticketPathOf,
  ticketStatus,
  tokenAnswer,
  tokenStatus,
  unknownLike,
  vaultPath,
  withHost,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-9');

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const ORGANIZATION_ID = 'org_1234567890abcdef';

const encode = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A compact JWS of these claims signed with the mock's key under `alg` (RS256, RS384, RS512 or PS256), with no library checks. */
function signedAs(mock: MockServer, alg: string, claims: JWTPayload, header: Record<string, unknown> = {}): string {
  const input = `${encode({ alg, typ: 'JWT', kid: mock.keys.kid, ...header })}.${encode(claims)}`;
  const key = KeyObject.from(mock.keys.privateKey);
  const hash = `sha${alg.slice(2)}`;
  const signature = alg.startsWith('PS')
    ? sign(hash, Buffer.from(input), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })
    : sign(hash, Buffer.from(input), key);
  return `${input}.${signature.toString('base64url')}`;
}

/** A token with the mock's key and kid, and these claims. */
const signed = (mock: MockServer, claims: JWTPayload) => signedAs(mock, 'RS256', claims);

const redeliverAnswer = async (mock: MockServer, token: string, event = ids(mock).failedEvent, stream = ids(mock).stream) =>
  call(mock, 'POST', redeliverPath(stream, event), { token });
const redeliver = async (mock: MockServer, token: string, event?: string, stream?: string) =>
  status(await redeliverAnswer(mock, token, event, stream));
const formOf = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const formToken = async (mock: MockServer, text: string) =>
  status(await call(mock, 'POST', '/oauth/token', { body: text, headers: { 'content-type': FORM } }));
/** The id with the two characters at `i` and `j` swapped. */
const swapped = (id: string, i: number, j: number) => `${id.slice(0, i)}${id[j]!}${id.slice(i + 1, j)}${id[i]!}${id.slice(j + 1)}`;
const CLOCKED = (): MockServerOptions => ({ clock: new ManualClock() });

const probes: Probe[] = [
  // Token verification
  {
    id: 'ho9-nbf-integer-guard',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const now = nowSeconds(m);
      return [await readVault(m, signed(m, { ...claims, nbf: now + 600.5 })), await readVault(m, signed(m, { ...claims, nbf: now + 600 }))];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho9-bearer-colon-separator',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await readAs(m, `Bearer: ${token}`),
        await readAs(m, `Bearer: ${withTamperedSignature(token)}`),
        await readAs(m, `Bearer ${token}`),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho9-clock-read-at-startup',
    options: CLOCKED,
    probe: async (m) => {
      const token = await globalToken(m);
      const claims = decodeJwt(token);
      const now = nowSeconds(m);
      const expiredBefore = signed(m, { ...claims, iat: now - 90_000, exp: now - 600 });
      const fresh = await readVault(m, token);
      advance(m, (claims.exp! - claims.iat! + 120) * 1000);
      return [fresh, await readVault(m, token), await readVault(m, expiredBefore)];
    },
    conformant: [200, 401, 401],
    faulted: [200, 200, 401],
  },
  {
    id: 'ho9-token-alg-list-from-assertions',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signedAs(m, 'PS256', claims)),
        await readVault(m, signedAs(m, 'RS384', claims)),
        await readVault(m, signedAs(m, 'RS512', claims)),
        await readVault(m, signedAs(m, 'RS256', claims)),
      ];
    },
    conformant: [401, 401, 401, 200],
    faulted: [200, 200, 401, 200],
  },
  {
    id: 'ho9-sub-split-on-at',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signed(m, { ...claims, sub: `${claims.azp as string}@users` })),
        await readVault(m, signed(m, { ...claims, sub: `${claims.azp as string}x@clients` })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  // Ticket body
  {
    id: 'ho9-ttl-sec-bounded-in-whole-days',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 432_001 }),
      await ticketStatus(m, { ttl_sec: 518_400 }),
      await ticketStatus(m, { ttl_sec: 432_000 }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho9-discovery-flag-loose-equality',
    probe: async (m) => [
      await ticketStatus(m, { use_for_organization_discovery: '1' }),
      await ticketStatus(m, { use_for_organization_discovery: 0 }),
      await ticketStatus(m, { use_for_organization_discovery: 'yes' }),
    ],
    conformant: [400, 400, 400],
    faulted: [201, 201, 400],
  },
  {
    id: 'ho9-enabled-clients-spread',
    probe: async (m) => [
      await ticketStatus(m, { enabled_clients: client(m, 'global').client_id }),
      await ticketStatus(m, { enabled_clients: 5 }),
      await ticketStatus(m, { enabled_clients: [client(m, 'global').client_id] }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho9-enabled-features-object-wrapped',
    probe: async (m) => [await ticketStatus(m, { enabled_features: true }), await ticketStatus(m, { enabled_features: 'sso' })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho9-show-as-button-string-compared',
    probe: async (m) => {
      const withButton = (show_as_button: unknown) =>
        ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION_ID, show_as_button }] });
      return [await withButton('false'), await withButton(['true']), await withButton('no'), await withButton(false)];
    },
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho9-underscore-members-as-metadata',
    probe: async (m) => [await ticketStatus(m, { _comment: 'onboarding' }), await ticketStatus(m, { comment: 'onboarding' })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho9-domain-verification-in-joined-enum',
    probe: async (m) => [
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'option' } }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'maybe' } }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'optional' } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho9-connection-name-multiline-pattern',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: { name: 'new-conn\nnot a name!' } }),
      await ticketStatus(m, { connection_config: { name: 'not a name!' } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  // Authorization
  {
    id: 'ho9-scope-nfkc-normalised',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'update\uff1aevent_deliveries')),
      await redeliver(m, await withScope(m, 'update\uff1aevent_streams')),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho9-scope-split-limit',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'read:event_streams read:event_deliveries update:event_deliveries')),
      await redeliver(m, await withScope(m, 'read:event_streams update:event_deliveries')),
    ],
    conformant: [202, 202],
    faulted: [403, 202],
  },
  {
    id: 'ho9-global-verdict-filled-by-vault',
    probe: async (m) => {
      const token = await tokenFor(m, 'non-global');
      return [await redeliver(m, token), await readVault(m, token), await redeliver(m, token)];
    },
    conformant: [401, 200, 401],
    faulted: [401, 200, 202],
  },
  {
    id: 'ho9-ticket-scope-sql-like',
    probe: async (m) => {
      const ticketWith = async (scope: string) => status(await createTicket(m, {}, await withScope(m, scope)));
      return [await ticketWith('create:sso-access-tickets'), await ticketWith('create:sso_access_ticket')];
    },
    conformant: [403, 403],
    faulted: [201, 403],
  },
  // Requests
  {
    id: 'ho9-base-path-prefix-without-boundary',
    probe: async (m) => {
      const token = await globalToken(m);
      const get = async (path: string) => status(await call(m, 'GET', path, { token }));
      const id = ids(m).vault;
      return [await get(`/api/v20/flows/vault/connections/${id}`), await get(`/api/v3/flows/vault/connections/${id}`)];
    },
    conformant: [404, 404],
    faulted: [200, 404],
  },
  {
    id: 'ho9-ticket-host-from-forwarded-host',
    probe: async (m) => [
      await ticketHost(m, { 'tenant-custom-domain': PARTNER_DOMAIN, 'x-forwarded-host': 'proxy.internal.example' }),
      await ticketHost(m, { 'tenant-custom-domain': PARTNER_DOMAIN }),
    ],
    conformant: [PARTNER_DOMAIN, PARTNER_DOMAIN],
    faulted: ['proxy.internal.example', PARTNER_DOMAIN],
  },
  {
    id: 'ho9-profile-found-by-checksum',
    probe: async (m) => {
      const token = await globalToken(m);
      const { profile } = ids(m);
      const ticketFor = async (id: string) => status(await call(m, 'POST', ticketPathOf(m, id), { token, body: {} }));
      return [await ticketFor(swapped(profile, 4, 5)), await ticketFor(unknownLike(profile))];
    },
    conformant: [404, 404],
    faulted: [201, 404],
  },
  {
    id: 'ho9-event-prefix-without-separator',
    probe: async (m) => {
      const token = await globalToken(m);
      const rest = ids(m).failedEvent.slice(4);
      return [await redeliver(m, token, `evt-${rest}`), await redeliver(m, token, `evx_${rest}`)];
    },
    conformant: [400, 400],
    faulted: [404, 400],
  },
  // Token endpoint
  {
    id: 'ho9-token-secret-found-inside',
    probe: async (m) => {
      const secret = client(m, 'global').client_secret;
      return [await tokenStatus(m, { client_secret: `x${secret}y` }), await tokenStatus(m, { client_secret: secret.slice(0, -1) })];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho9-token-client-found-by-name',
    probe: async (m) => [await tokenStatus(m, { client_id: 'global' }), await tokenStatus(m, { client_id: 'globals' })],
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho9-token-grant-type-first-word',
    probe: async (m) => [
      await tokenStatus(m, { grant_type: 'client_credentials password' }),
      await tokenStatus(m, { grant_type: 'password client_credentials' }),
    ],
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho9-token-audience-ends-checked-apart',
    probe: async (m) => [
      await tokenStatus(m, { audience: m.audience.replace(/\/api\/v2\/$/, '/v1/api/v2/') }),
      await tokenStatus(m, { audience: withHost(m.audience, () => 'other.example.com') }),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho9-token-json-bom-kept',
    probe: async (m) => {
      const text = JSON.stringify(tokenRequest(m, 'global'));
      const send = async (body: Buffer) => status(await call(m, 'POST', '/oauth/token', { body, headers: { 'content-type': JSON_TYPE } }));
      return [await send(Buffer.concat([BOM, Buffer.from(text)])), await send(Buffer.from(text))];
    },
    conformant: [200, 200],
    faulted: [400, 200],
  },
  {
    id: 'ho9-token-expiry-at-day-end',
    probe: async (m) => {
      const answer = fieldsOf(await tokenAnswer(m, {}));
      const claims = decodeJwt(answer.access_token as string);
      return [claims.exp! - claims.iat! === answer.expires_in, answer.expires_in];
    },
    conformant: [true, 86_400],
    faulted: [false, 86_400],
  },
  {
    id: 'ho9-token-repeated-parameters-agreeing',
    probe: async (m) => {
      const fields = formOf(tokenRequest(m, 'global'));
      return [
        await formToken(m, `grant_type=client_credentials&${fields}`),
        await formToken(m, `grant_type=password&${fields}`),
        await formToken(m, fields),
      ];
    },
    conformant: [400, 400, 200],
    faulted: [200, 400, 200],
  },
  {
    id: 'ho9-jwks-x5t-sha256',
    probe: async (m) => {
      const jwks = fieldsOf(await call(m, 'GET', '/.well-known/jwks.json')) as { keys: Array<{ x5t: string; kid: string }> };
      return [jwks.keys[0]!.x5t.length, jwks.keys[0]!.kid === m.keys.kid];
    },
    conformant: [27, true],
    faulted: [43, true],
  },
  // Success answers
  {
    id: 'ho9-vault-unset-optionals-empty',
    probe: async (m) => {
      const bare = await record(m, ids(m).bareVault);
      const full = await record(m);
      return ['environment' in bare, 'account_name' in bare, full.environment];
    },
    conformant: [false, false, 'production'],
    faulted: [true, true, 'production'],
  },
  {
    id: 'ho9-vault-record-left-from-last-read',
    probe: async (m) => {
      const token = await globalToken(m);
      const unknown = unknownLike(ids(m).vault);
      return [await readVault(m, token, unknown), await readVault(m, token), await readVault(m, token, unknown)];
    },
    conformant: [404, 200, 404],
    faulted: [404, 200, 200],
  },
  {
    id: 'ho9-vault-updated-at-sql-datetime',
    probe: async (m) => {
      const { updated_at, created_at } = await record(m);
      return [updated_at, created_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['2024-09-12 12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho9-vault-name-char-padded',
    probe: async (m) => [((await record(m)).name as string).length, ((await record(m, ids(m).longVault)).name as string).length],
    conformant: [18, 150],
    faulted: [150, 150],
  },
  {
    id: 'ho9-vault-repeat-answered-203',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readVault(m, token), await readVault(m, token), await readVault(m, token, ids(m).longVault)];
    },
    conformant: [200, 200, 200],
    faulted: [200, 203, 200],
  },
  {
    id: 'ho9-vault-odm-version-key',
    probe: async (m) => '__v' in (await record(m)),
    conformant: false,
    faulted: true,
  },
  {
    id: 'ho9-ticket-url-default-port',
    probe: async (m) => (fieldsOf(await createTicket(m, {})).ticket as string).includes(':443/'),
    conformant: false,
    faulted: true,
  },
  // State and errors
  {
    id: 'ho9-redelivery-debounced',
    options: CLOCKED,
    probe: async (m) => {
      const token = await globalToken(m);
      const first = [await redeliver(m, token), await redeliver(m, token)];
      advance(m, 1500);
      return [...first, await redeliver(m, token)];
    },
    conformant: [202, 202, 202],
    faulted: [202, 409, 202],
  },
  {
    id: 'ho9-event-query-filtered-by-state',
    probe: async (m) => {
      const token = await globalToken(m);
      const { deliveredEvent, pendingEvent, failedEvent } = ids(m);
      return [await redeliver(m, token, deliveredEvent), await redeliver(m, token, pendingEvent), await redeliver(m, token, failedEvent)];
    },
    conformant: [409, 409, 202],
    faulted: [404, 404, 202],
  },
  {
    id: 'ho9-403-scope-percent-encoded',
    probe: async (m) => {
      const answer = await redeliverAnswer(m, await tokenFor(m, 'without-redeliver-scope'));
      return [answer.status, messageOf(answer).endsWith('update:event_deliveries')];
    },
    conformant: [403, true],
    faulted: [403, false],
  },
  {
    id: 'ho9-messages-end-with-period',
    probe: async (m) => {
      const invalid = await call(m, 'GET', vaultPath(ids(m).vault), { headers: { authorization: 'Bearer x' } });
      const unknownStream = await redeliverAnswer(m, await globalToken(m), undefined, unknownLike(ids(m).stream));
      return [messageOf(invalid), messageOf(unknownStream)];
    },
    conformant: ['Invalid token', 'The requested stream does not exist.'],
    faulted: ['Invalid token.', 'The requested stream does not exist.'],
  },
  {
    id: 'ho9-nested-body-error-unprefixed',
    probe: async (m) => {
      const prefixed = async (body: unknown) => {
        const answer = await createTicket(m, body);
        return [answer.status, messageOf(answer).startsWith('Payload validation error: ')];
      };
      return [
        await prefixed({ enabled_organizations: [{ organization_id: ORGANIZATION_ID, show_as_button: 'no' }] }),
        await prefixed({ ttl_sec: -1 }),
      ];
    },
    conformant: [
      [400, true],
      [400, true],
    ],
    faulted: [
      [400, false],
      [400, true],
    ],
  },
  // Rate limit
  {
    id: 'ho9-refill-per-tick',
    options: CLOCKED_BUCKET,
    probe: async (m) => {
      const burst = [];
      for (let i = 0; i < 3; i += 1) burst.push(status(await anonymousRead(m)));
      advance(m, 200);
      return [burst, status(await anonymousRead(m))];
    },
    conformant: [[401, 401, 429], 429],
    faulted: [[401, 401, 429], 401],
  },
  {
    id: 'ho9-request-count-in-a-byte',
    options: bucketOf(260),
    probe: async (m) => {
      const statuses: number[] = [];
      for (let i = 0; i < 261; i += 1) statuses.push(status(await anonymousRead(m)));
      return [statuses.filter((s) => s === 429).length, statuses.at(-1)];
    },
    conformant: [1, 429],
    faulted: [0, 401],
  },
  {
    id: 'ho9-limit-from-token-bucket',
    probe: async (m) => {
      const answer = await anonymousRead(m);
      return [answer.status, answer.headers['x-ratelimit-limit']];
    },
    conformant: [401, '200'],
    faulted: [401, '30'],
  },
  {
    id: 'ho9-reset-locale-formatted',
    probe: async (m) => {
      const answer = await anonymousRead(m);
      return [/^\d+$/.test(answer.headers['x-ratelimit-reset']!), answer.headers['x-ratelimit-limit']];
    },
    conformant: [true, '200'],
    faulted: [false, '200'],
  },
];

heldOutRoundTests({
  name: 'the ninth held-out round',
  prefix: 'ho9-',
  faults: heldOutRound9Faults,
  least: { faults: 45, contract: 24 },
  probes,
  signingKey,
});
