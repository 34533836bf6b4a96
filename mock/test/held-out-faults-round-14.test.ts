// The fourteenth round of held-out faults (mock/faults/held-out/round-14/): kept apart from the
// gate's catalogue and from the first thirteen rounds, each row naming a clause of the registry at
// its own level, and each fault shown to do what its bug line says: a probe sends the fault's near
// miss to a conformant mock and to a faulted one, and the two answers differ as the row says (and,
// where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { heldOutRound14Faults } from '../faults/held-out/round-14/catalogue.ts';
import { ManualClock, type MockServer } from '../index.ts';
import { claimsOf, signedAsIs as signed } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenRequest } from './support/http.ts';
import {
  CLOCKED_BUCKET,
  MANUAL_CLOCK,
  ORGANIZATION,
  advance,
  bucketOf,
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
  redeliverAnswer,
  status,
  ticketOn,
  ticketStatus,
  tokenStatus,
  unknownLike,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-14');

/** A token of the global client's claims with these changed, signed with the mock's key. */
const signedWith = async (mock: MockServer, changes: Record<string, unknown>) => signed(mock, { ...(await claimsOf(mock)), ...changes });
const withConnection = (mock: MockServer, config: Record<string, unknown>) =>
  ticketStatus(mock, { connection_config: { name: 'new-conn', ...config } });
const ticketWith = async (mock: MockServer, token: string) => status(await createTicket(mock, {}, token));
/** The id with the case of its first letter that has a base58 counterpart in the other case swapped. */
const caseSwapped = (id: string) => {
  const at = [...id].findIndex(
    (c, i) =>
      i > 4 &&
      /[A-HJ-NP-Za-km-z]/.test(c) &&
      /[1-9A-HJ-NP-Za-km-z]/.test(c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) &&
      c.toLowerCase() !== c.toUpperCase(),
  );
  const c = id[at]!;
  return `${id.slice(0, at)}${c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()}${id.slice(at + 1)}`;
};
const changedLast = (text: string) => `${text.slice(0, -1)}${text.endsWith('x') ? 'y' : 'x'}`;
/**
 * A token with a character inside its signature changed: the last character of an RS256
 * signature carries two bits only, so changing it (changedLast) can decode to the same signature.
 */
const changedInSignature = (token: string) => `${token.slice(0, -10)}${token.at(-10) === 'A' ? 'B' : 'A'}${token.slice(-9)}`;
/** A fresh token of the global client, distinct from every other (its own jti). */
const freshToken = async (mock: MockServer, n: number) => signedWith(mock, { jti: `probe-${n}` });

const probes: Probe[] = [
  // Token verification
  {
    id: 'ho14-now-read-one-hour-behind',
    probe: async (m) => {
      const now = nowSeconds(m);
      return [
        await readVault(m, await signedWith(m, { iat: now - 7200, exp: now - 1800 })),
        await readVault(m, await signedWith(m, { iat: now - 9000, exp: now - 7200 })),
        await readVault(m, await globalToken(m)),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho14-subject-case-insensitive',
    probe: async (m) => {
      const { azp } = await claimsOf(m);
      return [
        await readVault(m, await signedWith(m, { sub: `${String(azp)}@clients`.toUpperCase() })),
        await readVault(m, await signedWith(m, { sub: `${String(azp)}@client` })),
        await readVault(m, await globalToken(m)),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  // The ticket body
  {
    id: 'ho14-ttl-sec-max-in-whole-days',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 432_001 }),
      await ticketStatus(m, { ttl_sec: 518_399 }),
      await ticketStatus(m, { ttl_sec: 518_400 }),
      await ticketStatus(m, { ttl_sec: 432_000 }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho14-token-lifetime-duration-string',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { token_lifetime: '15m' } }),
      await ticketStatus(m, { provisioning_config: { token_lifetime: '1h' } }),
      await ticketStatus(m, { provisioning_config: { token_lifetime: 'soon' } }),
      await ticketStatus(m, { provisioning_config: { token_lifetime: 900 } }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho14-enabled-organizations-single-wrapped',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: { organization_id: ORGANIZATION } }),
      await ticketStatus(m, { enabled_organizations: ORGANIZATION }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION }] }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho14-is-domain-connection-tinyint',
    probe: async (m) => [
      await withConnection(m, { is_domain_connection: 1 }),
      await withConnection(m, { is_domain_connection: 2 }),
      await withConnection(m, { is_domain_connection: true }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho14-domain-verification-empty-defaulted',
    probe: async (m) => [
      await ticketStatus(m, { domain_aliases_config: { domain_verification: '' } }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'maybe' } }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'none' } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  // Authorization
  {
    id: 'ho14-scope-action-ladder',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'delete:event_deliveries')),
      await redeliver(m, await withScope(m, 'create:event_deliveries')),
      await redeliver(m, await withScope(m, 'delete:event_streams')),
      await redeliver(m, await withScope(m, 'update:event_deliveries')),
    ],
    conformant: [403, 403, 403, 202],
    faulted: [202, 202, 403, 202],
  },
  {
    id: 'ho14-vault-any-action-reads',
    probe: async (m) => [
      await readVault(m, await withScope(m, 'update:flows_vault_connections')),
      await readVault(m, await withScope(m, 'update:flows')),
      await readVault(m, await withScope(m, 'read:flows_vault_connections')),
    ],
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho14-ticket-scope-from-connections',
    probe: async (m) => [
      await ticketWith(m, await withScope(m, 'create:connections')),
      await ticketWith(m, await withScope(m, 'read:connections')),
      await ticketWith(m, await withScope(m, 'create:sso_access_tickets')),
    ],
    conformant: [403, 403, 201],
    faulted: [201, 403, 201],
  },
  // Requests
  {
    id: 'ho14-custom-domain-trailing-dot-dropped',
    probe: async (m) => [
      await ticketOn(m, `${domainOf(255)}.`),
      await ticketOn(m, `${domainOf(256)}.`),
      await ticketOn(m, domainOf(256)),
      await ticketOn(m, domainOf(255)),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho14-options-answered-by-cors',
    probe: async (m) => [
      status(await call(m, 'OPTIONS', vaultPath(ids(m).vault), { token: await globalToken(m) })),
      status(await call(m, 'PATCH', vaultPath(ids(m).vault), { token: await globalToken(m) })),
    ],
    conformant: [405, 405],
    faulted: [204, 405],
  },
  // The token endpoint
  {
    id: 'ho14-secret-cut-to-stored-length',
    probe: async (m) => {
      const secret = client(m, 'global').client_secret;
      return [
        await tokenStatus(m, { client_secret: `${secret}x` }),
        await tokenStatus(m, { client_secret: changedLast(secret) }),
        await tokenStatus(m, {}),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho14-client-id-collation-folded',
    probe: async (m) => {
      const id = client(m, 'global').client_id;
      const swapped = id === id.toUpperCase() ? id.toLowerCase() : id.toUpperCase();
      return [await tokenStatus(m, { client_id: swapped }), await tokenStatus(m, { client_id: changedLast(id) }), await tokenStatus(m, {})];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho14-jwks-exponent-four-bytes',
    probe: async (m) => {
      const [key] = fieldsOf(await call(m, 'GET', '/.well-known/jwks.json')).keys as Array<Record<string, unknown>>;
      return [key!.e, typeof key!.n];
    },
    conformant: ['AQAB', 'string'],
    faulted: ['AAEAAQ', 'string'],
  },
  // Success answers
  {
    id: 'ho14-vault-ready-from-string-cache',
    probe: async (m) => [(await record(m)).ready, (await record(m, ids(m).notReadyVault)).ready],
    conformant: [true, false],
    faulted: ['true', 'false'],
  },
  {
    id: 'ho14-vault-updated-at-touched-on-read',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      const first = await record(m);
      advance(m, 5000);
      const second = await record(m);
      return [first.updated_at === second.updated_at, first.created_at === second.created_at];
    },
    conformant: [true, true],
    faulted: [false, true],
  },
  {
    id: 'ho14-ticket-url-double-slash',
    probe: async (m) => {
      const url = new URL(fieldsOf(await createTicket(m, {})).ticket as string);
      return [url.pathname, url.searchParams.get('ticket')?.length];
    },
    conformant: ['/self-service/connections-flow', 32],
    faulted: ['//self-service/connections-flow', 32],
  },
  // State and errors
  {
    id: 'ho14-stream-id-collation-folded',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await redeliver(m, token, caseSwapped(ids(m).stream)),
        await redeliver(m, token, unknownLike(ids(m).stream)),
        await redeliver(m, token),
      ];
    },
    conformant: [404, 404, 202],
    faulted: [202, 404, 202],
  },
  {
    id: 'ho14-unknown-stream-event-message',
    probe: async (m) => {
      const token = await globalToken(m);
      const stream = await redeliverAnswer(m, token, unknownLike(ids(m).stream));
      const event = await redeliverAnswer(m, token, ids(m).stream, unknownLike(ids(m).failedEvent));
      return [status(stream), messageOf(stream), status(event), messageOf(event)];
    },
    conformant: [404, 'The requested stream does not exist.', 404, 'The requested event does not exist.'],
    faulted: [404, 'The requested event does not exist.', 404, 'The requested event does not exist.'],
  },
  // The rate limiter
  {
    id: 'ho14-bucket-per-credential',
    options: bucketOf(2),
    probe: async (m) => {
      const fresh = [];
      for (let n = 0; n < 3; n += 1) fresh.push(await readVault(m, await freshToken(m, n)));
      return fresh;
    },
    conformant: [200, 200, 429],
    faulted: [200, 200, 200],
  },
  {
    id: 'ho14-remaining-rounded',
    options: CLOCKED_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      await read(m, token);
      await read(m, token);
      advance(m, 600);
      const refused = await read(m, token);
      return [status(refused), refused.headers['x-ratelimit-remaining']];
    },
    conformant: [429, '0'],
    faulted: [429, '1'],
  },
  // More of every family
  {
    id: 'ho14-access-token-query-parameter',
    probe: async (m) => {
      const token = await globalToken(m);
      const vault = vaultPath(ids(m).vault);
      return [
        status(await call(m, 'GET', `${vault}?access_token=${token}`)),
        status(await call(m, 'GET', `${vault}?access_token=${changedInSignature(token)}`)),
        status(await call(m, 'GET', vault, { token })),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho14-use-for-discovery-yaml-words',
    probe: async (m) => [
      await ticketStatus(m, { use_for_organization_discovery: 'yes' }),
      await ticketStatus(m, { use_for_organization_discovery: 'off' }),
      await ticketStatus(m, { use_for_organization_discovery: 'maybe' }),
      await ticketStatus(m, { use_for_organization_discovery: true }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho14-domain-aliases-config-truthy-check',
    probe: async (m) => [
      await ticketStatus(m, { domain_aliases_config: null }),
      await ticketStatus(m, { domain_aliases_config: false }),
      await ticketStatus(m, { domain_aliases_config: 'none' }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'none' } }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho14-connection-id-relation-object',
    probe: async (m) => [
      await ticketStatus(m, { connection_id: { id: ids(m).connection } }),
      await ticketStatus(m, { connection_id: { name: ids(m).connection } }),
      await ticketStatus(m, { connection_id: ids(m).connection }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho14-authorizequery-question-mark-dropped',
    probe: async (m) => {
      const query = (length: number) => `?${'a'.repeat(length - 1)}`;
      return [
        await withConnection(m, { options: { idpinitiated: { client_authorizequery: query(257) } } }),
        await withConnection(m, { options: { idpinitiated: { client_authorizequery: query(258) } } }),
        await withConnection(m, { options: { idpinitiated: { client_authorizequery: 'a'.repeat(257) } } }),
        await withConnection(m, { options: { idpinitiated: { client_authorizequery: query(256) } } }),
      ];
    },
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho14-client-protocol-saml-alias',
    probe: async (m) => [
      await withConnection(m, { options: { idpinitiated: { client_protocol: 'saml' } } }),
      await withConnection(m, { options: { idpinitiated: { client_protocol: 'saml2' } } }),
      await withConnection(m, { options: { idpinitiated: { client_protocol: 'samlp' } } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho14-scope-plus-separated',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'read:event_streams+update:event_deliveries')),
      await redeliver(m, await withScope(m, 'read:event_streams+update:event_streams')),
      await redeliver(m, await withScope(m, 'read:event_streams update:event_deliveries')),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho14-event-id-pattern-unanchored',
    probe: async (m) => {
      const token = await globalToken(m);
      const event = ids(m).failedEvent;
      return [
        await redeliver(m, token, ids(m).stream, `${event}A`),
        await redeliver(m, token, ids(m).stream, `${event}${'A'.repeat(7)}`),
        await redeliver(m, token),
      ];
    },
    conformant: [400, 400, 202],
    faulted: [404, 400, 202],
  },
  {
    id: 'ho14-audience-query-dropped',
    probe: async (m) => {
      const audience = String((await claimsOf(m)).aud);
      return [
        await tokenStatus(m, { audience: `${audience}?env=prod` }),
        await tokenStatus(m, { audience: `${audience.replace('/api/v2/', '/api/v3/')}?env=prod` }),
        await tokenStatus(m, { audience }),
      ];
    },
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho14-vault-name-title-cased',
    probe: async (m) => [(await record(m)).name, (await record(m, ids(m).plainVault)).name],
    conformant: ['Team notifications', 'Order webhook'],
    faulted: ['Team Notifications', 'Order Webhook'],
  },
  {
    id: 'ho14-redeliver-body-null',
    probe: async (m) => {
      const answer = await redeliverAnswer(m, await globalToken(m));
      return [status(answer), answer.json];
    },
    conformant: [202, {}],
    faulted: [202, null],
  },
  {
    id: 'ho14-429-library-default-message',
    options: bucketOf(1),
    probe: async (m) => {
      const token = await globalToken(m);
      await read(m, token);
      const refused = await read(m, token);
      return [status(refused), messageOf(refused), fieldsOf(refused).errorCode];
    },
    conformant: [429, 'Global limit has been reached', 'too_many_requests'],
    faulted: [429, 'Too many requests, please try again later.', 'too_many_requests'],
  },
  {
    id: 'ho14-bucket-per-operation',
    options: bucketOf(2),
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readVault(m, token), await readVault(m, token), await ticketWith(m, token), await readVault(m, token)];
    },
    conformant: [200, 200, 429, 429],
    faulted: [200, 200, 201, 429],
  },
  {
    id: 'ho14-reset-fractional-seconds',
    options: () => ({ clock: new ManualClock(Date.UTC(2025, 0, 1, 0, 0, 5, 0)), rateLimit: { bucketSize: 10, refillPerSecond: 2 } }),
    probe: async (m) => {
      const answer = await read(m, await globalToken(m));
      return [status(answer), answer.headers['x-ratelimit-reset']];
    },
    conformant: [200, String(Date.UTC(2025, 0, 1, 0, 0, 6) / 1000)],
    faulted: [200, String(Date.UTC(2025, 0, 1, 0, 0, 5, 500) / 1000)],
  },
  {
    id: 'ho14-invalid-client-400-for-body-credentials',
    probe: async (m) => {
      const { client_id, client_secret } = client(m, 'global');
      const basic = `Basic ${Buffer.from(`${client_id}:${changedLast(client_secret)}`).toString('base64')}`;
      const { client_id: _id, client_secret: _secret, ...rest } = tokenRequest(m, 'global');
      return [
        await tokenStatus(m, { client_secret: changedLast(client_secret) }),
        status(await call(m, 'POST', '/oauth/token', { body: rest, headers: { authorization: basic } })),
        await tokenStatus(m, {}),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [400, 401, 200],
  },
  {
    id: 'ho14-trailing-slash-redirected',
    probe: async (m) => [
      status(await call(m, 'POST', '/oauth/token/', { body: tokenRequest(m, 'global') })),
      status(await call(m, 'POST', '/oauth/token', { body: tokenRequest(m, 'global') })),
    ],
    conformant: [200, 200],
    faulted: [308, 200],
  },
  {
    id: 'ho14-vault-not-found-names-id',
    probe: async (m) => {
      const id = unknownLike(ids(m).vault);
      const answer = await read(m, await globalToken(m), id);
      return [status(answer), messageOf(answer).replace(id, '<id>')];
    },
    conformant: [404, 'Connection not found'],
    faulted: [404, 'Connection not found: <id>'],
  },
  {
    id: 'ho14-error-phrase-from-class-name',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m), unknownLike(ids(m).vault));
      return [status(answer), fieldsOf(answer).error];
    },
    conformant: [404, 'Not Found'],
    faulted: [404, 'NotFoundError'],
  },
  {
    id: 'ho14-ttl-sec-expiry-date',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: new Date(m.clock.now() + 3_600_000).toISOString() }),
      await ticketStatus(m, { ttl_sec: 'tomorrow' }),
      await ticketStatus(m, { ttl_sec: 3600 }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho14-429-limit-from-empty-quota',
    options: bucketOf(1),
    probe: async (m) => {
      const token = await globalToken(m);
      const first = await read(m, token);
      const refused = await read(m, token);
      return [status(first), first.headers['x-ratelimit-limit'], status(refused), refused.headers['x-ratelimit-limit']];
    },
    conformant: [200, '1', 429, '1'],
    faulted: [200, '1', 429, '0'],
  },
  {
    id: 'ho14-remaining-read-before-take',
    options: bucketOf(2),
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [await read(m, token), await read(m, token), await read(m, token)];
      return answers.map((answer) => [status(answer), answer.headers['x-ratelimit-remaining']]);
    },
    conformant: [
      [200, '1'],
      [200, '0'],
      [429, '0'],
    ],
    faulted: [
      [200, '2'],
      [200, '1'],
      [429, '0'],
    ],
  },
];

heldOutRoundTests({
  name: 'the fourteenth held-out round',
  prefix: 'ho14-',
  faults: heldOutRound14Faults,
  least: { faults: 43, contract: 22 },
  probes,
  signingKey,
});
