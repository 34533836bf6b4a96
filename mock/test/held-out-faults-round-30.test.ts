// The thirtieth held-out round (mock/faults/held-out/round-30/): kept apart from the gate's
// catalogue and from the first twenty-nine rounds, each row naming a clause of the registry at its
// own level, and each fault shown to do what its bug line says: a probe sends the fault's near miss
// to a conformant mock and to a faulted one, and the two answers differ as the row says (and, where
// the fault lets only the near value through, a plainly wrong value is still refused by both). A
// fault that changed nothing would count as a survivor of the suite for no reason; this rules that out.
import { decodeJwt } from 'jose';
import { cards } from '../../specs/cards/index.ts';
import { heldOutRound30Faults } from '../faults/held-out/round-30/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, tokenRequest } from './support/http.ts';
import {
  FORM,
  JSON_TYPE,
  ORGANIZATION,
  TINY_BUCKET,
  createTicket,
  fieldsOf,
  globalToken,
  ids,
  messageOf,
  probeKeyFile,
  read,
  readAs,
  record,
  redeliver,
  redeliverAnswer,
  redeliverPath,
  status,
  ticketPathOf,
  ticketStatus,
  tokenAnswer,
  unknownLike,
  vaultPath,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-30');
const REDELIVER_SCOPE = cards.redeliver.scope.value;
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>) => Record<string, unknown>, header = {}) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) }), header));
const withScopeClaim = async (m: MockServer, scope: string) => signedAsIs(m, { ...(await claimsOf(m)), scope });
const organization = (member: Record<string, unknown>) => ({ enabled_organizations: [{ organization_id: ORGANIZATION, ...member }] });
const CONNECTION = (m: MockServer) => ids(m).connection;
const threeReads = async (m: MockServer) => {
  const token = await globalToken(m);
  const answers = [];
  for (let i = 0; i < 3; i += 1) answers.push(await read(m, token));
  return answers;
};

const probes: Probe[] = [
  {
    id: 'ho30-iss-http4s-ci-host',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({
        ...c,
        iss: String(c.iss).replace(/^(https?:\/\/)([^/]+)/, (_, s: string, h: string) => `${s}${h.toUpperCase()}`),
      })),
      await redeliverWith(m, (c) => ({ ...c, iss: 'https://tenant.example.org/' })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho30-exp-fraction-giraffe-int-claim',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iat: 1599990000, exp: 1600000000.5 })),
      await redeliverWith(m, (c) => ({ ...c, iat: 1599990000, exp: 1600000000 })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho30-bearer-falcon-re-search',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readAs(m, `Basic Bearer ${token}`), await readAs(m, `Basic ${token}`), await readAs(m, `Bearer ${token}`)];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho30-crit-read-names-dream',
    probe: async (m) => [
      await redeliverWith(m, (c) => c, { crit: ['kid'] }),
      await redeliverWith(m, (c) => c, { crit: ['x-unknown'], 'x-unknown': 1 }),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho30-iat-pyjwt-bool-is-int',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iat: true })),
      await redeliverWith(m, (c) => ({ ...c, iat: 'soon' })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho30-features-pydantic-required-with-connection-id',
    probe: async (m) => [
      await ticketStatus(m, { connection_id: CONNECTION(m) }),
      await ticketStatus(m, { connection_id: CONNECTION(m), enabled_features: { sso: true } }),
      await ticketStatus(m, {}),
      await ticketStatus(m, { connection_id: 5 }),
    ],
    conformant: [201, 201, 201, 400],
    faulted: [400, 201, 201, 400],
  },
  {
    id: 'ho30-assign-membership-vine-accepted',
    probe: async (m) => [
      await ticketStatus(m, organization({ assign_membership_on_login: 'on' })),
      await ticketStatus(m, organization({ assign_membership_on_login: false })),
      await ticketStatus(m, organization({ assign_membership_on_login: 'maybe' })),
      await ticketStatus(m, organization({ assign_membership_on_login: true })),
    ],
    conformant: [400, 201, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho30-enabled-clients-phoenix-enum-all-map',
    probe: async (m) => [
      await ticketStatus(m, { enabled_clients: {} }),
      await ticketStatus(m, { enabled_clients: { a: 'b' } }),
      await ticketStatus(m, { enabled_clients: [] }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho30-enabled-features-lumen-assoc-empty-array',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: [] }),
      await ticketStatus(m, { enabled_features: [true] }),
      await ticketStatus(m, { enabled_features: {} }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho30-redeliver-guardian-permissions-401',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [
        await redeliver(m, await withScopeClaim(m, 'read:event_streams')),
        status(await call(m, 'POST', redeliverPath(stream, failedEvent))),
        await redeliver(m, await withScopeClaim(m, REDELIVER_SCOPE)),
      ];
    },
    conformant: [403, 401, 202],
    faulted: [401, 401, 202],
  },
  {
    id: 'ho30-redeliver-akka-validate-before-authenticate',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [
        status(await call(m, 'POST', redeliverPath(stream.slice(0, -1), failedEvent))),
        status(await call(m, 'POST', redeliverPath(stream, `${failedEvent}x`), { token: 'not-a-token' })),
        status(await call(m, 'POST', redeliverPath(stream, failedEvent))),
        await redeliver(m, await globalToken(m), stream.slice(0, -1), failedEvent),
      ];
    },
    conformant: [401, 401, 401, 400],
    faulted: [400, 400, 401, 400],
  },
  {
    id: 'ho30-ticket-spring-403-entry-point',
    probe: async (m) => [
      status(await call(m, 'POST', ticketPathOf(m), { body: {} })),
      status(await call(m, 'POST', ticketPathOf(m), { body: {}, token: 'not-a-token' })),
      status(await createTicket(m, {}, await withScopeClaim(m, 'read:users'))),
      status(await call(m, 'GET', vaultPath(ids(m).vault))),
    ],
    conformant: [401, 401, 403, 401],
    faulted: [403, 403, 403, 401],
  },
  {
    id: 'ho30-vault-id-echo-shared-resource-validator',
    probe: async (m) => {
      const token = await globalToken(m);
      const otherResource = await read(m, token, ids(m).stream);
      const badAlphabet = await read(m, token, `${ids(m).vault.slice(0, -1)}0`);
      return [otherResource.status, fieldsOf(otherResource).errorCode, badAlphabet.status, (await read(m, token)).status];
    },
    conformant: [400, 'invalid_uri', 400, 200],
    faulted: [404, undefined, 400, 200],
  },
  {
    id: 'ho30-event-id-elixir-binary-size',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      const twoByte = `${failedEvent.slice(0, 24)}\u00e9`;
      const answer = await redeliverAnswer(m, token, stream, encodeURIComponent(twoByte));
      return [
        [...twoByte].length,
        Buffer.byteLength(twoByte),
        answer.status,
        await redeliver(m, token, stream, `${failedEvent}x`),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: [25, 26, 400, 400, 202],
    faulted: [25, 26, 404, 400, 202],
  },
  {
    id: 'ho30-token-form-wisp-media-type-case',
    probe: async (m) => {
      const form = new URLSearchParams(tokenRequest(m, 'global')).toString();
      return [
        status(await call(m, 'POST', '/oauth/token', { body: form, headers: { 'content-type': 'Application/x-www-form-urlencoded' } })),
        status(await call(m, 'POST', '/oauth/token', { body: form, headers: { 'content-type': FORM } })),
        status(await call(m, 'POST', '/oauth/token', { body: form, headers: { 'content-type': 'text/plain' } })),
      ];
    },
    conformant: [200, 200, 400],
    faulted: [415, 200, 400],
  },
  {
    id: 'ho30-token-json-cowboy-regex-escapes',
    probe: async (m) => {
      const text = JSON.stringify(tokenRequest(m, 'global'));
      const escaped = text.replace(/\//g, '\\/');
      return [
        escaped === text,
        status(await call(m, 'POST', '/oauth/token', { body: escaped, headers: { 'content-type': JSON_TYPE } })),
        status(await call(m, 'POST', '/oauth/token', { body: text, headers: { 'content-type': JSON_TYPE } })),
      ];
    },
    conformant: [false, 200, 200],
    faulted: [false, 403, 200],
  },
  {
    id: 'ho30-issued-aud-jjwt-list',
    probe: async (m) => {
      const token = fieldsOf(await tokenAnswer(m, {})).access_token as string;
      return [Array.isArray(decodeJwt(token).aud), await redeliver(m, token)];
    },
    conformant: [false, 202],
    faulted: [true, 202],
  },
  {
    id: 'ho30-discovery-micronaut-keys-path',
    probe: async (m) => {
      const document = fieldsOf(await call(m, 'GET', '/.well-known/openid-configuration'));
      const path = new URL(document.jwks_uri as string).pathname;
      return [path, status(await call(m, 'GET', path)), typeof document.token_endpoint];
    },
    conformant: ['/.well-known/jwks.json', 200, 'string'],
    faulted: ['/keys', 404, 'string'],
  },
  {
    id: 'ho30-jwks-mojo-encode-base64-lines',
    probe: async (m) => {
      const key = (fieldsOf(await call(m, 'GET', '/.well-known/jwks.json')).keys as Array<Record<string, string>>)[0]!;
      return [key.n!.includes('\n'), key.n!.replace(/\n/g, '') === m.keys.jwks.keys[0]!.n, key.e];
    },
    conformant: [false, true, 'AQAB'],
    faulted: [true, true, 'AQAB'],
  },
  {
    id: 'ho30-updated-at-haskell-show-utctime',
    probe: async (m) => {
      const [full, minimal] = [await record(m), await record(m, ids(m).minimalVault)];
      return [full.updated_at, minimal.updated_at, full.created_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-08-02T09:15:42.120Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['2024-09-12 12:52:16.553 UTC', '2024-08-02 09:15:42.12 UTC', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho30-app-id-protobuf-enum-prefix',
    probe: async (m) => [(await record(m)).app_id, String((await record(m, ids(m).longVault)).app_id).length],
    conformant: ['SLACK', 55],
    faulted: ['APP_ID_SLACK', 62],
  },
  {
    id: 'ho30-environment-circe-wrapper-object',
    probe: async (m) => [(await record(m)).environment, 'environment' in (await record(m, ids(m).minimalVault))],
    conformant: ['production', false],
    faulted: [{ value: 'production' }, false],
  },
  {
    id: 'ho30-account-name-codeigniter-ciphertext',
    probe: async (m) => {
      const [full, long] = [await record(m), await record(m, ids(m).longVault)];
      return [full.account_name === 'acme-workspace', String(full.account_name).length, String(long.account_name).length];
    },
    conformant: [true, 14, 150],
    faulted: [false, 128, 308],
  },
  {
    id: 'ho30-vault-shelf-text-plain',
    probe: async (m) => {
      const token = await globalToken(m);
      const answer = await read(m, token);
      const missing = await read(m, token, unknownLike(ids(m).vault));
      return [answer.status, answer.headers['content-type'], fieldsOf(answer).id, missing.headers['content-type']];
    },
    conformant: [200, 'application/json; charset=utf-8', 'ac_NbWaizZTo4vfWnCwDq76Vj', 'application/json; charset=utf-8'],
    faulted: [200, 'text/plain; charset=utf-8', 'ac_NbWaizZTo4vfWnCwDq76Vj', 'application/json; charset=utf-8'],
  },
  {
    id: 'ho30-ticket-jersey-created-location',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      const refused = await createTicket(m, { ttl_sec: -1 });
      return [answer.status, typeof fieldsOf(answer)?.ticket, String(answer.headers.location).startsWith('https://'), refused.status];
    },
    conformant: [201, 'string', false, 400],
    faulted: [201, 'undefined', true, 400],
  },
  {
    id: 'ho30-vault-id-typeid-prefixed-twice',
    probe: async (m) => [(await record(m)).id, String((await record(m, ids(m).longVault)).id).length],
    conformant: ['ac_NbWaizZTo4vfWnCwDq76Vj', 30],
    faulted: ['ac_ac_NbWaizZTo4vfWnCwDq76Vj', 33],
  },
  {
    id: 'ho30-vault-sequelize-paranoid-deleted-at',
    probe: async (m) => {
      const fields = await record(m);
      return ['deletedAt' in fields, fields.deletedAt, fields.name];
    },
    conformant: [false, undefined, 'Team notifications'],
    faulted: [true, null, 'Team notifications'],
  },
  {
    id: 'ho30-redeliver-sanic-empty-204',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, deliveredEvent } = ids(m);
      return [await redeliver(m, token), await redeliver(m, token, stream, deliveredEvent)];
    },
    conformant: [202, 409],
    faulted: [204, 409],
  },
  {
    id: 'ho30-redeliver-jooq-lost-event-condition',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, deliveredEvent, pendingEvent, failedEvent } = ids(m);
      return [
        await redeliver(m, token, stream, deliveredEvent),
        await redeliver(m, token, stream, pendingEvent),
        await redeliver(m, token, stream, unknownLike(failedEvent)),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: [409, 409, 404, 202],
    faulted: [202, 202, 404, 202],
  },
  {
    id: 'ho30-unknown-stream-cancancan-403',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [
        await redeliver(m, token, unknownLike(stream), failedEvent),
        await redeliver(m, token, stream, unknownLike(failedEvent)),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: [404, 404, 202],
    faulted: [403, 404, 202],
  },
  {
    id: 'ho30-unknown-event-hapi-joi-external',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [
        await redeliver(m, token, stream, unknownLike(failedEvent)),
        await redeliver(m, token, unknownLike(stream), failedEvent),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: [404, 404, 202],
    faulted: [400, 404, 202],
  },
  {
    id: 'ho30-errors-elysia-json-without-charset',
    probe: async (m) => {
      const token = await globalToken(m);
      const missing = await read(m, token, unknownLike(ids(m).vault));
      const anonymous = await call(m, 'GET', vaultPath(ids(m).vault));
      const found = await read(m, token);
      return [missing.headers['content-type'], anonymous.headers['content-type'], found.headers['content-type']];
    },
    conformant: ['application/json; charset=utf-8', 'application/json; charset=utf-8', 'application/json; charset=utf-8'],
    faulted: ['application/json', 'application/json', 'application/json; charset=utf-8'],
  },
  {
    id: 'ho30-vault-404-axum-status-only',
    probe: async (m) => {
      const token = await globalToken(m);
      const missing = await read(m, token, unknownLike(ids(m).vault));
      const malformed = await read(m, token, `${ids(m).vault.slice(0, -1)}0`);
      return [missing.status, missing.text, malformed.status, fieldsOf(malformed).errorCode];
    },
    conformant: [404, '{"statusCode":404,"error":"Not Found","message":"Connection not found"}', 400, 'invalid_uri'],
    faulted: [404, '', 400, 'invalid_uri'],
  },
  {
    id: 'ho30-403-lisp-format-trailing-comma',
    probe: async (m) => {
      const answer = await redeliverAnswer(m, await withScopeClaim(m, 'read:event_streams'));
      return [answer.status, messageOf(answer), fieldsOf(answer).errorCode];
    },
    conformant: [403, `Insufficient scope, expected any of: ${REDELIVER_SCOPE}`, 'insufficient_scope'],
    faulted: [403, `Insufficient scope, expected any of: ${REDELIVER_SCOPE},`, 'insufficient_scope'],
  },
  {
    id: 'ho30-429-spring-cloud-gateway-headers',
    options: TINY_BUCKET,
    probe: async (m) => {
      const answers = await threeReads(m);
      const last = answers[2]!;
      return [
        answers.map(status),
        last.headers['x-ratelimit-limit'],
        last.headers['x-ratelimit-reset'] === undefined,
        last.headers['x-ratelimit-remaining'],
        last.headers['x-ratelimit-burst-capacity'],
      ];
    },
    conformant: [[200, 200, 429], '2', false, '0', undefined],
    faulted: [[200, 200, 429], undefined, true, '0', '2'],
  },
  {
    id: 'ho30-405-gin-no-method-without-headers',
    probe: async (m) => {
      const token = await globalToken(m);
      const put = await call(m, 'PUT', vaultPath(ids(m).vault), { token });
      const get = await read(m, token);
      return [put.status, put.headers['x-ratelimit-limit'] !== undefined, get.headers['x-ratelimit-limit'] !== undefined];
    },
    conformant: [405, true, true],
    faulted: [405, false, true],
  },
];

heldOutRoundTests({
  name: 'the thirtieth held-out round',
  prefix: 'ho30-',
  faults: heldOutRound30Faults,
  least: { faults: 36, contract: 22 },
  probes,
  signingKey,
});
