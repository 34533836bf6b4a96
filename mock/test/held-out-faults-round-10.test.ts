// The tenth round of held-out faults (mock/faults/held-out/round-10/): kept apart from the gate's
// catalogue and from the first nine rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the fault's near miss to
// a conformant mock and to a faulted one, and the two answers differ as the row says (and, where
// the fault lets only the near value through, a plainly wrong value is still refused by both). A
// fault that changed nothing would count as a survivor of the suite for no reason; this rules that
// out.
import { type JWTPayload } from 'jose';
import { heldOutRound10Faults } from '../faults/held-out/round-10/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs as signed, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor, tokenRequest } from './support/http.ts';
import {
  anonymousRead,
  bucketOf,
  createTicket,
  fieldsOf,
  FORM,
  globalToken,
  ids,
  messageOf,
  nowSeconds,
  PARTNER_DOMAIN,
  probeKeyFile,
  withScope,
  read,
  readAs,
  readVault,
  record,
  redeliverPath,
  replacedAt,
  REPORTS_API,
  status,
  ticketPath,
  ticketStatus,
  tokenStatus,
  unknownLike,
  vaultPath,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-10');

const ALIAS_DOMAIN = 'sso.other.example';
const TAKEN_NAME = 'acme-existing-sso';

const redeliverAnswer = async (mock: MockServer, token: string, event = ids(mock).failedEvent, stream = ids(mock).stream) =>
  call(mock, 'POST', redeliverPath(stream, event), { token });
const redeliver = async (mock: MockServer, token: string, event?: string, stream?: string) =>
  status(await redeliverAnswer(mock, token, event, stream));
const ticketOf = async (mock: MockServer, headers: Record<string, string> = {}) =>
  fieldsOf(await createTicket(mock, {}, undefined, headers)).ticket as string;
/** Without one claim. */
const without = (claims: JWTPayload, name: string): JWTPayload =>
  Object.fromEntries(Object.entries(claims).filter(([key]) => key !== name));

const probes: Probe[] = [
  // Token verification
  {
    id: 'ho10-skew-setting-concatenated',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const now = nowSeconds(m);
      const expired = signed(m, { ...claims, iat: now - 7200, exp: now - 3600 });
      return [
        await readVault(m, expired),
        await readVault(m, signed(m, { ...claims, iat: now - 90_000_000, exp: now - 31_536_000 })),
        await readVault(m, signed(m, without(claims, 'exp'))),
        await readVault(m, withTamperedSignature(expired)),
      ];
    },
    conformant: [401, 401, 401, 401],
    faulted: [200, 200, 401, 401],
  },
  {
    id: 'ho10-json-serialised-jws-accepted',
    probe: async (m) => {
      const asJson = (token: string) => {
        const [header, payload, signature] = token.split('.');
        return JSON.stringify({ protected: header, payload, signature });
      };
      const token = await globalToken(m);
      return [
        await readAs(m, `Bearer ${asJson(token)}`),
        await readAs(m, `Bearer ${asJson(withTamperedSignature(token))}`),
        await readAs(m, `Bearer ${token}`),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho10-nbf-compared-with-iat',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const now = nowSeconds(m);
      return [
        await readVault(m, signed(m, { ...without(claims, 'iat'), nbf: now + 600 })),
        await readVault(m, signed(m, { ...claims, iat: now, nbf: now + 600 })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho10-exp-list-of-one-coerced',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const now = nowSeconds(m);
      return [
        await readVault(m, signed(m, { ...claims, exp: [now + 3600] })),
        await readVault(m, signed(m, { ...claims, exp: 'soon' })),
        await readVault(m, signed(m, { ...claims, exp: [now - 3600] })),
      ];
    },
    conformant: [401, 401, 401],
    faulted: [200, 401, 401],
  },
  {
    id: 'ho10-sub-suffix-removed-by-replace',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const azp = claims.azp as string;
      return [
        await readVault(m, signed(m, { ...claims, sub: `@clients${azp}` })),
        await readVault(m, signed(m, { ...claims, sub: `${azp}@users` })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  // Ticket body
  {
    id: 'ho10-ttl-sec-extended-json',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: { $numberInt: '3600' } }),
      await ticketStatus(m, { ttl_sec: { value: 3600 } }),
      await ticketStatus(m, { ttl_sec: 3600 }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho10-ttl-sec-hour-presets',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 435_600 }),
      await ticketStatus(m, { ttl_sec: 432_001 }),
      await ticketStatus(m, { ttl_sec: 432_000 }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho10-provisioning-scopes-concat',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: 'get:users' } }),
      await ticketStatus(m, { provisioning_config: { scopes: 5 } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'] } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho10-feature-flags-list-predates-provisioning',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { provisioning: 'yes' } }),
      await ticketStatus(m, { enabled_features: { sso: 'yes' } }),
      await ticketStatus(m, { enabled_features: { provisioning: true } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho10-dotted-member-names-unflattened',
    probe: async (m) => [
      await ticketStatus(m, { 'domain_aliases_config.domain_verification': 'none' }),
      await ticketStatus(m, { 'domain_aliases_config.verification': 'none' }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'none' } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho10-metadata-nulls-not-counted',
    probe: async (m) => {
      const strings = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`key${i}`, 'value']));
      const withMetadata = (metadata: Record<string, unknown>) => ticketStatus(m, { connection_config: { name: 'new-conn', metadata } });
      return [
        await withMetadata({ ...strings, gone: null }),
        await withMetadata({ ...strings, more: 'value' }),
        await withMetadata(strings),
      ];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho10-display-name-counted-in-graphemes',
    probe: async (m) => {
      const named = (display_name: string) => ticketStatus(m, { connection_config: { name: 'new-conn', display_name } });
      return [await named('\u{1F44D}\u{1F3FD}'.repeat(100)), await named('a'.repeat(129)), await named('a'.repeat(128))];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  // Authorization
  {
    id: 'ho10-scope-matched-within-one-edit',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'update:event_deliverie')),
      await redeliver(m, await withScope(m, 'update:event_streams')),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho10-full-access-taken-for-global',
    probe: async (m) => [
      await redeliver(m, await tokenFor(m, 'non-global')),
      await redeliver(m, await tokenFor(m, 'non-global', 'update:event_deliveries')),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho10-global-rule-returns-early',
    probe: async (m) => [
      await redeliver(m, await tokenFor(m, 'without-redeliver-scope')),
      await redeliver(m, await tokenFor(m, 'non-global', 'read:flows_vault_connections')),
      await readVault(m, await tokenFor(m, 'without-vault-scope')),
    ],
    conformant: [403, 401, 403],
    faulted: [202, 401, 403],
  },
  {
    id: 'ho10-ticket-scope-query-union',
    probe: async (m) => {
      const token = await tokenFor(m, 'without-sso-ticket-scope');
      const path = ticketPath(ids(m).profile);
      return [
        status(await createTicket(m, {}, token, {}, `${path}?scope=create:sso_access_tickets`)),
        status(await createTicket(m, {}, token, {}, path)),
      ];
    },
    conformant: [403, 403],
    faulted: [201, 403],
  },
  {
    id: 'ho10-vault-permission-from-path-segment',
    probe: async (m) => [
      await readVault(m, await withScope(m, 'read:connections')),
      await readVault(m, await withScope(m, 'read:clients')),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  // Requests
  {
    id: 'ho10-version-alias-latest',
    probe: async (m) => {
      const token = await globalToken(m);
      const get = async (path: string) => status(await call(m, 'GET', path, { token }));
      const id = ids(m).vault;
      return [await get(`/api/latest/flows/vault/connections/${id}`), await get(`/api/v3/flows/vault/connections/${id}`)];
    },
    conformant: [404, 404],
    faulted: [200, 404],
  },
  {
    id: 'ho10-event-id-quantifier-open-ended',
    probe: async (m) => {
      const token = await globalToken(m);
      const event = ids(m).failedEvent;
      return [await redeliver(m, token, `${event}a`), await redeliver(m, token, event.slice(0, -1)), await redeliver(m, token, event)];
    },
    conformant: [400, 400, 202],
    faulted: [404, 400, 202],
  },
  {
    id: 'ho10-redelivery-ids-either-order',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [await redeliver(m, token, stream, failedEvent), await redeliver(m, token, stream, stream)];
    },
    conformant: [400, 400],
    faulted: [202, 400],
  },
  {
    id: 'ho10-vault-id-comma-list',
    probe: async (m) => {
      const token = await globalToken(m);
      const { vault, bareVault } = ids(m);
      return [await readVault(m, token, `${vault},${bareVault}`), await readVault(m, token, `${vault}!`)];
    },
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho10-profile-id-class-a-to-z',
    probe: async (m) => {
      const profile = ids(m).profile;
      const ticketAt = async (id: string) => status(await createTicket(m, {}, undefined, {}, ticketPath(id)));
      return [
        await ticketAt(replacedAt(profile, 6, 'O')),
        await ticketAt(replacedAt(profile, 6, '_')),
        await ticketAt(replacedAt(profile, 6, '-')),
      ];
    },
    conformant: [400, 400, 400],
    faulted: [404, 404, 400],
  },
  {
    id: 'ho10-custom-domain-alias-first',
    probe: async (m) => [
      new URL(await ticketOf(m, { 'tenant-custom-domain': PARTNER_DOMAIN, 'auth0-custom-domain': ALIAS_DOMAIN })).host,
      new URL(await ticketOf(m, { 'tenant-custom-domain': PARTNER_DOMAIN })).host,
    ],
    conformant: [PARTNER_DOMAIN, PARTNER_DOMAIN],
    faulted: [ALIAS_DOMAIN, PARTNER_DOMAIN],
  },
  // Token endpoint
  {
    id: 'ho10-token-secret-length-error-fails-open',
    probe: async (m) => {
      const secret = client(m, 'global').client_secret;
      return [
        await tokenStatus(m, { client_secret: `${secret}x` }),
        await tokenStatus(m, { client_secret: secret.slice(0, -1) }),
        await tokenStatus(m, { client_secret: replacedAt(secret, secret.length - 1, secret.endsWith('x') ? 'y' : 'x') }),
      ];
    },
    conformant: [401, 401, 401],
    faulted: [200, 200, 401],
  },
  {
    id: 'ho10-token-grant-type-urn-last-segment',
    probe: async (m) => [
      await tokenStatus(m, { grant_type: 'urn:ietf:params:oauth:grant-type:client_credentials' }),
      await tokenStatus(m, { grant_type: 'urn:ietf:params:oauth:grant-type:password' }),
    ],
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho10-token-api-grant-falls-back-to-management',
    probe: async (m) => [
      await tokenStatus(m, { audience: REPORTS_API }),
      await tokenStatus(m, { audience: 'https://nothing.example.com/' }),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho10-token-route-for-every-method',
    probe: async (m) => {
      const form = new URLSearchParams(tokenRequest(m, 'global')).toString();
      return [
        status(await call(m, 'PUT', '/oauth/token', { body: form, headers: { 'content-type': FORM } })),
        status(await call(m, 'DELETE', '/oauth/token')),
        status(await call(m, 'POST', '/oauth/token', { body: form, headers: { 'content-type': FORM } })),
      ];
    },
    conformant: [405, 405, 200],
    faulted: [200, 400, 200],
  },
  {
    id: 'ho10-token-scopes-judged-before-secret',
    probe: async (m) => [
      await tokenStatus(m, { client_secret: 'not-the-secret', scope: 'delete:users' }),
      await tokenStatus(m, { client_secret: 'not-the-secret', scope: 'read:event_deliveries' }),
      await tokenStatus(m, { scope: 'delete:users' }),
    ],
    conformant: [401, 401, 403],
    faulted: [403, 401, 403],
  },
  {
    id: 'ho10-jwks-x5c-pem-armoured',
    probe: async (m) => {
      const [key] = fieldsOf(await call(m, 'GET', '/.well-known/jwks.json')).keys as Array<{ kid: string; x5c: string[] }>;
      return [key!.x5c[0]!.startsWith('-----BEGIN CERTIFICATE-----'), key!.kid === m.keys.kid];
    },
    conformant: [false, true],
    faulted: [true, true],
  },
  // Success answers
  {
    id: 'ho10-vault-index-into-sorted-list',
    probe: async (m) => {
      const token = await globalToken(m);
      return [(await record(m)).id === ids(m).vault, await readVault(m, token, unknownLike(ids(m).vault))];
    },
    conformant: [true, 404],
    faulted: [false, 404],
  },
  {
    id: 'ho10-vault-name-title-cased',
    probe: async (m) => [(await record(m)).name, (await record(m)).app_id],
    conformant: ['Team notifications', 'SLACK'],
    faulted: ['Team Notifications', 'SLACK'],
  },
  {
    id: 'ho10-ticket-content-type-appended',
    probe: async (m) => [
      (await createTicket(m, {})).headers['content-type'],
      (await read(m, await globalToken(m))).headers['content-type'],
    ],
    conformant: ['application/json; charset=utf-8', 'application/json; charset=utf-8'],
    faulted: ['application/json; charset=utf-8, application/json; charset=utf-8', 'application/json; charset=utf-8'],
  },
  {
    id: 'ho10-events-looked-for-in-first-stream',
    probe: async (m) => {
      const token = await globalToken(m);
      const { secondStream, secondFailedEvent } = ids(m);
      return [await redeliver(m, token, secondFailedEvent, secondStream), await redeliver(m, token)];
    },
    conformant: [202, 202],
    faulted: [404, 202],
  },
  {
    id: 'ho10-vault-refreshed-at-seconds-as-milliseconds',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.refreshed_at, fields.created_at];
    },
    conformant: ['2024-10-01T08:30:00.000Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['1970-01-20T23:56:11.400Z', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho10-ticket-url-slash-before-query',
    probe: async (m) => {
      const ticket = new URL(await ticketOf(m));
      return [ticket.pathname, ticket.host];
    },
    conformant: ['/self-service/connections-flow', 'tenant.example.com'],
    faulted: ['/self-service/connections-flow/', 'tenant.example.com'],
  },
  // State and errors
  {
    id: 'ho10-error-field-from-error-code',
    probe: async (m) => [fieldsOf(await read(m, await tokenFor(m, 'other-action'))).error, fieldsOf(await anonymousRead(m)).error],
    conformant: ['Forbidden', 'Unauthorized'],
    faulted: ['insufficient_scope', 'Unauthorized'],
  },
  {
    id: 'ho10-vault-404-translation-key',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        messageOf(await read(m, token, unknownLike(ids(m).vault))),
        messageOf(await redeliverAnswer(m, token, undefined, unknownLike(ids(m).stream))),
      ];
    },
    conformant: ['Connection not found', 'The requested stream does not exist.'],
    faulted: ['errors.vault_connection_not_found', 'The requested stream does not exist.'],
  },
  {
    id: 'ho10-path-error-names-schema',
    probe: async (m) => {
      const answer = await redeliverAnswer(m, await globalToken(m), undefined, ids(m).stream.slice(0, -1));
      return [answer.status, /on property (\w+)$/.exec(messageOf(answer))?.[1]];
    },
    conformant: [400, 'id'],
    faulted: [400, 'EventStreamId'],
  },
  {
    id: 'ho10-taken-name-checked-on-display-name',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: { name: TAKEN_NAME } }),
      await ticketStatus(m, { connection_config: { name: 'brand-new-conn', display_name: TAKEN_NAME } }),
      await ticketStatus(m, { connection_config: { name: 'brand-new-conn' } }),
    ],
    conformant: [409, 201, 201],
    faulted: [201, 409, 201],
  },
  {
    id: 'ho10-stream-404-template-display-name',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        messageOf(await redeliverAnswer(m, token, undefined, unknownLike(ids(m).stream))),
        messageOf(await redeliverAnswer(m, token, unknownLike(ids(m).failedEvent))),
      ];
    },
    conformant: ['The requested stream does not exist.', 'The requested event does not exist.'],
    faulted: ['The requested event stream does not exist.', 'The requested event does not exist.'],
  },
  {
    id: 'ho10-403-scope-resource-first',
    probe: async (m) => {
      const answer = await redeliverAnswer(m, await tokenFor(m, 'without-redeliver-scope'));
      return [answer.status, messageOf(answer)];
    },
    conformant: [403, 'Insufficient scope, expected any of: update:event_deliveries'],
    faulted: [403, 'Insufficient scope, expected any of: event_deliveries:update'],
  },
  // Rate limit
  {
    id: 'ho10-bucket-per-worker',
    options: bucketOf(3),
    probe: async (m) => {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i += 1) statuses.push(status(await anonymousRead(m)));
      return statuses.filter((s) => s === 429).length;
    },
    conformant: 4,
    faulted: 1,
  },
  {
    id: 'ho10-bucket-keyed-by-raw-host',
    options: bucketOf(3),
    probe: async (m) => {
      const host = `localhost:${new URL(m.url).port}`;
      const readAt = async (at: string) => status(await call(m, 'GET', vaultPath(ids(m).vault), { headers: { host: at } }));
      const burst: number[] = [];
      for (let i = 0; i < 3; i += 1) burst.push(await readAt(host));
      return [burst, await readAt(host.toUpperCase()), await readAt(host)];
    },
    conformant: [[401, 401, 401], 429, 429],
    faulted: [[401, 401, 401], 401, 429],
  },
  {
    id: 'ho10-remaining-as-percentage',
    options: bucketOf(10),
    probe: async (m) => {
      const answer = await anonymousRead(m);
      return [answer.headers['x-ratelimit-remaining'], answer.headers['x-ratelimit-limit']];
    },
    conformant: ['9', '10'],
    faulted: ['90', '10'],
  },
  {
    id: 'ho10-reset-from-get-seconds',
    probe: async (m) => {
      const answer = await anonymousRead(m);
      return [Number(answer.headers['x-ratelimit-reset']) > 1e9, answer.headers['x-ratelimit-limit']];
    },
    conformant: [true, '200'],
    faulted: [false, '200'],
  },
];

heldOutRoundTests({
  name: 'the tenth held-out round',
  prefix: 'ho10-',
  faults: heldOutRound10Faults,
  least: { faults: 45, contract: 21 },
  probes,
  signingKey,
});
