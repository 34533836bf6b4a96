// The thirty-first round of held-out faults (mock/faults/held-out/round-31/): kept apart from the
// gate's catalogue and from the earlier rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the fault's near miss to
// a conformant mock and to a faulted one, and the two answers differ as the row says (and, where
// the fault lets only the near value through, a plainly wrong value is still refused by both). A
// fault that changed nothing would count as a survivor of the suite for no reason; this rules that
// out.
import { KeyObject, sign } from 'node:crypto';
import { decodeJwt } from 'jose';
import { heldOutRound31Faults } from '../faults/held-out/round-31/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call } from './support/http.ts';
import {
  MANUAL_CLOCK,
  TINY_BUCKET,
  advance,
  createTicket,
  fieldsOf,
  globalToken,
  ids,
  nowSeconds,
  probeKeyFile,
  read,
  readAs,
  record,
  redeliver,
  redeliverAnswer,
  status,
  ticketStatus,
  ticketText,
  tokenAnswer,
  unknownLike,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-31');
const HOUR = 3_600_000;
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>) => Record<string, unknown>, header = {}) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) }), header));
const withScopeClaim = async (m: MockServer, scope: string) => signedAsIs(m, { ...(await claimsOf(m)), scope });
/** The token with `text` put in the middle of its signature. */
const withInsideSignature = (token: string, text: string) => {
  const [header, payload, signature = ''] = token.split('.');
  const at = Math.floor(signature.length / 2);
  return `${header}.${payload}.${signature.slice(0, at)}${text}${signature.slice(at)}`;
};
/** A token of the global client's claims whose header JSON text starts with `prefix`, signed with the mock's key. */
const withHeaderPrefix = async (m: MockServer, prefix: string) => {
  const header = `${prefix}${JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: m.keys.kid })}`;
  const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
  const input = `${encode(header)}.${encode(JSON.stringify(await claimsOf(m)))}`;
  const key = m.keys.privateKey instanceof KeyObject ? m.keys.privateKey : KeyObject.from(m.keys.privateKey);
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
};

const probes: Probe[] = [
  {
    id: 'ho31-bearer-kong-unanchored-pattern',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readAs(m, `OAuthBearer ${token}`), await readAs(m, `OAUTHBEARER ${token}`), await readAs(m, `Bearer ${token}`)];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho31-exp-dayjs-day-granularity',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      advance(m, 12 * HOUR);
      const now = nowSeconds(m);
      return [
        await redeliverWith(m, (c) => ({ ...c, iat: now - 3 * 3600, exp: now - 2 * 3600 })),
        await redeliverWith(m, (c) => ({ ...c, iat: now - 27 * 3600, exp: now - 26 * 3600 })),
        await redeliverWith(m, (c) => c),
      ];
    },
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho31-signature-java-mime-decoder',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await redeliver(m, withInsideSignature(token, '~')),
        await redeliver(m, withTamperedSignature(token)),
        await redeliver(m, token),
      ];
    },
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho31-iat-authlib-bool-is-int',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iat: true })),
      await redeliverWith(m, (c) => ({ ...c, iat: '1700000000' })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho31-header-jjwt-jackson-bom',
    probe: async (m) => [
      await redeliver(m, await withHeaderPrefix(m, '\ufeff')),
      await redeliver(m, await withHeaderPrefix(m, 'x')),
      await redeliver(m, await withHeaderPrefix(m, '')),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho31-body-jackson-empty-array-null-object',
    probe: async (m) => [
      await ticketText(m, '[]'),
      await ticketText(m, '[1]'),
      await ticketStatus(m, { provisioning_config: [] }),
      await ticketStatus(m, { enabled_features: [] }),
      await ticketStatus(m, { enabled_features: ['sso'] }),
      await ticketStatus(m, {}),
    ],
    conformant: [400, 400, 400, 400, 400, 201],
    faulted: [201, 400, 201, 201, 400, 201],
  },
  {
    id: 'ho31-provisioning-config-php-empty-object-as-list',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: {} }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'] } }),
      await ticketStatus(m, { provisioning_config: [] }),
    ],
    conformant: [201, 201, 400],
    faulted: [400, 201, 400],
  },
  {
    id: 'ho31-redeliver-tyk-policy-per-path',
    probe: async (m) => [
      await redeliver(m, await withScopeClaim(m, 'read:event_deliveries')),
      await redeliver(m, await withScopeClaim(m, 'read:event_streams')),
      await redeliver(m, await withScopeClaim(m, 'update:event_deliveries')),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho31-vault-id-typeorm-undefined-first-row',
    probe: async (m) => {
      const token = await globalToken(m);
      const { vault, plainVault } = ids(m);
      const long = `${plainVault}${'w'.repeat(31 - plainVault.length)}`;
      const answer = await read(m, token, long);
      return [long.length, answer.status, fieldsOf(answer).id === vault, status(await read(m, token, unknownLike(vault)))];
    },
    conformant: [31, 400, false, 404],
    faulted: [31, 200, true, 404],
  },
  {
    id: 'ho31-path-fastapi-422-detail',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent, vault } = ids(m);
      const short = await redeliverAnswer(m, token, stream.slice(0, -1), failedEvent);
      const vaultAnswer = await read(m, token, 'not an id');
      return [
        short.status,
        fieldsOf(short).errorCode,
        vaultAnswer.status,
        await redeliver(m, token, unknownLike(stream), failedEvent),
        vault.length,
      ];
    },
    conformant: [400, 'invalid_uri', 400, 404, 25],
    faulted: [422, undefined, 422, 404, 25],
  },
  {
    id: 'ho31-jwks-webcrypto-export-key-ops',
    probe: async (m) => {
      const jwks = fieldsOf(await call(m, 'GET', '/.well-known/jwks.json'));
      const key = (jwks.keys as Record<string, unknown>[])[0]!;
      return [key.use, key.key_ops, key.ext, key.kid === m.keys.kid];
    },
    conformant: ['sig', undefined, undefined, true],
    faulted: ['sig', ['verify'], true, true],
  },
  {
    id: 'ho31-token-luxon-iat-rounded-exp-floored',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      advance(m, 600);
      const late = await tokenAnswer(m, {});
      advance(m, 1600);
      const early = await tokenAnswer(m, {});
      const lifetime = (answer: typeof late) => {
        const claims = decodeJwt(fieldsOf(answer).access_token as string);
        return claims.exp! - claims.iat!;
      };
      return [lifetime(late), lifetime(early), fieldsOf(late).expires_in];
    },
    conformant: [86400, 86400, 86400],
    faulted: [86399, 86400, 86400],
  },
  {
    id: 'ho31-created-at-simpledateformat-minutes-for-month',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.created_at, fields.updated_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['2024-52-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho31-updated-at-jackson-instant-decimal',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.updated_at, fields.created_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
    faulted: [1726145536.553, '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho31-ticket-lambda-edge-base64-body',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      const body = answer.json;
      const inner = typeof body === 'string' ? (JSON.parse(Buffer.from(body, 'base64').toString('utf8')) as Record<string, unknown>) : body;
      return [answer.status, typeof body, typeof (inner as Record<string, unknown>).ticket];
    },
    conformant: [201, 'object', 'string'],
    faulted: [201, 'string', 'string'],
  },
  {
    id: 'ho31-redeliver-apigw-default-200',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, deliveredEvent } = ids(m);
      return [await redeliver(m, token), await redeliver(m, token, stream, deliveredEvent)];
    },
    conformant: [202, 409],
    faulted: [200, 409],
  },
  {
    id: 'ho31-custom-domain-cloudfront-header-dropped',
    probe: async (m) => {
      const custom = await createTicket(m, {}, undefined, { 'tenant-custom-domain': 'login.partner.example' });
      const short = await createTicket(m, {}, undefined, { 'tenant-custom-domain': 'ab' });
      return [custom.status, new URL(fieldsOf(custom).ticket as string).host, short.status];
    },
    conformant: [201, 'login.partner.example', 400],
    faulted: [201, 'tenant.example.com', 201],
  },
  {
    id: 'ho31-unknown-stream-s3-access-denied',
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
    id: 'ho31-unknown-event-elasticsearch-response-error',
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
    faulted: [500, 404, 202],
  },
  {
    id: 'ho31-vault-404-spring-not-found-build',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m), unknownLike(ids(m).vault));
      return [answer.status, answer.text === '', answer.headers['content-type'] === undefined];
    },
    conformant: [404, false, false],
    faulted: [404, true, true],
  },
  {
    id: 'ho31-429-spring-cloud-gateway-headers',
    options: TINY_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [];
      for (let i = 0; i < 3; i += 1) answers.push(await read(m, token));
      const refused = answers[2]!;
      return [
        answers.map(status),
        refused.headers['x-ratelimit-limit'],
        refused.headers['x-ratelimit-reset'] === undefined,
        refused.headers['x-ratelimit-remaining'],
        refused.headers['x-ratelimit-burst-capacity'],
      ];
    },
    conformant: [[200, 200, 429], '2', false, '0', undefined],
    faulted: [[200, 200, 429], undefined, true, '0', '2'],
  },
];

heldOutRoundTests({
  name: 'the thirty-first held-out round',
  prefix: 'ho31-',
  faults: heldOutRound31Faults,
  least: { faults: 21, contract: 14 },
  probes,
  signingKey,
});
