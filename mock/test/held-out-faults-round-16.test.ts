// The sixteenth round of held-out faults (mock/faults/held-out/round-16/): kept apart from the
// gate's catalogue and from the first fifteen rounds, each row naming a clause of the registry at
// its own level, and each fault shown to do what its bug line says: a probe sends the fault's near
// miss to a conformant mock and to a faulted one, and the two answers differ as the row says (and,
// where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { KeyObject, constants, createHash, privateEncrypt, randomUUID, sign } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { SignJWT } from 'jose';
import { observed } from '../../specs/index.ts';
import { heldOutRound16Faults } from '../faults/held-out/round-16/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs as signed } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor } from './support/http.ts';
import {
  ORGANIZATION,
  PARTNER_DOMAIN,
  bucketOf,
  changedEarly,
  createTicket,
  fieldsOf,
  fixtureClientId,
  globalToken,
  ids,
  messageOf,
  nowSeconds,
  probeKeyFile,
  read,
  readVault,
  record,
  redeliver,
  redeliverAnswer,
  redeliverPath,
  status,
  ticketOn,
  ticketStatus,
  ticketText,
  tokenStatus,
  unknownLike,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-16');

/** A token of the global client's claims with these changed, signed with the mock's key. */
const signedWith = async (mock: MockServer, changes: Record<string, unknown>) => signed(mock, { ...(await claimsOf(mock)), ...changes });
const withConnection = (mock: MockServer, config: Record<string, unknown>) =>
  ticketStatus(mock, { connection_config: { name: 'new-conn', ...config } });
const withName = (mock: MockServer, name: string) => ticketStatus(mock, { connection_config: { name } });
const ticketWith = async (mock: MockServer, token: string, headers: Record<string, string> = {}) =>
  status(await createTicket(mock, {}, token, headers));
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const privateKeyOf = (mock: MockServer) => KeyObject.from(mock.keys.privateKey);
/** The global client's claims under an RS256 header, signed as the tenant's key's padding over the bare SHA-256 of `input` (the signing input by default). */
const bareDigestSigned = async (mock: MockServer, input?: string) => {
  const signing = `${b64({ alg: 'RS256', typ: 'JWT', kid: mock.keys.kid })}.${b64(await claimsOf(mock))}`;
  const digest = createHash('sha256')
    .update(input ?? signing)
    .digest();
  return `${signing}.${privateEncrypt({ key: privateKeyOf(mock), padding: constants.RSA_PKCS1_PADDING }, digest).toString('base64url')}`;
};
/** The global client's claims DEFLATE-compressed under a header with this zip, signed RS256 with the tenant's key. */
const zipped = async (mock: MockServer, zip: string) => {
  const payload = deflateRawSync(Buffer.from(JSON.stringify(await claimsOf(mock)))).toString('base64url');
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: mock.keys.kid, zip })}.${payload}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKeyOf(mock)).toString('base64url')}`;
};
/** A token for these loopback origin's issuer and audience. */
const atOrigin = (mock: MockServer, origin: string) => signedWith(mock, { iss: `${origin}/`, aud: `${origin}/api/v2/` });
const organizations = (...items: string[]) => ({ enabled_organizations: items.map((organization_id) => ({ organization_id })) });
const pending = (mock: MockServer, domain: string) =>
  ticketStatus(mock, { domain_aliases_config: { domain_verification: 'none', pending_domains: [domain] } });
const ASSERTION_TYPE = observed.tokens.client_assertion.type;
/** A token request of the global client authenticated by an HS256 assertion keyed with `secret`. */
const hs256Assertion = async (mock: MockServer, secret: string) => {
  const id = client(mock, 'global').client_id;
  const now = nowSeconds(mock);
  const assertion = await new SignJWT({ jti: randomUUID() })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(id)
    .setSubject(id)
    .setAudience(mock.issuer)
    .setIssuedAt(now)
    .setExpirationTime(now + 60)
    .sign(new TextEncoder().encode(secret));
  return call(mock, 'POST', '/oauth/token', {
    body: {
      grant_type: 'client_credentials',
      client_id: id,
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: assertion,
      audience: mock.audience,
    },
  });
};
const discovery = async (mock: MockServer) => fieldsOf(await call(mock, 'GET', '/.well-known/openid-configuration'));
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

const probes: Probe[] = [
  // Token verification
  {
    id: 'ho16-userinfo-audience-accepted',
    probe: async (m) => {
      const iss = String((await claimsOf(m)).iss);
      return [
        await readVault(m, await signedWith(m, { aud: `${iss}userinfo` })),
        await readVault(m, await signedWith(m, { aud: `${iss}profile` })),
        await readVault(m, await globalToken(m)),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho16-loopback-issuer-any-port',
    probe: async (m) => {
      const { port } = new URL(m.url);
      const other = port === '1' ? '2' : '1';
      return [
        await readVault(m, await atOrigin(m, `http://127.0.0.1:${other}`)),
        await readVault(m, await atOrigin(m, `http://10.0.0.1:${port}`)),
        await readVault(m, await atOrigin(m, `http://127.0.0.1:${port}`)),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho16-signature-digest-info-unchecked',
    probe: async (m) => [
      await readVault(m, await bareDigestSigned(m)),
      await readVault(m, await bareDigestSigned(m, 'other input')),
      await readVault(m, await globalToken(m)),
    ],
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho16-jws-payload-inflated',
    probe: async (m) => [
      await readVault(m, await zipped(m, 'DEF')),
      await readVault(m, await zipped(m, 'GZIP')),
      await readVault(m, await globalToken(m)),
    ],
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho16-claims-schema-strict',
    probe: async (m) => [
      await readVault(m, await signedWith(m, { 'https://example.com/roles': ['admin'] })),
      await readVault(m, await signedWith(m, { org_id: ORGANIZATION })),
      await readVault(m, await signedWith(m, { jti: 'listed' })),
      await readVault(m, await globalToken(m)),
    ],
    conformant: [200, 200, 200, 200],
    faulted: [401, 401, 200, 200],
  },
  // The ticket body
  {
    id: 'ho16-null-members-merge-patched',
    probe: async (m) => [
      await ticketStatus(m, { connection_id: null }),
      await ticketStatus(m, { enabled_features: { sso: null } }),
      await ticketStatus(m, { connection_id: 5 }),
      await ticketStatus(m, {}),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho16-empty-string-as-null-object',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: '' }),
      await ticketStatus(m, { provisioning_config: '' }),
      await ticketStatus(m, { connection_config: 'new-conn' }),
      await ticketStatus(m, { connection_config: { name: 'new-conn' } }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho16-empty-list-reencoded-as-object',
    probe: async (m) => [
      await ticketStatus(m, { enabled_clients: [] }),
      await ticketStatus(m, { enabled_organizations: [] }),
      await ticketStatus(m, { enabled_clients: [fixtureClientId(m, 'global')] }),
    ],
    conformant: [201, 201, 201],
    faulted: [400, 400, 201],
  },
  {
    id: 'ho16-single-item-list-collapsed',
    probe: async (m) => [
      await ticketStatus(m, organizations(ORGANIZATION)),
      await ticketStatus(m, { enabled_clients: [fixtureClientId(m, 'global')] }),
      await ticketStatus(m, organizations(ORGANIZATION, 'org_qrstuvwxyz123456')),
    ],
    conformant: [201, 201, 201],
    faulted: [400, 400, 201],
  },
  {
    id: 'ho16-json-body-sniffed-by-braces',
    probe: async (m) => [
      await ticketText(m, '{"ttl_sec": 3600}\n'),
      await ticketText(m, '{}\n'),
      await ticketText(m, '{"ttl_sec": 3600}'),
      await ticketText(m, '{"ttl_sec": 3600'),
    ],
    conformant: [201, 201, 201, 400],
    faulted: [400, 400, 201, 400],
  },
  {
    id: 'ho16-ttl-sec-rounded-to-minute',
    probe: async (m) => {
      const answers = [];
      for (const ttl_sec of [432_001, 432_029, -1, -30, 432_030, -31, 3600.5, 432_000]) answers.push(await ticketStatus(m, { ttl_sec }));
      return answers;
    },
    conformant: [400, 400, 400, 400, 400, 400, 400, 201],
    faulted: [201, 201, 201, 201, 400, 400, 400, 201],
  },
  {
    id: 'ho16-metadata-flattened',
    probe: async (m) => [
      await withConnection(m, { metadata: { team: { name: 'payments' } } }),
      await withConnection(m, { metadata: { team: { size: 5 } } }),
      await withConnection(m, { metadata: { team_name: 'payments' } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho16-domain-aliases-checked-in-foreach',
    probe: async (m) => {
      const aliases = (domain_aliases: unknown) => withConnection(m, { options: { domain_aliases } });
      return [await aliases(['a'.repeat(256)]), await aliases([5]), await aliases('partner.example'), await aliases(['partner.example'])];
    },
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho16-display-name-measured-as-json',
    probe: async (m) => {
      const named = (display_name: string) => withConnection(m, { display_name });
      return [
        await named('a'.repeat(127)),
        await named('a'.repeat(128)),
        await named(`"${'a'.repeat(125)}`),
        await named('a'.repeat(126)),
        await named('a'.repeat(129)),
      ];
    },
    conformant: [201, 201, 201, 201, 400],
    faulted: [400, 400, 400, 201, 400],
  },
  {
    id: 'ho16-metadata-keys-mongo-rules',
    probe: async (m) => [
      await withConnection(m, { metadata: { 'team.name': 'payments' } }),
      await withConnection(m, { metadata: { $owner: 'payments' } }),
      await withConnection(m, { metadata: { team_name: 'payments' } }),
    ],
    conformant: [201, 201, 201],
    faulted: [400, 400, 201],
  },
  {
    id: 'ho16-connection-name-strategy-reserved',
    probe: async (m) => [await withName(m, 'github'), await withName(m, 'samlp'), await withName(m, 'github-partner')],
    conformant: [201, 201, 201],
    faulted: [400, 400, 201],
  },
  {
    id: 'ho16-pending-domain-fqdn-required',
    probe: async (m) => [await pending(m, 'intranet'), await pending(m, 'corp.internal1'), await pending(m, 'partner.example')],
    conformant: [201, 201, 201],
    faulted: [400, 400, 201],
  },
  // Authorization
  {
    id: 'ho16-scope-bitmask-wraps',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'update:authentication_methods')),
      await redeliver(m, await withScope(m, 'read:current_user')),
      await redeliver(m, await withScope(m, 'update:event_streams')),
      await redeliver(m, await withScope(m, 'update:event_deliveries')),
    ],
    conformant: [403, 403, 403, 202],
    faulted: [202, 202, 403, 202],
  },
  {
    id: 'ho16-global-client-trusted-for-tickets',
    probe: async (m) => [
      await ticketWith(m, await tokenFor(m, 'without-sso-ticket-scope')),
      await ticketWith(m, await tokenFor(m, 'non-global', 'read:flows_vault_connections')),
      await ticketWith(m, await globalToken(m)),
    ],
    conformant: [403, 403, 201],
    faulted: [201, 403, 201],
  },
  {
    id: 'ho16-update-implies-read-any-resource',
    probe: async (m) => [
      await readVault(m, await withScope(m, 'update:event_deliveries')),
      await readVault(m, await withScope(m, 'create:event_streams')),
      await readVault(m, await withScope(m, 'read:flows_vault_connections')),
    ],
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho16-custom-domain-proxy-credential',
    probe: async (m) => {
      const without = await tokenFor(m, 'without-sso-ticket-scope');
      return [
        await ticketWith(m, without, { 'tenant-custom-domain': PARTNER_DOMAIN }),
        await ticketWith(m, without),
        await ticketWith(m, await globalToken(m), { 'tenant-custom-domain': PARTNER_DOMAIN }),
      ];
    },
    conformant: [403, 403, 201],
    faulted: [201, 403, 201],
  },
  // Requests
  {
    id: 'ho16-quoted-path-ids-json-parsed',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [
        await redeliver(m, token, `%22${stream}%22`),
        await redeliver(m, token, stream, `%22${failedEvent}%22`),
        await redeliver(m, token, `%22${stream}`),
        await redeliver(m, token),
      ];
    },
    conformant: [400, 400, 400, 202],
    faulted: [202, 202, 400, 202],
  },
  {
    id: 'ho16-custom-domain-pattern-global-flag',
    probe: async (m) => [
      await ticketOn(m, PARTNER_DOMAIN),
      await ticketOn(m, PARTNER_DOMAIN),
      await ticketOn(m, 'login.other.example'),
      await ticketOn(m, PARTNER_DOMAIN),
      await ticketStatus(m, {}),
    ],
    conformant: [201, 201, 201, 201, 201],
    faulted: [201, 400, 201, 400, 201],
  },
  {
    id: 'ho16-trace-echoes-request',
    probe: async (m) => {
      const token = await globalToken(m);
      const trace = await call(m, 'TRACE', vaultPath(ids(m).vault), { token });
      const patch = await call(m, 'PATCH', vaultPath(ids(m).vault), { token });
      const echoed = fieldsOf(trace).headers as Record<string, unknown> | undefined;
      return [status(trace), typeof echoed?.authorization, status(patch)];
    },
    conformant: [405, 'undefined', 405],
    faulted: [200, 'string', 405],
  },
  // The token endpoint
  {
    id: 'ho16-audience-checked-as-assertion-audience',
    probe: async (m) => [
      await tokenStatus(m, { audience: m.issuer }),
      await tokenStatus(m, { audience: `${m.issuer}oauth/token` }),
      await tokenStatus(m, { audience: `${m.issuer}userinfo` }),
      await tokenStatus(m, {}),
    ],
    conformant: [403, 403, 403, 200],
    faulted: [200, 200, 403, 200],
  },
  {
    id: 'ho16-authenticated-clients-remembered-by-id',
    probe: async (m) => [
      await tokenStatus(m, { client_secret: 'not-the-secret' }),
      await tokenStatus(m, {}),
      await tokenStatus(m, { client_secret: 'not-the-secret' }),
    ],
    conformant: [401, 200, 401],
    faulted: [401, 200, 200],
  },
  {
    id: 'ho16-client-secret-jwt-accepted',
    probe: async (m) => [
      status(await hs256Assertion(m, client(m, 'global').client_secret)),
      status(await hs256Assertion(m, client(m, 'non-global').client_secret)),
    ],
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho16-jwks-chain-repeats-root',
    probe: async (m) => {
      const [key] = fieldsOf(await call(m, 'GET', '/.well-known/jwks.json')).keys as Array<{ x5c: string[]; kid: unknown }>;
      return [key!.x5c.length, key!.x5c[0] === key!.x5c.at(-1), typeof key!.kid];
    },
    conformant: [1, true, 'string'],
    faulted: [2, true, 'string'],
  },
  {
    id: 'ho16-discovery-token-endpoint-from-spec',
    probe: async (m) => {
      const document = await discovery(m);
      const { issuer, token_endpoint: endpoint, jwks_uri: jwks } = document as Record<string, string>;
      return [
        endpoint === `${issuer}oauth/token`,
        new URL(endpoint!).host === new URL(issuer!).host,
        jwks === `${issuer}.well-known/jwks.json`,
      ];
    },
    conformant: [true, true, true],
    faulted: [false, false, true],
  },
  // Success answers
  {
    id: 'ho16-fingerprint-hashed-on-load',
    probe: async (m) => {
      const { fingerprint } = await record(m);
      return [fingerprint, /^[0-9a-f]{32}$/.test(String(fingerprint))];
    },
    conformant: ['6d8cd5d8165fd55597d6ab7e02a78bf3', true],
    faulted: [md5('6d8cd5d8165fd55597d6ab7e02a78bf3'), true],
  },
  {
    id: 'ho16-timestamps-day-of-year',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.updated_at, fields.refreshed_at, (await record(m, ids(m).longVault)).created_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-10-01T08:30:00.000Z', '2023-01-31T23:59:59.999Z'],
    faulted: ['2024-09-256T12:52:16.553Z', '2024-10-275T08:30:00.000Z', '2023-01-31T23:59:59.999Z'],
  },
  {
    id: 'ho16-redeliver-202-only-when-async-preferred',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      const preferring = await call(m, 'POST', redeliverPath(stream, failedEvent), { token, headers: { prefer: 'respond-async' } });
      return [await redeliver(m, token), status(preferring)];
    },
    conformant: [202, 202],
    faulted: [200, 202],
  },
  {
    id: 'ho16-ticket-code-parameter',
    probe: async (m) => {
      const url = new URL(fieldsOf(await createTicket(m, {})).ticket as string);
      return [url.pathname, url.searchParams.get('ticket')?.length ?? 0, url.searchParams.get('code')?.length ?? 0];
    },
    conformant: ['/self-service/connections-flow', 32, 0],
    faulted: ['/self-service/connections-flow', 0, 32],
  },
  {
    id: 'ho16-redeliver-202-echoes-body',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      const withBody = await call(m, 'POST', redeliverPath(stream, failedEvent), { token, body: { reason: 'retry' } });
      const without = await redeliverAnswer(m, token);
      return [status(withBody), fieldsOf(withBody), status(without), fieldsOf(without)];
    },
    conformant: [202, {}, 202, {}],
    faulted: [202, { reason: 'retry' }, 202, {}],
  },
  // State and errors
  {
    id: 'ho16-refused-redelivery-marks-event-failed',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, deliveredEvent, pendingEvent } = ids(m);
      return [
        await redeliver(m, token, stream, deliveredEvent),
        await redeliver(m, token, stream, deliveredEvent),
        await redeliver(m, token, stream, pendingEvent),
        await redeliver(m, token, stream, pendingEvent),
        await redeliver(m, token),
      ];
    },
    conformant: [409, 409, 409, 409, 202],
    faulted: [409, 202, 409, 202, 202],
  },
  {
    id: 'ho16-stream-id-numeric-key',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream } = ids(m);
      return [await redeliver(m, token, unknownLike(stream)), await redeliver(m, token, changedEarly(stream)), await redeliver(m, token)];
    },
    conformant: [404, 404, 202],
    faulted: [202, 404, 202],
  },
  {
    id: 'ho16-not-found-message-from-string',
    probe: async (m) => {
      const token = await globalToken(m);
      const vault = await read(m, token, unknownLike(ids(m).vault));
      const stream = await redeliverAnswer(m, token, unknownLike(ids(m).stream));
      const found = await read(m, token);
      return [status(vault), messageOf(vault), status(stream), messageOf(stream), status(found)];
    },
    conformant: [404, 'Connection not found', 404, 'The requested stream does not exist.', 200],
    faulted: [404, 'NotFoundError: Connection not found', 404, 'NotFoundError: The requested stream does not exist.', 200],
  },
  // The rate limiter
  {
    id: 'ho16-limit-charged-on-verifier-slow-path',
    options: bucketOf(2),
    probe: async (m) => {
      const fresh = [];
      for (let n = 0; n < 3; n += 1) fresh.push(await signedWith(m, { jti: `probe-${n}` }));
      const answers = [];
      for (const token of fresh) answers.push(await readVault(m, token));
      for (let n = 0; n < 2; n += 1) answers.push(await readVault(m, fresh[0]!));
      return answers;
    },
    conformant: [200, 200, 429, 429, 429],
    faulted: [200, 200, 429, 200, 200],
  },
  {
    id: 'ho16-count-restarted-on-refusal',
    options: bucketOf(2),
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [];
      for (let n = 0; n < 6; n += 1) answers.push(await readVault(m, token));
      return answers;
    },
    conformant: [200, 200, 429, 429, 429, 429],
    faulted: [200, 200, 429, 200, 200, 429],
  },
  {
    id: 'ho16-limit-burst-plus-refill',
    options: { rateLimit: { bucketSize: 10, refillPerSecond: 2 } },
    probe: async (m) => {
      const answer = await read(m, await globalToken(m));
      return [status(answer), answer.headers['x-ratelimit-limit'], answer.headers['x-ratelimit-remaining']];
    },
    conformant: [200, '10', '9'],
    faulted: [200, '12', '9'],
  },
];

heldOutRoundTests({
  name: 'the sixteenth held-out round',
  prefix: 'ho16-',
  faults: heldOutRound16Faults,
  least: { faults: 40, contract: 20 },
  probes,
  signingKey,
});
