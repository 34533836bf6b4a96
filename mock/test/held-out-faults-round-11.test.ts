// The eleventh round of held-out faults (mock/faults/held-out/round-11/): kept apart from the
// gate's catalogue and from the first ten rounds, each row naming a clause of the registry at its
// own level, and each fault shown to do what its bug line says: a probe sends the fault's near miss
// to a conformant mock and to a faulted one, and the two answers differ as the row says (and, where
// the fault lets only the near value through, a plainly wrong value is still refused by both). A
// fault that changed nothing would count as a survivor of the suite for no reason; this rules that
// out.
import { decodeJwt } from 'jose';
import { heldOutRound11Faults } from '../faults/held-out/round-11/catalogue.ts';
import { ManualClock, type MockServer } from '../index.ts';
import { claimsOf, signedAsIs as signed, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor, tokenRequest } from './support/http.ts';
import {
  anonymousRead,
  createTicket,
  fieldsOf,
  FORM,
  globalToken,
  ids,
  JSON_TYPE,
  messageOf,
  nowSeconds,
  probeKeyFile,
  withScope,
  read,
  readVault,
  record,
  redeliverPath,
  replacedAt,
  status,
  ticketPath,
  ticketStatus,
  tokenStatus,
  unknownLike,
  vaultPath,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-11');

/** The token with the letters of its signature in the other case. */
const signatureCaseSwapped = (token: string) => {
  const [header, payload, signature = ''] = token.split('.');
  const swapped = signature.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
  return `${header}.${payload}.${swapped}`;
};

const isoAt = (seconds: number) => new Date(seconds * 1000).toISOString();
const redeliver = async (mock: MockServer, token: string, event = ids(mock).failedEvent, stream = ids(mock).stream) =>
  status(await call(mock, 'POST', redeliverPath(stream, event), { token }));
/** A ticket request whose JSON text is given as it is (numbers no JavaScript value holds exactly). */
const ticketStatusOfText = async (mock: MockServer, text: string) =>
  status(await createTicket(mock, text, undefined, { 'content-type': JSON_TYPE }));
const probes: Probe[] = [
  // Token verification
  {
    id: 'ho11-token-from-websocket-protocol',
    probe: async (m) => {
      const token = await globalToken(m);
      const viaProtocol = async (credential: string) =>
        status(await call(m, 'GET', vaultPath(ids(m).vault), { headers: { 'sec-websocket-protocol': `access_token, ${credential}` } }));
      return [await viaProtocol(token), await viaProtocol(withTamperedSignature(token)), await readVault(m, token)];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho11-exp-date-string-parsed',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const now = nowSeconds(m);
      return [
        await readVault(m, signed(m, { ...claims, exp: isoAt(now + 3600) })),
        await readVault(m, signed(m, { ...claims, exp: isoAt(now - 3600) })),
        await readVault(m, signed(m, { ...claims, exp: 'soon' })),
      ];
    },
    conformant: [401, 401, 401],
    faulted: [200, 401, 401],
  },
  {
    id: 'ho11-iat-check-copied-from-exp',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const now = nowSeconds(m);
      return [
        await readVault(m, signed(m, { ...claims, iat: now - 3600 })),
        await readVault(m, signed(m, { ...claims, iat: now + 3600 })),
        await readVault(m, await globalToken(m)),
      ];
    },
    conformant: [200, 401, 200],
    faulted: [401, 200, 200],
  },
  {
    id: 'ho11-verified-cache-key-lowercased',
    probe: async (m) => {
      const token = await globalToken(m);
      const other = await tokenFor(m, 'without-redeliver-scope');
      return [await readVault(m, signatureCaseSwapped(other)), await readVault(m, token), await readVault(m, signatureCaseSwapped(token))];
    },
    conformant: [401, 200, 401],
    faulted: [401, 200, 200],
  },
  // Ticket body
  {
    id: 'ho11-ttl-sec-unary-plus',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: true }),
      await ticketStatus(m, { ttl_sec: false }),
      await ticketStatus(m, { ttl_sec: '3600' }),
      await ticketStatus(m, { ttl_sec: { s: 1 } }),
      await ticketStatus(m, { ttl_sec: 3600 }),
    ],
    conformant: [400, 400, 400, 400, 201],
    faulted: [201, 201, 400, 400, 201],
  },
  {
    id: 'ho11-client-ids-big-integers-as-text',
    probe: async (m) => [
      await ticketStatusOfText(m, '{"enabled_clients": [12345678901234567890123456789012]}'),
      await ticketStatusOfText(m, '{"enabled_clients": [42]}'),
      await ticketStatusOfText(m, '{"enabled_clients": ["12345678901234567890123456789012"]}'),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho11-discovery-flag-json-parsed',
    probe: async (m) => [
      await ticketStatus(m, { use_for_organization_discovery: 'true' }),
      await ticketStatus(m, { use_for_organization_discovery: 'false' }),
      await ticketStatus(m, { use_for_organization_discovery: 'yes' }),
      await ticketStatus(m, { use_for_organization_discovery: true }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho11-aliases-config-query-string',
    probe: async (m) => [
      await ticketStatus(m, { domain_aliases_config: 'domain_verification=none' }),
      await ticketStatus(m, { domain_aliases_config: 'none' }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'none' } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho11-feature-flags-generated-required',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { sso: true } }),
      await ticketStatus(m, { enabled_features: { sso: true, domain_verification: false, provisioning: false } }),
    ],
    conformant: [201, 201],
    faulted: [400, 201],
  },
  {
    id: 'ho11-token-lifetime-zero-as-default',
    probe: async (m) => {
      const lifetime = (token_lifetime: number) => ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime } });
      return [await lifetime(0), await lifetime(1), await lifetime(900)];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho11-extension-members-let-through',
    probe: async (m) => [await ticketStatus(m, { 'x-trace': 1 }), await ticketStatus(m, { trace: 1 })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho11-connection-config-json-text-revived',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: '{"name": "new-conn"}' }),
      await ticketStatus(m, { connection_config: 'new-conn' }),
      await ticketStatus(m, { connection_config: '{"name":' }),
      await ticketStatus(m, { connection_config: { name: 'new-conn' } }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho11-metadata-values-in-code-units',
    probe: async (m) => {
      const withValue = (value: string) => ticketStatus(m, { connection_config: { name: 'new-conn', metadata: { note: value } } });
      return [await withValue('\u{1F600}'.repeat(200)), await withValue('a'.repeat(256)), await withValue('a'.repeat(255))];
    },
    conformant: [201, 400, 201],
    faulted: [400, 400, 201],
  },
  {
    id: 'ho11-provisioning-scopes-enum-keys',
    probe: async (m) => {
      const scopes = (list: string[]) => ticketStatus(m, { provisioning_config: { scopes: list } });
      return [await scopes(['GetUsers']), await scopes(['get:users']), await scopes(['get:things'])];
    },
    conformant: [400, 201, 400],
    faulted: [201, 400, 400],
  },
  // Authorization
  {
    id: 'ho11-scope-predicate-assignment',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'read:event_deliveries')),
      await redeliver(m, await withScope(m, '')),
      await redeliver(m, await withScope(m, 'update:event_deliveries')),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho11-global-from-namespaced-claim',
    probe: async (m) => {
      const claims = await claimsOf(m, 'non-global');
      const claim = 'https://tenant.example.com/global';
      return [
        await redeliver(m, signed(m, { ...claims, [claim]: true })),
        await redeliver(m, signed(m, { ...claims, [claim]: false })),
        await redeliver(m, signed(m, claims)),
      ];
    },
    conformant: [401, 401, 401],
    faulted: [202, 401, 401],
  },
  {
    id: 'ho11-ticket-scope-check-not-awaited',
    probe: async (m) => [
      status(await createTicket(m, {}, await tokenFor(m, 'without-sso-ticket-scope'))),
      await readVault(m, await tokenFor(m, 'without-vault-scope')),
    ],
    conformant: [403, 403],
    faulted: [201, 403],
  },
  {
    id: 'ho11-vault-scopes-from-spec-list',
    probe: async (m) => [await readVault(m, await tokenFor(m, 'without-vault-scope')), status(await anonymousRead(m))],
    conformant: [403, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho11-scope-collator-ignores-punctuation',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'update.event-deliveries')),
      await redeliver(m, await withScope(m, 'updateevent_deliveries')),
      await redeliver(m, await withScope(m, 'read:event_deliveries')),
    ],
    conformant: [403, 403, 403],
    faulted: [202, 202, 403],
  },
  // Requests
  {
    id: 'ho11-base-path-semver-range',
    probe: async (m) => {
      const token = await globalToken(m);
      const get = async (path: string) => status(await call(m, 'GET', path, { token }));
      const id = ids(m).vault;
      return [
        await get(`/api/v2.1/flows/vault/connections/${id}`),
        await get(`/api/v2.0.0/flows/vault/connections/${id}`),
        await get(`/api/v3/flows/vault/connections/${id}`),
      ];
    },
    conformant: [404, 404, 404],
    faulted: [200, 200, 404],
  },
  {
    id: 'ho11-vault-id-pattern-i-flag',
    probe: async (m) => {
      const token = await globalToken(m);
      const vault = ids(m).vault;
      return [
        await readVault(m, token, replacedAt(vault, 8, 'I')),
        await readVault(m, token, replacedAt(vault, 8, 'l')),
        await readVault(m, token, replacedAt(vault, 8, '0')),
      ];
    },
    conformant: [400, 400, 400],
    faulted: [404, 404, 400],
  },
  // Token endpoint
  {
    id: 'ho11-token-narrowed-scopes-set-serialised',
    probe: async (m) => [
      await redeliver(m, await tokenFor(m, 'global', 'update:event_deliveries')),
      await redeliver(m, await tokenFor(m, 'global')),
    ],
    conformant: [202, 202],
    faulted: [401, 202],
  },
  {
    id: 'ho11-token-empty-previous-secret',
    probe: async (m) => [await tokenStatus(m, { client_secret: '' }), await tokenStatus(m, { client_secret: 'not-the-secret' })],
    conformant: [400, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho11-token-form-max-keys',
    probe: async (m) => {
      const { client_id, client_secret } = client(m, 'global');
      const form = (params: Record<string, string>) => new URLSearchParams(params).toString();
      const post = async (body: string) => status(await call(m, 'POST', '/oauth/token', { body, headers: { 'content-type': FORM } }));
      const credentials = { grant_type: 'client_credentials', client_id, client_secret, audience: m.audience };
      return [await post(form({ scope: 'read:event_deliveries', ...credentials })), await post(form(credentials))];
    },
    conformant: [200, 200],
    faulted: [400, 200],
  },
  {
    id: 'ho11-token-lifetime-setting-misspelled',
    probe: async (m) => {
      const answer = await call(m, 'POST', '/oauth/token', { body: tokenRequest(m, 'global') });
      const fields = fieldsOf(answer);
      const claims = decodeJwt(fields.access_token as string);
      return [fields.expires_in, claims.exp! - claims.iat!, fields.token_type];
    },
    conformant: [86400, 86400, 'Bearer'],
    faulted: [36000, 36000, 'Bearer'],
  },
  {
    id: 'ho11-token-error-description-old-key',
    probe: async (m) => {
      const answer = await call(m, 'POST', '/oauth/token', { body: tokenRequest(m, 'global', { client_secret: 'not-the-secret' }) });
      const fields = fieldsOf(answer);
      return [answer.status, fields.error, 'error_description' in fields, 'error_message' in fields];
    },
    conformant: [401, 'invalid_client', true, false],
    faulted: [401, 'invalid_client', false, true],
  },
  {
    id: 'ho11-token-form-parser-takes-any-type',
    probe: async (m) => {
      const form = new URLSearchParams(tokenRequest(m, 'global')).toString();
      return [
        status(await call(m, 'POST', '/oauth/token', { body: tokenRequest(m, 'global') })),
        status(await call(m, 'POST', '/oauth/token', { body: form, headers: { 'content-type': FORM } })),
      ];
    },
    conformant: [200, 200],
    faulted: [400, 200],
  },
  {
    id: 'ho11-token-requested-scopes-some',
    probe: async (m) => {
      const answer = await call(m, 'POST', '/oauth/token', {
        body: tokenRequest(m, 'global', { scope: 'read:event_deliveries delete:users' }),
      });
      const token = fieldsOf(answer).access_token;
      return [
        answer.status,
        typeof token === 'string' ? decodeJwt(token).scope : undefined,
        await tokenStatus(m, { scope: 'delete:users' }),
      ];
    },
    conformant: [403, undefined, 403],
    faulted: [200, 'read:event_deliveries delete:users', 403],
  },
  // Success answers
  {
    id: 'ho11-vault-app-id-numeric-enum',
    probe: async (m) => [(await record(m)).app_id, (await record(m, ids(m).bareVault)).app_id, (await record(m)).name],
    conformant: ['SLACK', 'HTTP', 'Team notifications'],
    faulted: [1, 0, 'Team notifications'],
  },
  {
    id: 'ho11-vault-id-urn-qualified',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.id === ids(m).vault, String(fields.id).length <= 30, fields.name];
    },
    conformant: [true, true, 'Team notifications'],
    faulted: [false, false, 'Team notifications'],
  },
  {
    id: 'ho11-ticket-code-base36-draws',
    probe: async (m) => {
      const ticket = new URL(fieldsOf(await createTicket(m, {})).ticket as string);
      return [ticket.searchParams.get('ticket')!.length === 32, ticket.host, ticket.pathname];
    },
    conformant: [true, 'tenant.example.com', '/self-service/connections-flow'],
    faulted: [false, 'tenant.example.com', '/self-service/connections-flow'],
  },
  {
    id: 'ho11-ticket-answered-202-from-queue',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      return [answer.status, typeof fieldsOf(answer).ticket];
    },
    conformant: [201, 'string'],
    faulted: [202, 'string'],
  },
  {
    id: 'ho11-vault-content-type-ndjson',
    probe: async (m) => [
      (await read(m, await globalToken(m))).headers['content-type'],
      (await createTicket(m, {})).headers['content-type'],
      typeof (await record(m)).id,
    ],
    conformant: ['application/json; charset=utf-8', 'application/json; charset=utf-8', 'string'],
    faulted: ['application/x-ndjson', 'application/json; charset=utf-8', 'string'],
  },
  {
    id: 'ho11-vault-created-at-zone-id',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.created_at, fields.updated_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['2024-09-12T12:52:16.553Z[UTC]', '2024-09-12T12:52:16.553Z'],
  },
  // State and errors
  {
    id: 'ho11-states-compared-by-enum-order',
    probe: async (m) => {
      const token = await globalToken(m);
      const { pendingEvent, deliveredEvent } = ids(m);
      return [await redeliver(m, token, pendingEvent), await redeliver(m, token, deliveredEvent), await redeliver(m, token)];
    },
    conformant: [409, 409, 202],
    faulted: [202, 409, 202],
  },
  {
    id: 'ho11-event-index-warmed-unawaited',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await redeliver(m, token), await redeliver(m, token)];
    },
    conformant: [202, 202],
    faulted: [404, 202],
  },
  {
    id: 'ho11-vault-404-icu-plural-zero',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m), unknownLike(ids(m).vault));
      return [answer.status, messageOf(answer)];
    },
    conformant: [404, 'Connection not found'],
    faulted: [404, 'Connections not found'],
  },
  {
    id: 'ho11-413-rfc-2616-reason-phrase',
    options: { maxBodyBytes: 256 },
    probe: async (m) => {
      const large = await createTicket(m, { connection_config: { name: 'x'.repeat(400) } });
      const small = await createTicket(m, { ttl_sec: 'abc' });
      return [large.status, fieldsOf(large).error, small.status, fieldsOf(small).error];
    },
    conformant: [413, 'Payload Too Large', 400, 'Bad Request'],
    faulted: [413, 'Request Entity Too Large', 400, 'Bad Request'],
  },
  {
    id: 'ho11-body-error-code-from-keyword',
    probe: async (m) => [
      fieldsOf(await createTicket(m, { ttl_sec: 'abc' })).errorCode,
      fieldsOf(await createTicket(m, { trace: 1 })).errorCode,
      (messageOf(await createTicket(m, { trace: 1 })) ?? '').startsWith('Payload validation error: '),
    ],
    conformant: ['invalid_body', 'invalid_body', true],
    faulted: ['type', 'additionalProperties', true],
  },
  {
    id: 'ho11-vault-missing-token-credentials-optional',
    probe: async (m) => [
      status(await anonymousRead(m)),
      status(await call(m, 'GET', vaultPath(ids(m).vault), { headers: { authorization: 'Bearer not-a-token' } })),
      status(await call(m, 'POST', ticketPath(ids(m).profile), { body: {} })),
    ],
    conformant: [401, 401, 401],
    faulted: [403, 401, 401],
  },
  {
    id: 'ho11-vault-created-at-latest-time',
    probe: async (m) => [(await record(m)).created_at, (await record(m, ids(m).bareVault)).created_at],
    conformant: ['2024-09-12T12:52:16.553Z', '2024-08-02T09:15:42.120Z'],
    faulted: ['2024-10-01T08:30:00.000Z', '2024-08-02T09:15:42.120Z'],
  },
  // Rate limit
  {
    id: 'ho11-refill-timer-delay-overflow',
    options: () => ({ clock: new ManualClock(), rateLimit: { bucketSize: 3, refillPerSecond: 1e-7 } }),
    probe: async (m) => {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i += 1) {
        statuses.push(status(await anonymousRead(m)));
        (m.clock as ManualClock).advance(1);
      }
      return statuses.filter((s) => s === 429).length;
    },
    conformant: 4,
    faulted: 0,
  },
  {
    id: 'ho11-reset-time-to-full',
    options: () => ({ clock: new ManualClock(), rateLimit: { bucketSize: 100, refillPerSecond: 1 } }),
    probe: async (m) => {
      let answer = await anonymousRead(m);
      for (let i = 1; i < 70; i += 1) answer = await anonymousRead(m);
      return [Number(answer.headers['x-ratelimit-reset']) - nowSeconds(m), answer.headers['x-ratelimit-remaining']];
    },
    conformant: [1, '30'],
    faulted: [70, '30'],
  },
  {
    id: 'ho11-headers-memoised-per-second',
    options: () => ({ clock: new ManualClock(), rateLimit: { bucketSize: 10, refillPerSecond: 0.001 } }),
    probe: async (m) => {
      const remaining: string[] = [];
      for (let i = 0; i < 3; i += 1) remaining.push((await anonymousRead(m)).headers['x-ratelimit-remaining']!);
      return remaining;
    },
    conformant: ['9', '8', '7'],
    faulted: ['9', '9', '9'],
  },
  {
    id: 'ho11-buckets-in-lru-of-one',
    options: { rateLimit: { bucketSize: 3, refillPerSecond: 0.001 } },
    probe: async (m) => {
      const anonymousRedeliver = async () => status(await call(m, 'POST', redeliverPath(ids(m).stream, ids(m).failedEvent)));
      const alternated: number[] = [];
      for (let i = 0; i < 4; i += 1) alternated.push(await anonymousRedeliver(), status(await anonymousRead(m)));
      const burst: number[] = [];
      for (let i = 0; i < 5; i += 1) burst.push(await anonymousRedeliver());
      return [alternated.filter((s) => s === 429).length, burst.filter((s) => s === 429).length];
    },
    conformant: [5, 5],
    faulted: [0, 2],
  },
];

heldOutRoundTests({
  name: 'the eleventh held-out round',
  prefix: 'ho11-',
  faults: heldOutRound11Faults,
  least: { faults: 45, contract: 23 },
  probes,
  signingKey,
});
