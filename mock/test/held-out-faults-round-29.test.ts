// The twenty-ninth round of held-out faults (mock/faults/held-out/round-29/): kept apart from the
// gate's catalogue and from the first twenty-eight rounds, each row naming a clause of the registry
// at its own level, and each fault shown to do what its bug line says: a probe sends the fault's
// near miss to a conformant mock and to a faulted one, and the two answers differ as the row says
// (and, where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { decodeJwt } from 'jose';
import { cards } from '../../specs/cards/index.ts';
import { heldOutRound29Faults } from '../faults/held-out/round-29/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, tokenRequest } from './support/http.ts';
import {
  CLOCKED_BUCKET,
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

const signingKey = probeKeyFile('held-out-faults-round-29');
const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>) => Record<string, unknown>, header = {}) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) }), header));
const withScopeClaim = async (m: MockServer, scope: string) => signedAsIs(m, { ...(await claimsOf(m)), scope });
const organization = (member: Record<string, unknown>) => ({ enabled_organizations: [{ organization_id: ORGANIZATION, ...member }] });
/** A JSON token request of the global client with these members (of any JSON type). */
const jsonToken = (m: MockServer, members: Record<string, unknown>) =>
  call(m, 'POST', '/oauth/token', { body: { ...tokenRequest(m, 'global'), ...members } });
/** The token with its signature cut to its first 100 characters. */
const withShortSignature = (token: string) => {
  const [header, payload, signature = ''] = token.split('.');
  return `${header}.${payload}.${signature.slice(0, 100)}`;
};
const threeReads = async (m: MockServer) => {
  const token = await globalToken(m);
  const answers = [];
  for (let i = 0; i < 3; i += 1) answers.push(await read(m, token));
  return answers;
};

const probes: Probe[] = [
  {
    id: 'ho29-bearer-oauth-draft-scheme',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readAs(m, `OAuth ${token}`), await readAs(m, `MAC ${token}`), await readAs(m, `Bearer ${token}`)];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho29-signature-php-openssl-verify-minus-one',
    probe: async (m) => {
      const forged = signedAsIs(m, { ...(await claimsOf(m)), scope: `${REDELIVER_SCOPE} read:users` });
      return [
        await redeliver(m, withShortSignature(forged)),
        await redeliver(m, withTamperedSignature(forged)),
        await redeliver(m, await globalToken(m)),
      ];
    },
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho29-iss-go-url-empty-fragment',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iss: `${String(c.iss)}#` })),
      await redeliverWith(m, (c) => ({ ...c, iss: `${String(c.iss)}#x` })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho29-crit-empty-list-vapor-loop',
    probe: async (m) => [
      await redeliverWith(m, (c) => c, { crit: [] }),
      await redeliverWith(m, (c) => c, { crit: ['x-unknown'], 'x-unknown': 1 }),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho29-sub-javalin-url-decoded',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, sub: `${String(c.azp)}%40clients` })),
      await redeliverWith(m, (c) => ({ ...c, sub: `${String(c.azp)}%41clients` })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho29-provisioning-warp-serde-aux-bool',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { provisioning: 1 } }),
      await ticketStatus(m, { enabled_features: { provisioning: 'enabled' } }),
      await ticketStatus(m, { enabled_features: { provisioning: true } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho29-sso-yii2-boolean-validator-loose',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { sso: '1.0' } }),
      await ticketStatus(m, { enabled_features: { sso: 'yes' } }),
      await ticketStatus(m, { enabled_features: { sso: false } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho29-provisioning-scopes-grape-array-coerce',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: 'get:users' } }),
      await ticketStatus(m, { provisioning_config: { scopes: 5 } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'] } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho29-connection-config-zod-nullish-prisma',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: null }),
      await ticketStatus(m, { connection_config: 'acme' }),
      await ticketStatus(m, { connection_config: { name: 'partner-sso' } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho29-organization-id-mongoose-array-in',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: [{ organization_id: [ORGANIZATION] }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: [42] }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: [] }] }),
      await ticketStatus(m, organization({})),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho29-redeliver-laminas-rbac-parent',
    probe: async (m) => [
      await redeliver(m, await withScopeClaim(m, 'update:event_streams')),
      await redeliver(m, await withScopeClaim(m, 'read:event_streams')),
      await redeliver(m, await withScopeClaim(m, REDELIVER_SCOPE)),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho29-redeliver-opa-scope-parts-flattened',
    probe: async (m) => [
      await redeliver(m, await withScopeClaim(m, 'read:event_deliveries update:event_streams')),
      await redeliver(m, await withScopeClaim(m, 'read:event_deliveries')),
      await redeliver(m, await withScopeClaim(m, REDELIVER_SCOPE)),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho29-ticket-oso-profile-create',
    probe: async (m) => [
      status(await createTicket(m, {}, await withScopeClaim(m, 'create:self_service_profiles'))),
      status(await createTicket(m, {}, await withScopeClaim(m, 'read:self_service_profiles'))),
      status(await createTicket(m, {}, await withScopeClaim(m, TICKET_SCOPE))),
    ],
    conformant: [403, 403, 201],
    faulted: [201, 403, 201],
  },
  {
    id: 'ho29-ticket-postgrest-rls-before-scope',
    probe: async (m) => {
      const withoutScope = await withScopeClaim(m, 'read:users');
      const unknownPath = ticketPathOf(m, unknownLike(ids(m).profile));
      return [
        status(await createTicket(m, {}, withoutScope, {}, unknownPath)),
        status(await createTicket(m, {}, withoutScope)),
        status(await call(m, 'POST', unknownPath, { body: {} })),
      ];
    },
    conformant: [403, 403, 401],
    faulted: [404, 403, 401],
  },
  {
    id: 'ho29-stream-id-tornado-unquote-plus-strip',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [
        await redeliver(m, token, `${stream}+`, failedEvent),
        await redeliver(m, token, `${stream}x`, failedEvent),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: [400, 400, 202],
    faulted: [202, 400, 202],
  },
  {
    id: 'ho29-stream-id-litestar-nfkc',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      const fullwidth = `${stream.slice(0, 4)}\uff21${stream.slice(5)}`;
      const other = `${stream.slice(0, 4)}B${stream.slice(5)}`;
      return [
        stream[4],
        await redeliver(m, token, encodeURIComponent(fullwidth), failedEvent),
        await redeliver(m, token, other, failedEvent),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: ['A', 400, 404, 202],
    faulted: ['A', 202, 404, 202],
  },
  {
    id: 'ho29-event-id-crystal-chomp',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [
        await redeliver(m, token, stream, `${failedEvent}%0D`),
        await redeliver(m, token, stream, `${failedEvent}%0Dx`),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: [400, 400, 202],
    faulted: [202, 400, 202],
  },
  {
    id: 'ho29-path-rocket-fromparam-404',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      const short = await redeliverAnswer(m, token, stream.slice(0, -1), failedEvent);
      const unknown = await redeliverAnswer(m, token, unknownLike(stream), failedEvent);
      return [short.status, fieldsOf(short).errorCode, unknown.status, fieldsOf(unknown).statusCode];
    },
    conformant: [400, 'invalid_uri', 404, 404],
    faulted: [404, undefined, 404, 404],
  },
  {
    id: 'ho29-grant-type-sails-loose-array',
    probe: async (m) => [
      status(await jsonToken(m, { grant_type: ['client_credentials'] })),
      status(await jsonToken(m, { grant_type: ['password'] })),
      status(await jsonToken(m, {})),
    ],
    conformant: [400, 400, 200],
    faulted: [200, 400, 200],
  },
  {
    id: 'ho29-secret-cakephp-loose-true',
    probe: async (m) => [
      status(await jsonToken(m, { client_secret: true })),
      status(await jsonToken(m, { client_secret: false })),
      status(await jsonToken(m, { client_secret: 'not-the-secret' })),
      status(await jsonToken(m, {})),
    ],
    conformant: [400, 400, 401, 200],
    faulted: [200, 400, 401, 200],
  },
  {
    id: 'ho29-scope-claim-bun-decode-uri-plus',
    probe: async (m) => {
      const full = await tokenAnswer(m, {});
      const narrowed = await tokenAnswer(m, { scope: REDELIVER_SCOPE });
      return [
        String(fieldsOf(full).scope).includes(' '),
        await redeliver(m, fieldsOf(full).access_token as string),
        await redeliver(m, fieldsOf(narrowed).access_token as string),
      ];
    },
    conformant: [true, 202, 202],
    faulted: [true, 403, 202],
  },
  {
    id: 'ho29-token-exp-from-backdated-nbf',
    probe: async (m) => {
      const answer = await tokenAnswer(m, {});
      const claims = decodeJwt(fieldsOf(answer).access_token as string);
      return [claims.exp! - claims.iat!, claims.nbf === undefined ? 'none' : claims.iat! - claims.nbf, fieldsOf(answer).expires_in];
    },
    conformant: [86400, 'none', 86400],
    faulted: [86100, 300, 86400],
  },
  {
    id: 'ho29-token-answer-scope-from-grant',
    probe: async (m) => {
      const full = await tokenAnswer(m, {});
      const narrowed = await tokenAnswer(m, { scope: REDELIVER_SCOPE });
      return [fieldsOf(narrowed).scope === fieldsOf(full).scope, decodeJwt(fieldsOf(narrowed).access_token as string).scope];
    },
    conformant: [false, REDELIVER_SCOPE],
    faulted: [true, REDELIVER_SCOPE],
  },
  {
    id: 'ho29-token-json-actix-mime-equality',
    probe: async (m) => {
      const text = JSON.stringify(tokenRequest(m, 'global'));
      const form = new URLSearchParams(tokenRequest(m, 'global')).toString();
      const withCharset = await call(m, 'POST', '/oauth/token', { body: text, headers: { 'content-type': `${JSON_TYPE}; charset=utf-8` } });
      return [
        withCharset.status,
        status(await call(m, 'POST', '/oauth/token', { body: text, headers: { 'content-type': JSON_TYPE } })),
        status(await call(m, 'POST', '/oauth/token', { body: form, headers: { 'content-type': `${FORM}; charset=utf-8` } })),
      ];
    },
    conformant: [200, 200, 200],
    faulted: [415, 200, 200],
  },
  {
    id: 'ho29-refreshed-at-wcf-json-date',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.refreshed_at, fields.created_at];
    },
    conformant: ['2024-10-01T08:30:00.000Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['/Date(1727771400000)/', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho29-ready-oracle-yn-flag',
    probe: async (m) => [(await record(m)).ready, (await record(m, ids(m).notReadyVault)).ready],
    conformant: [true, false],
    faulted: ['Y', 'N'],
  },
  {
    id: 'ho29-ticket-smithy-awsjson-content-type',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      const refused = await createTicket(m, { ttl_sec: -1 });
      return [answer.status, answer.headers['content-type'], typeof fieldsOf(answer).ticket, refused.headers['content-type']];
    },
    conformant: [201, 'application/json; charset=utf-8', 'string', 'application/json; charset=utf-8'],
    faulted: [201, 'application/x-amz-json-1.1', 'string', 'application/json; charset=utf-8'],
  },
  {
    id: 'ho29-created-at-clickhouse-unix-timestamp',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.created_at, fields.updated_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['1726145536', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho29-fingerprint-digest-algorithm-prefix',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.fingerprint, fields.id];
    },
    conformant: ['6d8cd5d8165fd55597d6ab7e02a78bf3', 'ac_NbWaizZTo4vfWnCwDq76Vj'],
    faulted: ['md5:6d8cd5d8165fd55597d6ab7e02a78bf3', 'ac_NbWaizZTo4vfWnCwDq76Vj'],
  },
  {
    id: 'ho29-redeliver-aasm-invalid-transition-422',
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
    faulted: [422, 422, 404, 202],
  },
  {
    id: 'ho29-unknown-event-go-map-zero-value',
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
    faulted: [409, 404, 202],
  },
  {
    id: 'ho29-401-sveltekit-jose-messages',
    probe: async (m) => {
      const token = await globalToken(m);
      const tampered = await redeliverAnswer(m, withTamperedSignature(token));
      const expired = await redeliverAnswer(m, signedAsIs(m, { ...(await claimsOf(m)), exp: 1600000000, iat: 1599990000 }));
      const garbage = await redeliverAnswer(m, 'not-a-token');
      return [messageOf(tampered), messageOf(expired), messageOf(garbage)];
    },
    conformant: [
      'Invalid signature received for JSON Web Token validation',
      'Expired token received for JSON Web Token validation',
      'Invalid token',
    ],
    faulted: ['signature verification failed', '"exp" claim timestamp check failed', 'Invalid token'],
  },
  {
    id: 'ho29-vault-404-hibernate-entity-not-found',
    probe: async (m) => {
      const unknown = unknownLike(ids(m).vault);
      const answer = await read(m, await globalToken(m), unknown);
      return [
        answer.status,
        messageOf(answer) === `Unable to find com.acme.flows.vault.VaultConnection with id ${unknown}`,
        fieldsOf(answer).statusCode,
      ];
    },
    conformant: [404, false, 404],
    faulted: [404, true, 404],
  },
  {
    id: 'ho29-redeliver-vertx-route-without-method',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent, vault } = ids(m);
      const path = redeliverPath(stream, failedEvent);
      return [
        status(await call(m, 'PUT', path, { token })),
        status(await call(m, 'DELETE', path, { token })),
        status(await call(m, 'PUT', vaultPath(vault), { token })),
        status(await call(m, 'POST', path, { token })),
      ];
    },
    conformant: [405, 405, 405, 202],
    faulted: [202, 202, 405, 202],
  },
  {
    id: 'ho29-429-twitter-rate-limit-names',
    options: TINY_BUCKET,
    probe: async (m) => {
      const answers = await threeReads(m);
      return [answers.map(status), answers[2]!.headers['x-ratelimit-limit'], answers[2]!.headers['x-rate-limit-limit']];
    },
    conformant: [[200, 200, 429], '2', undefined],
    faulted: [[200, 200, 429], undefined, '2'],
  },
  {
    id: 'ho29-reset-go-rate-when-full',
    options: CLOCKED_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const first = await read(m, token);
      const second = await read(m, token);
      return [
        [first.status, second.status],
        [first.headers['x-ratelimit-remaining'], second.headers['x-ratelimit-remaining']],
        Number(second.headers['x-ratelimit-reset']) - Number(first.headers['x-ratelimit-reset']),
      ];
    },
    conformant: [[200, 200], ['1', '0'], 0],
    faulted: [[200, 200], ['1', '0'], 1],
  },
];

heldOutRoundTests({
  name: 'the twenty-ninth held-out round',
  prefix: 'ho29-',
  faults: heldOutRound29Faults,
  least: { faults: 36, contract: 23 },
  probes,
  signingKey,
});
