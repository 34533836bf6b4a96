// The fifteenth round of held-out faults (mock/faults/held-out/round-15/): kept apart from the
// gate's catalogue and from the first fourteen rounds, each row naming a clause of the registry at
// its own level, and each fault shown to do what its bug line says: a probe sends the fault's near
// miss to a conformant mock and to a faulted one, and the two answers differ as the row says (and,
// where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { KeyObject, sign } from 'node:crypto';
import { heldOutRound15Faults } from '../faults/held-out/round-15/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs as signed } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, tokenFor, tokenRequest } from './support/http.ts';
import {
  ORGANIZATION,
  PARTNER_DOMAIN,
  bucketOf,
  createTicket,
  domainOf,
  fieldsOf,
  formToken,
  globalToken,
  ids,
  messageOf,
  nowSeconds,
  probeKeyFile,
  read,
  readVault,
  record,
  redeliver,
  replacedAt,
  status,
  ticketHost,
  ticketStatus,
  tokenAnswer,
  unknownLike,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-15');

/** A token of the global client's claims with these changed, signed with the mock's key. */
const signedWith = async (mock: MockServer, changes: Record<string, unknown>) => signed(mock, { ...(await claimsOf(mock)), ...changes });
const withConnection = (mock: MockServer, config: Record<string, unknown>) =>
  ticketStatus(mock, { connection_config: { name: 'new-conn', ...config } });
const ticketWith = async (mock: MockServer, token: string) => status(await createTicket(mock, {}, token));
/**
 * A token with a character inside its signature changed: the last character of an RS256
 * signature carries two bits only, so changing it can decode to the same signature.
 */
const changedInSignature = (token: string) => `${token.slice(0, -10)}${token.at(-10) === 'A' ? 'B' : 'A'}${token.slice(-9)}`;
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** The global client's token with an RSA-SHA1 signature by the mock's key under an RS256 header. */
const sha1Signed = async (mock: MockServer) => {
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: mock.keys.kid })}.${b64(await claimsOf(mock))}`;
  return `${input}.${sign('sha1', Buffer.from(input), KeyObject.from(mock.keys.privateKey)).toString('base64url')}`;
};
const organizations = (item: Record<string, unknown>) => ({ enabled_organizations: [{ organization_id: ORGANIZATION, ...item }] });
const authorizeQuery = (mock: MockServer, value: string) =>
  withConnection(mock, { options: { idpinitiated: { client_authorizequery: value } } });
/** The form text of the global client's token request with this scope, "+" for its spaces. */
const formWithScope = (mock: MockServer, scope: string) => new URLSearchParams({ ...tokenRequest(mock, 'global'), scope }).toString();
const GRANTED = 'read:event_streams update:event_deliveries';
const BODY_PREFIX = 'Payload validation error: ';

const probes: Probe[] = [
  // Token verification
  {
    id: 'ho15-clock-tolerance-applied-twice',
    probe: async (m) => {
      const now = nowSeconds(m);
      return [
        await readVault(m, await signedWith(m, { iat: now - 3600, exp: now - 45 })),
        await readVault(m, await signedWith(m, { iat: now - 3600, exp: now - 90 })),
        await readVault(m, await globalToken(m)),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho15-bearer-credential-unquoted',
    probe: async (m) => {
      const token = await globalToken(m);
      const as = async (authorization: string) => status(await call(m, 'GET', vaultPath(ids(m).vault), { headers: { authorization } }));
      return [await as(`Bearer "${token}"`), await as(`Bearer "${changedInSignature(token)}"`), await as(`Bearer ${token}`)];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho15-iat-judged-by-max-age-only',
    probe: async (m) => [
      await readVault(m, await signedWith(m, { iat: nowSeconds(m) + 3600 })),
      await readVault(m, await signedWith(m, { iat: 'soon' })),
      await readVault(m, await globalToken(m)),
    ],
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho15-issuer-compared-as-serialised-url',
    probe: async (m) => {
      const iss = String((await claimsOf(m)).iss);
      return [
        await readVault(m, await signedWith(m, { iss: iss.replace(/^https?/, (scheme) => scheme.toUpperCase()) })),
        await readVault(m, await signedWith(m, { iss: `${iss}x` })),
        await readVault(m, await globalToken(m)),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho15-signature-sha1-fallback',
    probe: async (m) => {
      const token = await sha1Signed(m);
      return [await readVault(m, token), await readVault(m, changedInSignature(token)), await readVault(m, await globalToken(m))];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  // The ticket body
  {
    id: 'ho15-organization-booleans-array-coerced',
    probe: async (m) => [
      await ticketStatus(m, organizations({ show_as_button: [true] })),
      await ticketStatus(m, organizations({ assign_membership_on_login: [false] })),
      await ticketStatus(m, organizations({ show_as_button: [true, false] })),
      await ticketStatus(m, organizations({ show_as_button: true })),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho15-ttl-sec-max-in-int32-milliseconds',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 2_147_484 }),
      await ticketStatus(m, { ttl_sec: 4_294_967 }),
      await ticketStatus(m, { ttl_sec: 432_001 }),
      await ticketStatus(m, { ttl_sec: 432_000 }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho15-provisioning-scopes-space-string',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: 'get:users post:users' } }),
      await ticketStatus(m, { provisioning_config: { scopes: 'get:users,post:users' } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users', 'post:users'] } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho15-organization-id-prefix-added',
    probe: async (m) => [
      await ticketStatus(m, organizations({ organization_id: ORGANIZATION.slice(4) })),
      await ticketStatus(m, organizations({ organization_id: ORGANIZATION.slice(5) })),
      await ticketStatus(m, organizations({})),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho15-pending-domain-wildcard-not-counted',
    probe: async (m) => {
      const pending = (domain: string) =>
        ticketStatus(m, { domain_aliases_config: { domain_verification: 'none', pending_domains: [domain] } });
      return [
        await pending(`*.${domainOf(254)}`),
        await pending(`*.${domainOf(255)}`),
        await pending(`*.${domainOf(256)}`),
        await pending(domainOf(255)),
      ];
    },
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho15-organizations-require-discovery-flag',
    probe: async (m) => [
      await ticketStatus(m, organizations({})),
      await ticketStatus(m, { ...organizations({}), use_for_organization_discovery: false }),
      await ticketStatus(m, {}),
    ],
    conformant: [201, 201, 201],
    faulted: [400, 201, 201],
  },
  {
    id: 'ho15-provisioning-scopes-empty-skipped',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: [] } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:user'] } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'] } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho15-connection-config-template-name',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: ids(m).takenName }),
      await ticketStatus(m, { connection_config: 'nosuchconnection' }),
      await ticketStatus(m, { connection_config: { name: 'new-conn' } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho15-google-workspace-extra-members',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { google_workspace: { sync_users: true, customer_id: 'C01' } } }),
      await ticketStatus(m, { provisioning_config: { google_workspace: { sync_users: 'yes' } } }),
      await ticketStatus(m, { provisioning_config: { google_workspace: { sync_users: true } } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho15-connection-name-word-class',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: { name: 'new_conn' } }),
      await ticketStatus(m, { connection_config: { name: 'new conn' } }),
      await ticketStatus(m, { connection_config: { name: 'new-conn' } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho15-display-name-measured-without-tags',
    probe: async (m) => [
      await withConnection(m, { display_name: `<b>${'a'.repeat(128)}</b>` }),
      await withConnection(m, { display_name: `<b>${'a'.repeat(129)}</b>` }),
      await withConnection(m, { display_name: 'a'.repeat(128) }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho15-authorizequery-measured-decoded',
    probe: async (m) => [
      await authorizeQuery(m, `a%20${'a'.repeat(254)}`),
      await authorizeQuery(m, `a%20${'a'.repeat(255)}`),
      await authorizeQuery(m, 'a'.repeat(256)),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  // Authorization
  {
    id: 'ho15-manage-action-grants-all',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'manage:event_deliveries')),
      await redeliver(m, await withScope(m, 'manage:event_streams')),
      await redeliver(m, await withScope(m, 'update:event_deliveries')),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho15-instance-scope-read-by-two-segments',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'update:event_deliveries:est_other')),
      await redeliver(m, await withScope(m, 'update:event_streams:est_other')),
      await redeliver(m, await withScope(m, 'update:event_deliveries')),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho15-last-scope-dropped',
    probe: async (m) => [
      await ticketWith(m, await withScope(m, 'create:sso_access_tickets')),
      await ticketWith(m, await withScope(m, 'read:users create:sso_access_tickets')),
      await ticketWith(m, await withScope(m, 'read:users create:sso_access_tickets ')),
      await ticketWith(m, await withScope(m, 'create:sso_access_tickets read:users')),
    ],
    conformant: [201, 201, 201, 201],
    faulted: [403, 403, 201, 201],
  },
  {
    id: 'ho15-vault-scopes-cached-per-client',
    probe: async (m) => [
      await readVault(m, await tokenFor(m, 'without-vault-scope')),
      await readVault(m, await globalToken(m)),
      await readVault(m, await withScope(m, 'read:event_streams')),
    ],
    conformant: [403, 200, 403],
    faulted: [403, 200, 200],
  },
  // Requests
  {
    id: 'ho15-vault-id-decoded-basename',
    probe: async (m) => {
      const token = await globalToken(m);
      const vault = ids(m).vault;
      return [
        status(await read(m, token, `connections%2F${vault}`)),
        status(await read(m, token, `connections%2F${unknownLike(vault)}`)),
        status(await read(m, token, `connections-${vault}`)),
        status(await read(m, token)),
      ];
    },
    conformant: [400, 400, 400, 200],
    faulted: [200, 404, 400, 200],
  },
  {
    id: 'ho15-stream-id-trailing-dots-dropped',
    probe: async (m) => {
      const token = await globalToken(m);
      const stream = ids(m).stream;
      return [
        await redeliver(m, token, `${stream}.`),
        await redeliver(m, token, `${stream}..`),
        await redeliver(m, token, `${stream}.x`),
        await redeliver(m, token),
      ];
    },
    conformant: [400, 400, 400, 202],
    faulted: [202, 202, 400, 202],
  },
  {
    id: 'ho15-stream-id-base62-alphabet',
    probe: async (m) => {
      const token = await globalToken(m);
      const stream = ids(m).stream;
      return [
        await redeliver(m, token, replacedAt(stream, 10, '0')),
        await redeliver(m, token, replacedAt(stream, 10, 'l')),
        await redeliver(m, token, replacedAt(stream, 10, '_')),
        await redeliver(m, token),
      ];
    },
    conformant: [400, 400, 400, 202],
    faulted: [404, 404, 400, 202],
  },
  // The token endpoint
  {
    id: 'ho15-form-plus-kept-literal',
    probe: async (m) => {
      const plus = formWithScope(m, GRANTED);
      return [status(await formToken(m, plus)), status(await formToken(m, plus.replace(/\+/g, '%20')))];
    },
    conformant: [200, 200],
    faulted: [403, 200],
  },
  {
    id: 'ho15-unsupported-grant-as-invalid-grant',
    probe: async (m) => {
      const unknown = await tokenAnswer(m, { grant_type: 'password' });
      const missing = await tokenAnswer(m, { grant_type: undefined });
      return [status(unknown), fieldsOf(unknown).error, status(missing), fieldsOf(missing).error];
    },
    conformant: [400, 'unsupported_grant_type', 400, 'invalid_request'],
    faulted: [400, 'invalid_grant', 400, 'invalid_request'],
  },
  {
    id: 'ho15-jwks-without-alg-and-use',
    probe: async (m) => {
      const [key] = fieldsOf(await call(m, 'GET', '/.well-known/jwks.json')).keys as Array<Record<string, unknown>>;
      return ['alg' in key!, 'use' in key!, typeof key!.n, typeof key!.kid];
    },
    conformant: [true, true, 'string', 'string'],
    faulted: [false, false, 'string', 'string'],
  },
  {
    id: 'ho15-discovery-jwks-uri-relative',
    probe: async (m) => {
      const document = fieldsOf(await call(m, 'GET', '/.well-known/openid-configuration'));
      const uri = String(document.jwks_uri);
      return [URL.canParse(uri), new URL(uri, String(document.issuer)).pathname, URL.canParse(String(document.token_endpoint))];
    },
    conformant: [true, '/.well-known/jwks.json', true],
    faulted: [false, '/.well-known/jwks.json', true],
  },
  {
    id: 'ho15-token-type-from-jose-typ',
    probe: async (m) => {
      const answer = await tokenAnswer(m, {});
      return [status(answer), fieldsOf(answer).token_type, typeof fieldsOf(answer).access_token];
    },
    conformant: [200, 'Bearer', 'string'],
    faulted: [200, 'JWT', 'string'],
  },
  // Success answers
  {
    id: 'ho15-created-at-date-to-string',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.created_at, fields.updated_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['Thu Sep 12 2024 12:52:16 GMT+0000 (Coordinated Universal Time)', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho15-vault-hal-content-type',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m));
      return [status(answer), answer.headers['content-type'], fieldsOf(answer).id === ids(m).vault];
    },
    conformant: [200, 'application/json; charset=utf-8', true],
    faulted: [200, 'application/hal+json; charset=utf-8', true],
  },
  {
    id: 'ho15-vault-record-in-data-envelope',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.id === ids(m).vault, typeof fields.data];
    },
    conformant: [true, 'undefined'],
    faulted: [false, 'object'],
  },
  {
    id: 'ho15-ticket-code-in-fragment',
    probe: async (m) => {
      const url = new URL(fieldsOf(await createTicket(m, {})).ticket as string);
      return [url.pathname, url.searchParams.get('ticket')?.length ?? 0, url.hash.startsWith('#ticket=')];
    },
    conformant: ['/self-service/connections-flow', 32, false],
    faulted: ['/self-service/connections-flow', 0, true],
  },
  {
    id: 'ho15-custom-domain-unverified-ignored',
    probe: async (m) => {
      const custom = await ticketHost(m, { 'tenant-custom-domain': PARTNER_DOMAIN });
      const plain = await ticketHost(m, {});
      return [custom === PARTNER_DOMAIN, custom === plain, plain === PARTNER_DOMAIN];
    },
    conformant: [true, false, false],
    faulted: [false, true, false],
  },
  // State and errors
  {
    id: 'ho15-taken-name-unique-violation-500',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: { name: ids(m).takenName } }),
      await ticketStatus(m, { connection_config: { name: 'new-conn' } }),
    ],
    conformant: [409, 201],
    faulted: [500, 201],
  },
  {
    id: 'ho15-body-error-prefix-twice',
    probe: async (m) => {
      const body = await createTicket(m, { ttl_sec: -1 });
      const path = await read(m, await globalToken(m), 'bad');
      return [
        status(body),
        messageOf(body).startsWith(`${BODY_PREFIX}${BODY_PREFIX}`),
        status(path),
        messageOf(path).startsWith(BODY_PREFIX),
      ];
    },
    conformant: [400, false, 400, false],
    faulted: [400, true, 400, false],
  },
  {
    id: 'ho15-429-error-code-from-auth-api',
    options: bucketOf(1),
    probe: async (m) => {
      const token = await globalToken(m);
      await read(m, token);
      const refused = await read(m, token);
      return [status(refused), fieldsOf(refused).errorCode, messageOf(refused)];
    },
    conformant: [429, 'too_many_requests', 'Global limit has been reached'],
    faulted: [429, 'too_many_attempts', 'Global limit has been reached'],
  },
  // The rate limiter
  {
    id: 'ho15-successful-requests-skipped',
    options: bucketOf(2),
    probe: async (m) => {
      const token = await globalToken(m);
      const unknown = unknownLike(ids(m).vault);
      const answers = [];
      for (let n = 0; n < 3; n += 1) answers.push(await readVault(m, token));
      for (let n = 0; n < 3; n += 1) answers.push(await readVault(m, token, unknown));
      return answers;
    },
    conformant: [200, 200, 429, 429, 429, 429],
    faulted: [200, 200, 200, 404, 404, 429],
  },
  {
    id: 'ho15-bucket-per-url',
    options: bucketOf(2),
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await readVault(m, token),
        await readVault(m, token),
        await readVault(m, token, ids(m).plainVault),
        await readVault(m, token),
      ];
    },
    conformant: [200, 200, 429, 429],
    faulted: [200, 200, 200, 429],
  },
  {
    id: 'ho15-limiter-mounted-twice',
    options: bucketOf(4),
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [await read(m, token), await read(m, token), await read(m, token)];
      return answers.map((answer) => [status(answer), answer.headers['x-ratelimit-remaining']]);
    },
    conformant: [
      [200, '3'],
      [200, '2'],
      [200, '1'],
    ],
    faulted: [
      [200, '2'],
      [200, '0'],
      [429, '0'],
    ],
  },
];

heldOutRoundTests({
  name: 'the fifteenth held-out round',
  prefix: 'ho15-',
  faults: heldOutRound15Faults,
  least: { faults: 40, contract: 19 },
  probes,
  signingKey,
});
