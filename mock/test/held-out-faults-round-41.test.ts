// The forty-first round of held-out faults (mock/faults/held-out/round-41/): kept apart from the
// gate's catalogue and from the earlier rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the near value to a
// conformant mock and to a faulted one, and the two answers differ as the row says, while a plainly
// wrong value (or the other half of the rule) is answered alike by both.
import { heldOutRound41Faults } from '../faults/held-out/round-41/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, tokenFor } from './support/http.ts';
import {
  MANUAL_CLOCK,
  ORGANIZATION,
  TINY_BUCKET,
  createTicket,
  fieldsOf,
  globalToken,
  ids,
  nowSeconds,
  probeKeyFile,
  read,
  readVault,
  record,
  redeliver,
  redeliverAnswer,
  redeliverPath,
  status,
  ticketStatus,
  tokenAnswer,
  unknownLike,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-41');
const TICKET_SCOPE = 'create:sso_access_tickets';
const REDELIVER_SCOPE = 'update:event_deliveries';
const RESET = 'x-ratelimit-reset';

/** A redelivery with the global client's token with these claims changed. */
const redeliverWith = async (m: MockServer, claims: Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, { ...(await claimsOf(m)), ...claims }));
const organization = (item: Record<string, unknown>) => ({ enabled_organizations: [{ organization_id: ORGANIZATION, ...item }] });
const features = (m: MockServer, flags: Record<string, unknown>) => ({ connection_id: ids(m).connection, enabled_features: flags });
/** A vault read without Authorization, with these headers. */
const readWith = async (m: MockServer, headers: Record<string, string>) =>
  status(await call(m, 'GET', vaultPath(ids(m).vault), { headers }));
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
/** A redelivery of the default stream with this event id, as written in the path. */
const redeliverRaw = async (m: MockServer, eventId: string) => redeliver(m, await globalToken(m), ids(m).stream, eventId);
/** An answer's content type and whether its body is a JSON object. */
const typeAndShape = (answer: Awaited<ReturnType<typeof call>>) => [
  answer.status,
  answer.headers['content-type'],
  answer.json !== null && typeof answer.json === 'object',
];

const probes: Probe[] = [
  {
    id: 'ho41-istio-payload-header-trusted-without-token',
    probe: async (m) => {
      const payload = base64url(await claimsOf(m));
      return [
        await readWith(m, { 'x-jwt-payload': payload }),
        await readWith(m, { 'x-jwt-payload': payload, authorization: `Bearer ${withTamperedSignature(await globalToken(m))}` }),
        await readWith(m, { 'x-jwt-payload': 'not-a-payload' }),
        await readWith(m, {}),
      ];
    },
    conformant: [401, 401, 401, 401],
    faulted: [200, 401, 401, 401],
  },
  {
    id: 'ho41-aws-http-api-audience-list-holds-client-id',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await redeliverWith(m, { aud: claims.azp }),
        await redeliverWith(m, { aud: 'https://reports-api.example.com/' }),
        await redeliverWith(m, {}),
      ];
    },
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho41-lambda-edge-jwks-rsa-single-key-without-kid',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const withoutKid = signedAsIs(m, claims, { kid: undefined });
      return [
        await readVault(m, withoutKid),
        await readVault(m, signedAsIs(m, claims, { kid: 'another-key' })),
        await readVault(m, withTamperedSignature(withoutKid)),
        await readVault(m, signedAsIs(m, claims)),
      ];
    },
    conformant: [401, 401, 401, 200],
    faulted: [200, 401, 401, 200],
  },
  {
    id: 'ho41-fastify-ajv-use-defaults-empty-ttl-sec',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: null }),
      await ticketStatus(m, { ttl_sec: '' }),
      await ticketStatus(m, { ttl_sec: 'soon' }),
      await ticketStatus(m, { ttl_sec: '3600' }),
      await ticketStatus(m, { ttl_sec: 0 }),
    ],
    conformant: [400, 400, 400, 400, 201],
    faulted: [201, 201, 400, 400, 201],
  },
  {
    id: 'ho41-quarkus-size-passes-null-scopes',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: null } }),
      await ticketStatus(m, { provisioning_config: { scopes: 'get:users' } }),
      await ticketStatus(m, { provisioning_config: { scopes: {} } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'] } }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho41-nswag-newtonsoft-integer-as-boolean',
    probe: async (m) => [
      await ticketStatus(m, organization({ assign_membership_on_login: 1 })),
      await ticketStatus(m, organization({ assign_membership_on_login: 0 })),
      await ticketStatus(m, organization({ assign_membership_on_login: 'yes' })),
      await ticketStatus(m, organization({ assign_membership_on_login: true })),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho41-ktor-kotlinx-lenient-quoted-flag',
    probe: async (m) => [
      await ticketStatus(m, features(m, { domain_verification: 'true' })),
      await ticketStatus(m, features(m, { domain_verification: 'false' })),
      await ticketStatus(m, features(m, { domain_verification: 'yes' })),
      await ticketStatus(m, features(m, { domain_verification: 1 })),
      await ticketStatus(m, features(m, { domain_verification: true })),
    ],
    conformant: [400, 400, 400, 400, 201],
    faulted: [201, 201, 400, 400, 201],
  },
  {
    id: 'ho41-fastify-auth-default-or-relation',
    probe: async (m) => {
      const nonGlobal = signedAsIs(m, { ...(await claimsOf(m, 'non-global')), scope: 'read:users' });
      return [
        status(await createTicket(m, {}, await tokenFor(m, 'without-sso-ticket-scope'))),
        status(await createTicket(m, {}, nonGlobal)),
        status(await createTicket(m, {}, await withScope(m, TICKET_SCOPE))),
      ];
    },
    conformant: [403, 403, 201],
    faulted: [201, 403, 201],
  },
  {
    id: 'ho41-quarkus-groups-separator-comma',
    probe: async (m) => [
      await redeliver(m, await withScope(m, `read:event_streams ${REDELIVER_SCOPE}`)),
      await redeliver(m, await withScope(m, REDELIVER_SCOPE)),
      await redeliver(m, await withScope(m, 'read:event_streams read:users')),
    ],
    conformant: [202, 202, 403],
    faulted: [403, 202, 403],
  },
  {
    id: 'ho41-workers-urlpattern-raw-length',
    probe: async (m) => {
      const event = ids(m).failedEvent;
      return [
        await redeliverRaw(m, `${event.slice(0, 23)}%41`),
        await redeliverRaw(m, `${event.slice(0, 25)}%${event.charCodeAt(25).toString(16).toUpperCase()}`),
        await redeliverRaw(m, event.slice(0, 25)),
        await redeliverRaw(m, `${event}x`),
      ];
    },
    conformant: [400, 202, 400, 400],
    faulted: [404, 400, 400, 400],
  },
  {
    id: 'ho41-vertx-route-regex-holds-length',
    probe: async (m) => {
      const token = await globalToken(m);
      const long = await read(m, token, `${ids(m).vault}${'x'.repeat(31 - ids(m).vault.length)}`);
      const badShape = await read(m, token, `zz_${ids(m).vault.slice(3)}`);
      return [typeAndShape(long), status(badShape)];
    },
    conformant: [[400, 'application/json; charset=utf-8', true], 400],
    faulted: [[404, 'text/html; charset=utf-8', false], 400],
  },
  {
    id: 'ho41-workers-audience-by-url-pathname',
    probe: async (m) => [
      status(await tokenAnswer(m, { audience: 'https://api.other.example/api/v2/' })),
      status(await tokenAnswer(m, { audience: m.audience.replace('/api/v2/', '/api/v3/') })),
      status(await tokenAnswer(m, { audience: 'api/v2/' })),
      status(await tokenAnswer(m, {})),
    ],
    conformant: [403, 403, 403, 200],
    faulted: [200, 403, 403, 200],
  },
  {
    id: 'ho41-vercel-edge-ticket-nanoid',
    probe: async (m) => {
      const codes: string[] = [];
      for (let i = 0; i < 10; i += 1) {
        const url = new URL(fieldsOf(await createTicket(m, {})).ticket as string);
        codes.push(url.searchParams.get('ticket')!);
      }
      return [codes.every((code) => code.length === 32), codes.every((code) => /^[A-Za-z0-9]{32}$/.test(code))];
    },
    conformant: [true, true],
    faulted: [true, false],
  },
  {
    id: 'ho41-workers-response-json-202-without-charset',
    probe: async (m) => {
      const token = await globalToken(m);
      const accepted = await redeliverAnswer(m, token);
      const conflict = await redeliverAnswer(m, token, ids(m).stream, ids(m).deliveredEvent);
      return [accepted.status, accepted.headers['content-type'], conflict.status, conflict.headers['content-type']];
    },
    conformant: [202, 'application/json; charset=utf-8', 409, 'application/json; charset=utf-8'],
    faulted: [202, 'application/json', 409, 'application/json; charset=utf-8'],
  },
  {
    id: 'ho41-java-instant-tostring-drops-zero-millis',
    probe: async (m) => {
      const first = await record(m);
      return [first.refreshed_at, first.created_at];
    },
    conformant: ['2024-10-01T08:30:00.000Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['2024-10-01T08:30:00Z', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho41-bun-sqlite-get-null-unguarded',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [
        await redeliver(m, token, stream, unknownLike(failedEvent)),
        await redeliver(m, token, unknownLike(stream), failedEvent),
        await redeliver(m, token),
      ];
    },
    conformant: [404, 404, 202],
    faulted: [500, 404, 202],
  },
  {
    id: 'ho41-d1-update-success-flag-read-as-changed',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, deliveredEvent, pendingEvent, failedEvent } = ids(m);
      return [
        await redeliver(m, token, stream, deliveredEvent),
        await redeliver(m, token, stream, pendingEvent),
        await redeliver(m, token, stream, unknownLike(failedEvent)),
        await redeliver(m, token),
      ];
    },
    conformant: [409, 409, 404, 202],
    faulted: [202, 202, 404, 202],
  },
  {
    id: 'ho41-istio-rbac-access-denied',
    probe: async (m) => {
      const denied = await call(m, 'POST', redeliverPath(ids(m).stream, ids(m).failedEvent), { token: await withScope(m, 'read:users') });
      const unauthenticated = await call(m, 'POST', redeliverPath(ids(m).stream, ids(m).failedEvent));
      return [typeAndShape(denied), typeAndShape(unauthenticated)];
    },
    conformant: [
      [403, 'application/json; charset=utf-8', true],
      [401, 'application/json; charset=utf-8', true],
    ],
    faulted: [
      [403, 'text/plain', false],
      [401, 'application/json; charset=utf-8', true],
    ],
  },
  {
    id: 'ho41-envoy-jwt-authn-expired-plain',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      const now = nowSeconds(m);
      const expired = signedAsIs(m, { ...(await claimsOf(m)), iat: now - 7200, exp: now - 3600 });
      const tampered = withTamperedSignature(await globalToken(m));
      return [
        typeAndShape(await call(m, 'GET', vaultPath(ids(m).vault), { token: expired })),
        typeAndShape(await call(m, 'GET', vaultPath(ids(m).vault), { token: tampered })),
      ];
    },
    conformant: [
      [401, 'application/json; charset=utf-8', true],
      [401, 'application/json; charset=utf-8', true],
    ],
    faulted: [
      [401, 'text/plain', false],
      [401, 'application/json; charset=utf-8', true],
    ],
  },
  {
    id: 'ho41-envoy-local-ratelimit-reset-delta',
    options: TINY_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const resets: boolean[] = [];
      for (let i = 0; i < 3; i += 1) {
        const answer = await read(m, token);
        resets.push(answer.status === 200, Number(answer.headers[RESET]) >= nowSeconds(m));
      }
      return resets;
    },
    conformant: [true, true, true, true, false, true],
    faulted: [true, false, true, false, false, false],
  },
];

heldOutRoundTests({
  name: 'the forty-first held-out round',
  prefix: 'ho41-',
  faults: heldOutRound41Faults,
  least: { faults: 20, contract: 11 },
  probes,
  signingKey,
});
