// The twenty-third round of held-out faults (mock/faults/held-out/round-23/): kept apart from the
// gate's catalogue and from the first twenty-two rounds, each row naming a clause of the registry at
// its own level, and each fault shown to do what its bug line says: a probe sends the fault's near
// miss to a conformant mock and to a faulted one, and the two answers differ as the row says (and,
// where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { readFileSync } from 'node:fs';
import { KeyObject, createHmac, createPrivateKey, randomUUID, sign } from 'node:crypto';
import { decodeJwt } from 'jose';
import { observed } from '../../specs/index.ts';
import { heldOutRound23Faults } from '../faults/held-out/round-23/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor } from './support/http.ts';
import {
  FORM,
  MANUAL_CLOCK,
  REPORTS_API,
  TINY_BUCKET,
  anonymousRead,
  bucketOf,
  createTicket,
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
  redeliverWithScope,
  status,
  ticketPathOf,
  ticketStatus,
  tokenAnswer,
  tokenStatus,
  unknownLike,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-23');
const header = (answer: { headers: Record<string, string> }, name: string) => answer.headers[name];
const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
const keyOf = (m: MockServer) => (m.keys.privateKey instanceof KeyObject ? m.keys.privateKey : KeyObject.from(m.keys.privateKey));
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>, now: number) => Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) }, nowSeconds(m))));
const redeliverPathOf = (stream: string, event: string) =>
  `/api/v2/event-streams/${encodeURIComponent(stream)}/redeliver/${encodeURIComponent(event)}`;
const redeliverAt = async (m: MockServer, stream: string, event: string) =>
  status(await call(m, 'POST', redeliverPathOf(stream, event), { token: await globalToken(m) }));
/** A token whose header says "b64": false: signed over the header and the raw JSON of `signed`, carrying `sent`. */
const unencodedPayloadToken = (m: MockServer, signed: Record<string, unknown>, sent: Record<string, unknown>) => {
  const head = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: m.keys.kid, b64: false }));
  const signature = sign('sha256', Buffer.from(`${head}.${JSON.stringify(signed)}`), keyOf(m));
  return `${head}.${b64url(JSON.stringify(sent))}.${signature.toString('base64url')}`;
};
/** A token of exactly this header text, signed RS256 with the mock's key. */
const withHeaderText = (m: MockServer, text: string, claims: Record<string, unknown>) => {
  const input = `${b64url(text)}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${sign('sha256', Buffer.from(input), keyOf(m)).toString('base64url')}`;
};
const formTicket = async (m: MockServer, text: string) => status(await createTicket(m, text, undefined, { 'content-type': FORM }));
const ticketForProfile = async (m: MockServer, id: string) =>
  status(await createTicket(m, {}, undefined, {}, ticketPathOf(m, encodeURIComponent(id))));
/** A JSON token request with these members, as given (any JSON values). */
const jsonTokenStatus = async (m: MockServer, fields: Record<string, unknown>) =>
  status(await call(m, 'POST', '/oauth/token', { body: { grant_type: 'client_credentials', audience: m.audience, ...fields } }));
const PRIVATE_KEY_JWT = createPrivateKey(readFileSync(new URL('../fixtures/private-key-jwt-client.key.pem', import.meta.url), 'utf8'));
/** A token request of the private-key-jwt client whose (otherwise valid) assertion is signed with `alg`. */
const assertionStatus = async (m: MockServer, alg: 'RS256' | 'RS512' | 'HS256') => {
  const id = m.fixtures.data.clients.find((c) => c.name === 'private-key-jwt')!.client_id;
  const now = nowSeconds(m);
  const input = `${b64url(JSON.stringify({ alg, typ: 'JWT' }))}.${b64url(JSON.stringify({ iss: id, sub: id, aud: m.issuer, iat: now, exp: now + 60, jti: randomUUID() }))}`;
  const signature =
    alg === 'HS256'
      ? createHmac('sha256', 'a shared secret').update(input).digest()
      : sign(alg === 'RS512' ? 'sha512' : 'sha256', Buffer.from(input), PRIVATE_KEY_JWT);
  return status(
    await call(m, 'POST', '/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        client_id: id,
        client_assertion_type: observed.tokens.client_assertion.type,
        client_assertion: `${input}.${signature.toString('base64url')}`,
        audience: m.audience,
      },
    }),
  );
};
/** Status and one header of each of these requests, in turn. */
const answersOf = async (m: MockServer, requests: Array<() => ReturnType<typeof call>>, name = 'x-ratelimit-remaining') => {
  const answers = [];
  for (const send of requests) {
    const answer = await send();
    answers.push([answer.status, header(answer, name)]);
  }
  return answers;
};
const ticketUrl = async (m: MockServer) => fieldsOf(await createTicket(m, {})).ticket as string;

const probes: Probe[] = [
  {
    id: 'ho23-jws-b64-false-without-crit',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await redeliver(m, unencodedPayloadToken(m, claims, claims)),
        await redeliver(m, unencodedPayloadToken(m, claims, { ...claims, scope: `${String(claims.scope)} delete:users` })),
      ];
    },
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho23-aud-php-array-cast',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, aud: { primary: c.aud } })),
      await redeliverWith(m, (c) => ({ ...c, aud: { primary: REPORTS_API } })),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho23-iss-python-urlunparse',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iss: `${String(c.iss)}?` })),
      await redeliverWith(m, (c) => ({ ...c, iss: `${String(c.iss)}#` })),
      await redeliverWith(m, (c) => ({ ...c, iss: `${String(c.iss)}?x` })),
    ],
    conformant: [401, 401, 401],
    faulted: [202, 202, 401],
  },
  {
    id: 'ho23-aud-any-identity-of-tenant',
    probe: async (m) => {
      const loopback = `${m.url}/api/v2/`;
      const canonical = `https://${m.fixtures.data.tenant.domain}/api/v2/`;
      return [
        await redeliverWith(m, (c) => ({ ...c, aud: c.aud === loopback ? canonical : loopback })),
        await redeliverWith(m, (c) => ({ ...c, aud: 'http://127.0.0.1:1/api/v2/' })),
      ];
    },
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho23-header-duplicate-alg-first-wins',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const kid = JSON.stringify(m.keys.kid);
      return [
        await redeliver(m, withHeaderText(m, `{"alg":"RS256","typ":"JWT","kid":${kid},"alg":"HS256"}`, claims)),
        await redeliver(m, withHeaderText(m, `{"alg":"none","typ":"JWT","kid":${kid},"alg":"HS256"}`, claims)),
        await redeliver(m, withHeaderText(m, `{"alg":"RS256","typ":"JWT","kid":${kid}}`, claims)),
      ];
    },
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho23-ttl-sec-aspnet-german-culture',
    probe: async (m) => [
      await formTicket(m, 'ttl_sec=3.600'),
      await formTicket(m, 'ttl_sec=3,0'),
      await formTicket(m, 'ttl_sec=3,5'),
      await formTicket(m, 'ttl_sec=3600'),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho23-enabled-clients-go-null-item',
    probe: async (m) => [
      await ticketStatus(m, { enabled_clients: [null] }),
      await ticketStatus(m, { enabled_clients: [5] }),
      await ticketStatus(m, { enabled_clients: [client(m, 'global').client_id] }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho23-ttl-sec-max-parseint-separator',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 3600 }),
      await ticketStatus(m, { ttl_sec: 432_000 }),
      await ticketStatus(m, { ttl_sec: 300 }),
      await ticketStatus(m, { ttl_sec: 432_001 }),
    ],
    conformant: [201, 201, 201, 400],
    faulted: [400, 400, 201, 400],
  },
  {
    id: 'ho23-enabled-features-play-asopt',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: true }),
      await ticketStatus(m, { enabled_features: null }),
      await ticketStatus(m, { enabled_features: { sso: 'yes' } }),
      await ticketStatus(m, { enabled_features: { sso: true } }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho23-unpermitted-members-dropped-rails',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 3600, tll_sec: 60 }),
      await ticketStatus(m, { enabled_features: { sso: true, extra: true } }),
      await ticketStatus(m, { ttl_sec: 3600 }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho23-connection-name-json-net-scalar',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: { name: 42 } }),
      await ticketStatus(m, { connection_config: { name: true } }),
      await ticketStatus(m, { connection_config: { name: { value: 'acme' } } }),
      await ticketStatus(m, { connection_config: { name: 'acme-new-sso' } }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho23-lambda-authorizer-first-arn-cached',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await readVault(m, token),
        await readVault(m, token, ids(m).minimalVault),
        await redeliver(m, token),
        await redeliver(m, await tokenFor(m, 'global', 'update:event_deliveries')),
      ];
    },
    conformant: [200, 200, 202, 202],
    faulted: [200, 403, 403, 202],
  },
  {
    id: 'ho23-global-flag-redis-string',
    probe: async (m) => [
      await redeliver(m, await tokenFor(m, 'non-global')),
      await redeliver(m, await tokenFor(m, 'non-global', 'read:flows_vault_connections')),
      await redeliver(m, await globalToken(m)),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho23-taken-name-checked-before-scope',
    probe: async (m) => {
      const scopeless = await tokenFor(m, 'without-sso-ticket-scope');
      return [
        status(await createTicket(m, { connection_config: { name: ids(m).takenName } }, scopeless)),
        status(await createTicket(m, { connection_config: { name: 'brand-new-sso' } }, scopeless)),
        status(await createTicket(m, { connection_config: { name: ids(m).takenName } })),
      ];
    },
    conformant: [403, 403, 409],
    faulted: [409, 403, 409],
  },
  {
    id: 'ho23-vault-scope-apim-comma-separator',
    probe: async (m) => [
      await readVault(m, await globalToken(m)),
      await readVault(m, await tokenFor(m, 'global', 'read:flows_vault_connections')),
      await readVault(m, await tokenFor(m, 'without-vault-scope')),
    ],
    conformant: [200, 200, 403],
    faulted: [403, 200, 403],
  },
  {
    id: 'ho23-stream-found-by-name',
    probe: async (m) => [
      await redeliverAt(m, 'orders-webhook', ids(m).failedEvent),
      await redeliverAt(m, 'orders-webhooks', ids(m).failedEvent),
    ],
    conformant: [400, 400],
    faulted: [202, 400],
  },
  {
    id: 'ho23-event-id-nim-style-insensitive',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [
        await redeliverAt(m, stream, `${failedEvent.slice(0, 8)}_${failedEvent.slice(8)}`),
        await redeliverAt(m, stream, `${failedEvent.slice(0, 8)}-${failedEvent.slice(8)}`),
      ];
    },
    conformant: [400, 400],
    faulted: [202, 400],
  },
  {
    id: 'ho23-profile-id-unidecode',
    probe: async (m) => [
      await ticketForProfile(m, `ß${ids(m).profile.slice(2)}`),
      await ticketForProfile(m, `š${ids(m).profile.slice(2)}`),
      await ticketForProfile(m, ids(m).profile),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho23-secret-locale-compare',
    probe: async (m) => {
      const { client_secret } = client(m, 'global');
      return [
        await tokenStatus(m, { client_secret: `${client_secret.slice(0, 5)}\u00AD${client_secret.slice(5)}` }),
        await tokenStatus(m, { client_secret: `${client_secret.slice(0, -1)}${client_secret.endsWith('a') ? 'b' : 'a'}` }),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho23-client-id-mongo-operator',
    probe: async (m) => {
      const { client_secret } = client(m, 'global');
      return [
        await jsonTokenStatus(m, { client_id: { $ne: null }, client_secret }),
        await jsonTokenStatus(m, { client_id: { $ne: null }, client_secret: 'wrong-secret' }),
        await jsonTokenStatus(m, { client_id: { $regex: '^nobody' }, client_secret }),
      ];
    },
    conformant: [400, 400, 400],
    faulted: [200, 401, 400],
  },
  {
    id: 'ho23-grant-type-ruby-abbrev',
    probe: async (m) => [
      await tokenStatus(m, { grant_type: 'client' }),
      await tokenStatus(m, { grant_type: 'client_cred' }),
      await tokenStatus(m, { grant_type: 'credentials' }),
      await tokenStatus(m, { grant_type: 'client_credentialz' }),
    ],
    conformant: [400, 400, 400, 400],
    faulted: [200, 200, 400, 400],
  },
  {
    id: 'ho23-assertion-any-rsa-algorithm',
    probe: async (m) => [await assertionStatus(m, 'RS512'), await assertionStatus(m, 'HS256'), await assertionStatus(m, 'RS256')],
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho23-lifetime-jsonwebtoken-string',
    probe: async (m) => {
      const answer = await tokenAnswer(m, {});
      const claims = decodeJwt(fieldsOf(answer).access_token as string);
      return [claims.exp! - claims.iat!, fieldsOf(answer).expires_in];
    },
    conformant: [86_400, 86_400],
    faulted: [86, 86_400],
  },
  {
    id: 'ho23-unknown-client-answered-apart',
    probe: async (m) => {
      const unknown = await tokenAnswer(m, { client_id: unknownLike(client(m, 'global').client_id) });
      const wrong = await tokenAnswer(m, { client_secret: 'wrong-secret' });
      return [unknown.status, fieldsOf(unknown).error, wrong.status, fieldsOf(wrong).error];
    },
    conformant: [401, 'invalid_client', 401, 'invalid_client'],
    faulted: [400, 'invalid_request', 401, 'invalid_client'],
  },
  {
    id: 'ho23-vault-read-elasticsearch-match',
    probe: async (m) => {
      const token = await globalToken(m);
      const unknown = await read(m, token, unknownLike(ids(m).minimalVault));
      const known = await read(m, token, ids(m).minimalVault);
      return [unknown.status, fieldsOf(unknown).id === ids(m).vault, known.status, fieldsOf(known).id];
    },
    conformant: [404, false, 200, 'ac_AkoqqjxmLJhPJThFBi7J1v'],
    faulted: [200, true, 200, 'ac_AkoqqjxmLJhPJThFBi7J1v'],
  },
  {
    id: 'ho23-updated-at-amz-basic-format',
    probe: async (m) => {
      const fields = await record(m, ids(m).vault);
      return [fields.updated_at, fields.created_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['20240912T125216Z', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho23-ticket-url-www-form-encoded',
    probe: async (m) => {
      const ticket = await ticketUrl(m);
      return [ticket.startsWith('https://'), decodeURIComponent(ticket).startsWith('https://')];
    },
    conformant: [true, true],
    faulted: [false, true],
  },
  {
    id: 'ho23-ticket-url-path-join',
    probe: async (m) => {
      const ticket = await ticketUrl(m);
      return [/^https:\/\/[^/]/.test(ticket), /^https:\/[^/]/.test(ticket), /\?ticket=[A-Za-z0-9]{32}$/.test(ticket)];
    },
    conformant: [true, false, true],
    faulted: [false, true, true],
  },
  {
    id: 'ho23-refreshed-at-go-zero-time',
    probe: async (m) => [(await record(m, ids(m).minimalVault)).refreshed_at, (await record(m, ids(m).vault)).refreshed_at],
    conformant: [undefined, '2024-10-01T08:30:00.000Z'],
    faulted: ['0001-01-01T00:00:00.000Z', '2024-10-01T08:30:00.000Z'],
  },
  {
    id: 'ho23-idempotency-key-replays-other-event',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent, deliveredEvent } = ids(m);
      const send = async (event: string, key: string) =>
        status(await call(m, 'POST', redeliverPathOf(stream, event), { token, headers: { 'idempotency-key': key } }));
      return [await send(failedEvent, 'key-1'), await send(deliveredEvent, 'key-1'), await send(deliveredEvent, 'key-2')];
    },
    conformant: [202, 409, 409],
    faulted: [202, 202, 409],
  },
  {
    id: 'ho23-private-address-trusted-from-xff',
    probe: async (m) => {
      const from = async (address: string) =>
        status(await call(m, 'GET', vaultPath(ids(m).vault), { headers: { 'x-forwarded-for': address } }));
      return [await from('10.0.0.7'), await from('203.0.113.7'), status(await anonymousRead(m))];
    },
    conformant: [401, 401, 401],
    faulted: [200, 401, 401],
  },
  {
    id: 'ho23-error-phrase-empty-over-http2',
    probe: async (m) => {
      const answer = await anonymousRead(m);
      return [answer.status, fieldsOf(answer).error, fieldsOf(answer).statusCode];
    },
    conformant: [401, 'Unauthorized', 401],
    faulted: [401, '', 401],
  },
  {
    id: 'ho23-403-worded-all-of',
    probe: async (m) => {
      const answer = await call(m, 'POST', redeliverPathOf(ids(m).stream, ids(m).failedEvent), {
        token: await withScope(m, 'read:event_streams'),
      });
      return [answer.status, messageOf(answer), fieldsOf(answer).errorCode, await redeliverWithScope(m, 'update:event_deliveries')];
    },
    conformant: [403, 'Insufficient scope, expected any of: update:event_deliveries', 'insufficient_scope', 202],
    faulted: [403, 'Insufficient scope, expected all of: update:event_deliveries', 'insufficient_scope', 202],
  },
  {
    id: 'ho23-bucket-clock-from-x-request-start',
    options: TINY_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      const send = async (headers: Record<string, string> = {}) =>
        status(await call(m, 'POST', redeliverPathOf(stream, failedEvent), { token, headers }));
      return [
        await send(),
        await send(),
        await send({ 'x-request-start': String(m.clock.now() - 3_600_000) }),
        await send({ 'x-request-start': String(m.clock.now() + 3_600_000) }),
      ];
    },
    conformant: [202, 202, 429, 429],
    faulted: [202, 202, 429, 202],
  },
  {
    id: 'ho23-get-memo-before-limiter',
    options: bucketOf(5),
    probe: async (m) => {
      const token = await globalToken(m);
      const reads = [...Array.from({ length: 3 }, () => () => read(m, token)), () => read(m, token, ids(m).minimalVault)];
      return answersOf(m, reads);
    },
    conformant: [
      [200, '4'],
      [200, '3'],
      [200, '2'],
      [200, '1'],
    ],
    faulted: [
      [200, '4'],
      [200, '4'],
      [200, '4'],
      [200, '3'],
    ],
  },
  {
    id: 'ho23-reset-from-ttl-before-expire',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      const token = await globalToken(m);
      const ahead = async () => Number(header(await read(m, token), 'x-ratelimit-reset')) - nowSeconds(m);
      return [await ahead(), (await ahead()) >= 0];
    },
    conformant: [1, true],
    faulted: [-1, true],
  },
];

heldOutRoundTests({
  name: 'the twenty-third held-out round',
  prefix: 'ho23-',
  faults: heldOutRound23Faults,
  least: { faults: 34, contract: 20 },
  probes,
  signingKey,
});
