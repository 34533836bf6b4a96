// The third round of held-out faults (mock/faults/held-out/round-3/): kept apart from the gate's
// catalogue and from the first two rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the fault's near miss to
// a conformant mock and to a faulted one, and the two answers differ as the row says (and, where
// the fault lets only the near value through, a clearly wrong value is still refused by both). A
// fault that changed nothing would count as a survivor of the suite for no reason; this rules that
// out.
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decodeJwt } from 'jose';
import { observed } from '../../specs/index.ts';
import { heldOutRound3Faults } from '../faults/held-out/round-3/catalogue.ts';
import { type MockServer } from '../index.ts';
import { claimsOf, jws, signedAsIs as signed } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, tokenFor, tokenRequest, type Answer } from './support/http.ts';
import {
  advance,
  createTicket,
  fieldsOf,
  fixtureClientId,
  globalToken,
  hostOf,
  ids,
  MANUAL_CLOCK,
  ORGANIZATION,
  probeKeyFile,
  read,
  readVault,
  redeliver,
  redeliverAnswer,
  redeliverPath,
  REPORTS_API,
  status,
  ticketPathOf,
  ticketStatus,
  TINY_BUCKET,
  tokenAnswer,
  unknownLike,
  vaultPath,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-3');

/** The private key of the fixtures' private_key_jwt client (a public development key of the mock). */
const clientKey = createPrivateKey(readFileSync(new URL('../fixtures/private-key-jwt-client.key.pem', import.meta.url), 'utf8'));
/** A key nobody registered. */
const strangerKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

/** A connection name no fixture uses. */
const NEW_CONNECTION = 'new-partner-sso';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A host name of `length` characters: labels of at most 63 letters. */
const hostName = (length: number) => {
  const labels: string[] = [];
  for (let left = length; left > 0; left -= 64) labels.push('a'.repeat(Math.min(63, left)));
  const name = labels.join('.');
  return name.length === length ? name : `${name}${'b'.repeat(length - name.length)}`;
};

const messageOf = (answer: Answer) => (answer.json as { message?: unknown } | undefined)?.message;
const formTokenAnswer = (mock: MockServer, form: string) => call(mock, 'POST', '/oauth/token', { body: form, headers: FORM });

const probes: Probe[] = [
  // Token verification
  {
    id: 'ho3-token-without-iss-accepted',
    probe: async (m) => {
      const { iss: _iss, ...claims } = await claimsOf(m);
      return [
        await readVault(m, signed(m, claims)),
        await readVault(m, signed(m, { ...claims, iss: 'https://other-tenant.example.net/' })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho3-audience-found-with-includes',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signed(m, { ...claims, aud: `${REPORTS_API}?for=${m.audience}` })),
        await readVault(m, signed(m, { ...claims, aud: REPORTS_API })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho3-client-keys-verify-access-tokens',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await redeliver(m, jws({ alg: 'RS256', typ: 'JWT', kid: 'client-key' }, claims, clientKey)),
        await redeliver(m, jws({ alg: 'RS256', typ: 'JWT', kid: 'client-key' }, claims, strangerKey)),
      ];
    },
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho3-caller-from-client-id-claim',
    probe: async (m) => {
      const claims = await claimsOf(m, 'non-global');
      return [
        await redeliver(m, signed(m, { ...claims, client_id: fixtureClientId(m, 'global') })),
        await redeliver(m, signed(m, { ...claims, client_id: unknownLike(fixtureClientId(m, 'global')) })),
      ];
    },
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho3-sub-suffix-optional',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const azp = String(claims.azp);
      return [await readVault(m, signed(m, { ...claims, sub: azp })), await readVault(m, signed(m, { ...claims, sub: `${azp}@users` }))];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho3-kid-matched-by-its-start',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signed(m, claims, { kid: m.keys.kid.slice(0, 8) })),
        await readVault(m, signed(m, claims, { kid: `x${m.keys.kid}` })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  // Ticket body
  {
    id: 'ho3-connection-id-object-unwrapped',
    probe: async (m) => [
      await ticketStatus(m, { connection_id: { id: ids(m).connection } }),
      await ticketStatus(m, { connection_id: { name: ids(m).connection } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho3-connection-config-name-shorthand',
    probe: async (m) => [await ticketStatus(m, { connection_config: NEW_CONNECTION }), await ticketStatus(m, { connection_config: 42 })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho3-enabled-clients-comma-separated',
    probe: async (m) => [
      await ticketStatus(m, { enabled_clients: `${fixtureClientId(m, 'global')},${fixtureClientId(m, 'non-global')}` }),
      await ticketStatus(m, { enabled_clients: 5 }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho3-enabled-organizations-unread-with-connection-id',
    probe: async (m) => [
      await ticketStatus(m, { connection_id: ids(m).connection, enabled_organizations: ORGANIZATION }),
      await ticketStatus(m, { enabled_organizations: ORGANIZATION }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho3-ttl-sec-range-unchecked-in-forms',
    probe: async (m) => [
      status(await createTicket(m, 'ttl_sec=432001', undefined, FORM)),
      await ticketStatus(m, { ttl_sec: 432001 }),
      status(await createTicket(m, 'ttl_sec=soon', undefined, FORM)),
    ],
    conformant: [400, 400, 400],
    faulted: [201, 400, 400],
  },
  {
    id: 'ho3-provisioning-config-true-as-defaults',
    probe: async (m) => [await ticketStatus(m, { provisioning_config: true }), await ticketStatus(m, { provisioning_config: 'yes' })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho3-provisioning-scopes-space-separated',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: 'get:users post:users' } }),
      await ticketStatus(m, { provisioning_config: { scopes: 7 } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho3-token-lifetime-duration-string',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime: '1h' } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime: 'forever' } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho3-enabled-features-list-of-names',
    probe: async (m) => [
      await ticketStatus(m, { connection_id: ids(m).connection, enabled_features: ['sso', 'provisioning'] }),
      await ticketStatus(m, { connection_id: ids(m).connection, enabled_features: 'sso' }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho3-newest-description-field-refused',
    probe: async (m) => [
      await ticketStatus(m, { third_party_client_access_config: { allow_configuration: true } }),
      await ticketStatus(m, {}),
    ],
    conformant: [201, 201],
    faulted: [400, 201],
  },
  {
    id: 'ho3-pending-domains-length-in-bytes',
    probe: async (m) => {
      const domains = (domain: string) => ({ domain_aliases_config: { domain_verification: 'none', pending_domains: [domain] } });
      const international = `münchen.${hostName(255 - 'münchen.'.length)}`;
      return [
        await ticketStatus(m, domains(international)),
        await ticketStatus(m, domains(hostName(255))),
        await ticketStatus(m, domains(hostName(256))),
      ];
    },
    conformant: [201, 201, 400],
    faulted: [400, 201, 400],
  },
  // Authorization
  {
    id: 'ho3-redeliver-scope-qualified-by-api',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await redeliver(m, signed(m, { ...claims, scope: `${REPORTS_API}update:event_deliveries` })),
        await redeliver(m, signed(m, { ...claims, scope: `${REPORTS_API}read:event_deliveries` })),
      ];
    },
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho3-empty-scope-answered-401',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await redeliver(m, signed(m, { ...claims, scope: '' })),
        await redeliver(m, signed(m, { ...claims, scope: 'read:event_streams' })),
      ];
    },
    conformant: [403, 403],
    faulted: [401, 403],
  },
  {
    id: 'ho3-redeliver-scope-before-global-rule',
    probe: async (m) => [
      await redeliver(m, await tokenFor(m, 'non-global', 'read:flows_vault_connections')),
      await redeliver(m, await tokenFor(m, 'non-global')),
    ],
    conformant: [401, 401],
    faulted: [403, 401],
  },
  // Requests and ids
  {
    id: 'ho3-base-path-any-version',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        status(await call(m, 'GET', vaultPath(ids(m).vault).replace('/api/v2/', '/api/v1/'), { token })),
        status(await call(m, 'GET', vaultPath(ids(m).vault).replace('/api/v2/', '/api/v3/'), { token })),
        status(await call(m, 'GET', vaultPath(ids(m).vault).replace('/api/v2/', '/api/latest/'), { token })),
      ];
    },
    conformant: [404, 404, 404],
    faulted: [200, 200, 404],
  },
  {
    id: 'ho3-vault-jwt-scheme-accepted',
    probe: async (m) => {
      const token = await globalToken(m);
      const as = (authorization: string) => ({ headers: { authorization } });
      return [
        status(await call(m, 'GET', vaultPath(ids(m).vault), as(`JWT ${token}`))),
        status(await call(m, 'GET', vaultPath(ids(m).vault), as(`Basic ${token}`))),
        status(await call(m, 'POST', redeliverPath(ids(m).stream, ids(m).failedEvent), as(`JWT ${token}`))),
      ];
    },
    conformant: [401, 401, 401],
    faulted: [200, 401, 401],
  },
  {
    id: 'ho3-ticket-token-from-cookie',
    probe: async (m) => {
      const cookie = (value: string) => ({ body: {}, headers: { cookie: `theme=dark; access_token=${value}` } });
      return [
        status(await call(m, 'POST', ticketPathOf(m), cookie(await globalToken(m)))),
        status(await call(m, 'POST', ticketPathOf(m), cookie('not-a-token'))),
      ];
    },
    conformant: [401, 401],
    faulted: [201, 401],
  },
  {
    id: 'ho3-custom-domain-root-dot-stripped',
    probe: async (m) => [
      status(await createTicket(m, {}, undefined, { 'tenant-custom-domain': `${hostName(255)}.` })),
      status(await createTicket(m, {}, undefined, { 'tenant-custom-domain': hostName(256) })),
      status(await createTicket(m, {}, undefined, { 'tenant-custom-domain': hostName(255) })),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho3-event-id-format-extension-stripped',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await redeliver(m, token, ids(m).stream, `${ids(m).failedEvent}.json`),
        await redeliver(m, token, ids(m).stream, `${ids(m).failedEvent}.bin`),
      ];
    },
    conformant: [400, 400],
    faulted: [202, 400],
  },
  {
    id: 'ho3-ticket-created-on-put',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        status(await call(m, 'PUT', ticketPathOf(m), { token, body: {} })),
        status(await call(m, 'DELETE', ticketPathOf(m), { token })),
      ];
    },
    conformant: [405, 405],
    faulted: [201, 405],
  },
  {
    id: 'ho3-missing-event-read-as-wrong-state',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await redeliver(m, token, ids(m).stream, unknownLike(ids(m).failedEvent)),
        await redeliver(m, token, unknownLike(ids(m).stream), ids(m).failedEvent),
        await redeliver(m, token, ids(m).stream, ids(m).deliveredEvent),
      ];
    },
    conformant: [404, 404, 409],
    faulted: [409, 404, 409],
  },
  {
    id: 'ho3-vault-id-nfkc-normalised',
    probe: async (m) => {
      const token = await globalToken(m);
      const fullWidth = (id: string) =>
        encodeURIComponent(`${id.slice(0, 3)}${String.fromCodePoint(id.codePointAt(3)! + 0xfee0)}${id.slice(4)}`);
      const answer = await read(m, token, fullWidth(ids(m).vault));
      return [answer.status, fieldsOf(answer).id === ids(m).vault, await readVault(m, token, fullWidth(unknownLike(ids(m).vault)))];
    },
    conformant: [400, false, 400],
    faulted: [200, true, 404],
  },
  {
    id: 'ho3-redeliver-repeat-answered-200',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await redeliver(m, token),
        await redeliver(m, token),
        await redeliver(m, token, ids(m).otherStream, m.fixtures.data.event_streams![1]!.events[0]!.id),
      ];
    },
    conformant: [202, 202, 202],
    faulted: [202, 200, 202],
  },
  // Token endpoint
  {
    id: 'ho3-token-client-id-cut-to-column',
    probe: async (m) => [
      status(await tokenAnswer(m, { client_id: `${fixtureClientId(m, 'global')}x` })),
      status(await tokenAnswer(m, { client_id: unknownLike(fixtureClientId(m, 'global')) })),
    ],
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho3-token-grant-type-matched-by-its-end',
    probe: async (m) => [
      status(await tokenAnswer(m, { grant_type: 'urn:ietf:params:oauth:grant-type:client_credentials' })),
      status(await tokenAnswer(m, { grant_type: 'password' })),
    ],
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho3-token-audience-http-upgraded',
    probe: async (m) => [
      status(await tokenAnswer(m, { audience: m.audience.replace('https://', 'http://') })),
      status(await tokenAnswer(m, { audience: m.audience.replace('https://', 'ftp://') })),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho3-token-scope-case-insensitive',
    probe: async (m) => {
      const asked = await tokenAnswer(m, { scope: 'UPDATE:EVENT_DELIVERIES' });
      const token = fieldsOf(asked).access_token;
      return [
        asked.status,
        typeof token === 'string' ? decodeJwt(token).scope : undefined,
        status(await tokenAnswer(m, { scope: 'UPDATE:EVENT_STREAMS' })),
      ];
    },
    conformant: [403, undefined, 403],
    faulted: [200, 'UPDATE:EVENT_DELIVERIES', 403],
  },
  {
    id: 'ho3-token-secret-unchecked-for-json',
    probe: async (m) => [
      status(await tokenAnswer(m, { client_secret: 'not-the-secret' })),
      status(await formTokenAnswer(m, new URLSearchParams(tokenRequest(m, 'global', { client_secret: 'not-the-secret' })).toString())),
    ],
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho3-token-form-plus-kept',
    probe: async (m) => {
      const form = new URLSearchParams(
        tokenRequest(m, 'global', { scope: 'read:flows_vault_connections update:event_deliveries' }),
      ).toString();
      return [status(await formTokenAnswer(m, form)), status(await formTokenAnswer(m, form.replace(/\+/g, '%20')))];
    },
    conformant: [200, 200],
    faulted: [403, 200],
  },
  {
    id: 'ho3-token-cache-keyed-without-client',
    probe: async (m) => {
      await globalToken(m);
      const token = await tokenFor(m, 'without-redeliver-scope');
      return [
        decodeJwt(token).azp === fixtureClientId(m, 'without-redeliver-scope'),
        await redeliver(m, token),
        status(await tokenAnswer(m, { client_secret: 'not-the-secret' }, 'without-redeliver-scope')),
      ];
    },
    conformant: [true, 403, 401],
    faulted: [false, 202, 401],
  },
  {
    id: 'ho3-token-answer-scope-comma-joined',
    probe: async (m) => {
      const answer = fieldsOf(await tokenAnswer(m, {}));
      return [String(answer.scope).includes(','), String(decodeJwt(answer.access_token as string).scope).includes(',')];
    },
    conformant: [false, false],
    faulted: [true, false],
  },
  // Success answers
  {
    id: 'ho3-vault-record-in-a-list',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m));
      return [answer.status, Array.isArray(answer.json)];
    },
    conformant: [200, false],
    faulted: [200, true],
  },
  {
    id: 'ho3-vault-ready-as-bit',
    probe: async (m) => {
      const token = await globalToken(m);
      return [fieldsOf(await read(m, token)).ready, fieldsOf(await read(m, token, ids(m).minimalVault)).ready];
    },
    conformant: [true, false],
    faulted: [1, 0],
  },
  {
    id: 'ho3-vault-name-decorated-with-environment',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        String(fieldsOf(await read(m, token, ids(m).longestVault)).name).length <= 150,
        fieldsOf(await read(m, token, ids(m).minimalVault)).name,
      ];
    },
    conformant: [true, 'Order webhook'],
    faulted: [false, 'Order webhook'],
  },
  {
    id: 'ho3-vault-timestamps-with-offset',
    probe: async (m) => fieldsOf(await read(m, await globalToken(m))).created_at,
    conformant: '2024-09-12T12:52:16.553Z',
    faulted: '2024-09-12T12:52:16.553+00:00',
  },
  {
    id: 'ho3-ticket-versioned-media-type',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      return [answer.status, answer.headers['content-type']];
    },
    conformant: [201, observed.content_type],
    faulted: [201, 'application/vnd.management.v2+json; charset=utf-8'],
  },
  {
    id: 'ho3-ticket-url-relative',
    probe: async (m) => URL.canParse(fieldsOf(await createTicket(m, {})).ticket as string),
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho3-ticket-url-double-slash',
    probe: async (m) => {
      const ticket = fieldsOf(await createTicket(m, {})).ticket as string;
      return [URL.canParse(ticket), /^https:\/\/[^/]+\/self-service\/connections-flow\?ticket=[A-Za-z0-9]{32}$/.test(ticket)];
    },
    conformant: [true, true],
    faulted: [true, false],
  },
  {
    id: 'ho3-ticket-host-cached-per-profile',
    probe: async (m) => [
      hostOf(await createTicket(m, {}, undefined, { 'tenant-custom-domain': 'login.acme.example' })),
      hostOf(await createTicket(m, {}, undefined, { 'tenant-custom-domain': 'sso.partner.example' })),
    ],
    conformant: ['login.acme.example', 'sso.partner.example'],
    faulted: ['login.acme.example', 'login.acme.example'],
  },
  {
    id: 'ho3-redeliver-202-body-null',
    probe: async (m) => {
      const answer = await redeliverAnswer(m, await globalToken(m));
      return [answer.status, answer.text];
    },
    conformant: [202, '{}'],
    faulted: [202, 'null'],
  },
  // Rate limit and error answers
  {
    id: 'ho3-bucket-hands-out-one-more',
    options: () => ({ ...TINY_BUCKET, ...MANUAL_CLOCK() }),
    probe: async (m) => {
      const token = await globalToken(m);
      await read(m, token);
      const second = await read(m, token);
      return [second.headers['x-ratelimit-remaining'], await redeliver(m, token), await redeliver(m, token)];
    },
    conformant: ['0', 429, 429],
    faulted: ['0', 202, 429],
  },
  {
    id: 'ho3-bucket-refill-uncapped',
    options: () => ({ rateLimit: { bucketSize: 2, refillPerSecond: 1 }, ...MANUAL_CLOCK() }),
    probe: async (m) => {
      const token = await globalToken(m);
      const first = await read(m, token);
      advance(m, 10_000);
      const later = await read(m, token);
      return [first.headers['x-ratelimit-remaining'], later.headers['x-ratelimit-limit'], later.headers['x-ratelimit-remaining']];
    },
    conformant: ['1', '2', '1'],
    faulted: ['1', '2', '10'],
  },
  {
    id: 'ho3-bucket-per-credential',
    options: () => ({ ...TINY_BUCKET, ...MANUAL_CLOCK() }),
    probe: async (m) => {
      const token = await globalToken(m);
      const other = await tokenFor(m, 'global', 'read:flows_vault_connections');
      const answers = [await read(m, token), await read(m, token), await read(m, token), await read(m, other)];
      return answers.map((answer) => [answer.status, answer.headers['x-ratelimit-remaining']]);
    },
    conformant: [
      [200, '1'],
      [200, '0'],
      [429, '0'],
      [429, '0'],
    ],
    faulted: [
      [200, '1'],
      [200, '0'],
      [429, '0'],
      [200, '1'],
    ],
  },
  {
    id: 'ho3-reset-with-fraction',
    options: MANUAL_CLOCK,
    probe: async (m) => /^\d+$/.test((await read(m, await globalToken(m))).headers['x-ratelimit-reset'] ?? ''),
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho3-validation-messages-as-lists',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        typeof messageOf(await createTicket(m, { ttl_sec: 432001 }, token)),
        typeof messageOf(await read(m, token, `${ids(m).vault}!`)),
        typeof messageOf(await read(m, token, unknownLike(ids(m).vault))),
      ];
    },
    conformant: ['string', 'string', 'string'],
    faulted: ['object', 'object', 'string'],
  },
  {
    id: 'ho3-errors-as-problem-json',
    probe: async (m) => {
      const token = await globalToken(m);
      return [(await read(m, token, unknownLike(ids(m).vault))).headers['content-type'], (await read(m, token)).headers['content-type']];
    },
    conformant: [observed.content_type, observed.content_type],
    faulted: ['application/problem+json; charset=utf-8', observed.content_type],
  },
  {
    id: 'ho3-403-names-the-scopes-held',
    probe: async (m) => {
      const answer = await read(m, await tokenFor(m, 'without-vault-scope'));
      return [answer.status, String(messageOf(answer)).endsWith(': read:flows_vault_connections')];
    },
    conformant: [403, true],
    faulted: [403, false],
  },
  {
    id: 'ho3-vault-anonymous-answered-404',
    probe: async (m) => [
      status(await call(m, 'GET', vaultPath(ids(m).vault))),
      status(await call(m, 'GET', vaultPath(ids(m).vault), { headers: { authorization: 'Bearer not.a.token' } })),
    ],
    conformant: [401, 401],
    faulted: [404, 401],
  },
];

heldOutRoundTests({
  name: 'the third held-out round',
  prefix: 'ho3-',
  faults: heldOutRound3Faults,
  least: { faults: 45, contract: 30 },
  probes,
  signingKey,
});
