// The twenty-second round of held-out faults (mock/faults/held-out/round-22/): kept apart from the
// gate's catalogue and from the first twenty-one rounds, each row naming a clause of the registry at
// its own level, and each fault shown to do what its bug line says: a probe sends the fault's near
// miss to a conformant mock and to a faulted one, and the two answers differ as the row says (and,
// where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { readFileSync } from 'node:fs';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { decodeJwt } from 'jose';
import { request } from 'undici';
import { observed } from '../../specs/index.ts';
import { heldOutRound22Faults } from '../faults/held-out/round-22/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, jws, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor, tokenRequest } from './support/http.ts';
import {
  FORM,
  ORGANIZATION,
  REPORTS_API,
  TINY_BUCKET,
  anonymousRead,
  bucketOf,
  createTicket,
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
  status,
  ticketPathOf,
  ticketStatus,
  tokenAnswer,
  tokenStatus,
  unknownLike,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-22');
const header = (answer: { headers: Record<string, string> }, name: string) => answer.headers[name];
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>, now: number) => Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) }, nowSeconds(m))));
const redeliverPathOf = (stream: string, event: string) =>
  `/api/v2/event-streams/${encodeURIComponent(stream)}/redeliver/${encodeURIComponent(event)}`;
const redeliverAt = async (m: MockServer, stream: string, event: string) =>
  status(await call(m, 'POST', redeliverPathOf(stream, event), { token: await globalToken(m) }));
/** The global client's token with its signature changed by `edit` (bytes in, bytes out). */
const withSignature = async (m: MockServer, edit: (signature: Buffer) => Buffer) => {
  const [head, payload, signature = ''] = signedAsIs(m, await claimsOf(m)).split('.');
  return `${head}.${payload}.${edit(Buffer.from(signature, 'base64url')).toString('base64url')}`;
};
const withProvisioningScopes = (scopes: unknown) => ({ provisioning_config: { scopes } });
const withOrganizationId = (organization_id: unknown) => ({ enabled_organizations: [{ organization_id }] });
const withMetadata = (metadata: unknown) => ({ connection_config: { name: 'conformance-suite-flow', metadata } });
/** A Relay global id: base64 of "<type>:<id>". */
const globalId = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64');
/** The profile id with its first "K" written `by`. */
const profileWithK = (m: MockServer, by: string) => ids(m).profile.replace('K', by);
const ticketForProfile = async (m: MockServer, id: string) =>
  status(await createTicket(m, {}, undefined, {}, ticketPathOf(m, encodeURIComponent(id))));
/** The global client's credentials as a form, read with a Content-Length or sent chunked. */
const globalForm = (m: MockServer) => new URLSearchParams(tokenRequest(m, 'global')).toString();
const chunkedTokenStatus = async (m: MockServer) => {
  const response = await request(`${m.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': FORM },
    body: Readable.from([globalForm(m)]),
  });
  await response.body.text();
  return response.statusCode;
};
/** The secret with two neighbouring characters changed by (+1, -31), which keeps Java's hashCode. */
const hashTwin = (secret: string) => {
  const alnum = (code: number) => /[A-Za-z0-9]/.test(String.fromCharCode(code));
  for (let i = 0; i + 1 < secret.length; i++) {
    const [a, b] = [secret.charCodeAt(i) + 1, secret.charCodeAt(i + 1) - 31];
    if (alnum(a) && alnum(b)) return `${secret.slice(0, i)}${String.fromCharCode(a, b)}${secret.slice(i + 2)}`;
  }
  throw new Error('no pair of the secret can be changed keeping its hash code');
};
const PRIVATE_KEY_JWT = createPrivateKey(readFileSync(new URL('../fixtures/private-key-jwt-client.key.pem', import.meta.url), 'utf8'));
/** A token request of the private-key-jwt client whose assertion lives `lifetime` seconds, with or without iat. */
const assertionStatus = async (m: MockServer, lifetime: number, withIat: boolean) => {
  const id = m.fixtures.data.clients.find((c) => c.name === 'private-key-jwt')!.client_id;
  const now = nowSeconds(m);
  const assertion = jws(
    { alg: 'RS256', typ: 'JWT' },
    { iss: id, sub: id, aud: m.issuer, exp: now + lifetime, jti: randomUUID(), ...(withIat ? { iat: now } : {}) },
    PRIVATE_KEY_JWT,
  );
  return status(
    await call(m, 'POST', '/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        client_id: id,
        client_assertion_type: observed.tokens.client_assertion.type,
        client_assertion: assertion,
        audience: m.audience,
      },
    }),
  );
};
const firstX5c = async (m: MockServer) => {
  const [key] = fieldsOf(await call(m, 'GET', '/.well-known/jwks.json')).keys as Array<{ x5c: string[] }>;
  return key!.x5c[0]!;
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

const probes: Probe[] = [
  {
    id: 'ho22-exp-rust-as-u32-wrapped',
    probe: async (m) => [await redeliverWith(m, (c) => ({ ...c, exp: -1 })), await redeliverWith(m, (c) => ({ ...c, exp: 0 }))],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho22-signature-zig-fixed-buffer',
    probe: async (m) => [
      await redeliver(m, await withSignature(m, (sig) => Buffer.concat([sig, Buffer.alloc(3)]))),
      await redeliver(m, await withSignature(m, (sig) => Buffer.from(sig.map((byte, i) => (i === 100 ? byte ^ 1 : byte))))),
      await redeliver(m, await withSignature(m, (sig) => sig)),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho22-iss-ruby-array-coerced',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iss: [c.iss] })),
      await redeliverWith(m, (c) => ({ ...c, iss: ['https://other-tenant.example.net/'] })),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho22-kid-decoded-as-base64url-bytes',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const kid = m.keys.kid;
      return [
        await redeliver(m, signedAsIs(m, claims, { kid: `${kid}=` })),
        await redeliver(m, signedAsIs(m, claims, { kid: `${kid[0] === 'A' ? 'B' : 'A'}${kid.slice(1)}` })),
      ];
    },
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho22-ttl-sec-cobol-pic-9-6',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 1_003_600 }),
      await ticketStatus(m, { ttl_sec: 1_500_000 }),
      await ticketStatus(m, { ttl_sec: 3600 }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho22-connection-id-false-clojure-when-let',
    probe: async (m) => [
      await ticketStatus(m, { connection_id: false }),
      await ticketStatus(m, { connection_id: null }),
      await ticketStatus(m, { connection_id: 0 }),
      await ticketStatus(m, { connection_id: '' }),
    ],
    conformant: [400, 400, 400, 400],
    faulted: [201, 201, 400, 400],
  },
  {
    id: 'ho22-provisioning-scopes-avro-union',
    probe: async (m) => [
      await ticketStatus(m, withProvisioningScopes({ array: ['get:users'] })),
      await ticketStatus(m, withProvisioningScopes({ list: ['get:users'] })),
      await ticketStatus(m, withProvisioningScopes(['get:users'])),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho22-organization-id-avro-union',
    probe: async (m) => [
      await ticketStatus(m, withOrganizationId({ string: ORGANIZATION })),
      await ticketStatus(m, withOrganizationId({ str: ORGANIZATION })),
      await ticketStatus(m, withOrganizationId(ORGANIZATION)),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho22-ttl-sec-serde-required',
    probe: async (m) => [
      await ticketStatus(m, {}),
      status(await createTicket(m, undefined)),
      await ticketStatus(m, { ttl_sec: 3600 }),
      await ticketStatus(m, { ttl_sec: 0 }),
    ],
    conformant: [201, 201, 201, 201],
    faulted: [400, 400, 201, 201],
  },
  {
    id: 'ho22-metadata-numbers-weakly-decoded',
    probe: async (m) => [
      await ticketStatus(m, withMetadata({ tier: 42 })),
      await ticketStatus(m, withMetadata({ sso: true })),
      await ticketStatus(m, withMetadata({ tier: { level: 1 } })),
      await ticketStatus(m, withMetadata({ tier: 'gold' })),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho22-scope-turkish-dotted-i',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'read:event_streams update:event_delİveries')),
      await redeliver(m, await withScope(m, 'read:event_streams UPDATE:EVENT_DELIVERIES')),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho22-narrowed-token-okta-scp',
    probe: async (m) => {
      const narrowed = await tokenFor(m, 'global', 'update:event_deliveries');
      return [await redeliver(m, narrowed), 'scope' in decodeJwt(narrowed), await redeliver(m, await globalToken(m))];
    },
    conformant: [202, true, 202],
    faulted: [403, false, 202],
  },
  {
    id: 'ho22-vault-scope-clojure-keyword',
    probe: async (m) => [
      await readVault(m, await withScope(m, 'read/flows_vault_connections')),
      await readVault(m, await withScope(m, 'read/flows_vault_connection')),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho22-granted-scope-trie-prefix',
    probe: async (m) => {
      const prefix = await tokenAnswer(m, { scope: 'read:flows_vault_connection' });
      const token = fieldsOf(prefix)?.access_token;
      return [
        prefix.status,
        typeof token === 'string' ? decodeJwt(token).scope : undefined,
        await tokenStatus(m, { scope: 'delete:users' }),
        await tokenStatus(m, { scope: 'read:flows_vault_connections' }),
      ];
    },
    conformant: [403, undefined, 403, 200],
    faulted: [200, 'read:flows_vault_connection', 403, 200],
  },
  {
    id: 'ho22-stream-id-base58-as-number',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [await redeliverAt(m, `est_1${stream.slice(4)}`, failedEvent), await redeliverAt(m, `est_2${stream.slice(4)}`, failedEvent)];
    },
    conformant: [400, 400],
    faulted: [202, 400],
  },
  {
    id: 'ho22-event-id-relay-global-id',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [
        await redeliverAt(m, stream, globalId('Event', failedEvent)),
        await redeliverAt(m, stream, globalId('Event', unknownLike(failedEvent))),
        await redeliverAt(m, stream, globalId('EventStream', failedEvent)),
      ];
    },
    conformant: [400, 400, 400],
    faulted: [202, 404, 400],
  },
  {
    id: 'ho22-vault-id-overlong-utf8',
    probe: async (m) => {
      const token = await globalToken(m);
      const overlong = (id: string) => `/api/v2/flows/vault/connections/ac%C1%9F${id.slice(3)}`;
      return [
        status(await call(m, 'GET', overlong(ids(m).vault), { token })),
        status(await call(m, 'GET', overlong(unknownLike(ids(m).vault)), { token })),
      ];
    },
    conformant: [400, 400],
    faulted: [200, 404],
  },
  {
    id: 'ho22-profile-id-swift-canonical-equivalence',
    probe: async (m) => [
      await ticketForProfile(m, profileWithK(m, '\u212A')),
      await ticketForProfile(m, profileWithK(m, '\uFF2B')),
      await ticketForProfile(m, ids(m).profile),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho22-token-chunked-body-wsgi',
    probe: async (m) => [await chunkedTokenStatus(m), status(await formToken(m, globalForm(m)))],
    conformant: [200, 200],
    faulted: [400, 200],
  },
  {
    id: 'ho22-audience-scheme-added',
    probe: async (m) => [
      await tokenStatus(m, { audience: m.audience.replace(/^https:\/\//, '') }),
      await tokenStatus(m, { audience: m.audience.replace(/^https:\/\//, '').replace('v2', 'v3') }),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho22-client-from-username-password',
    probe: async (m) => {
      const { client_id, client_secret } = client(m, 'global');
      const without = { client_id: undefined, client_secret: undefined };
      return [
        await tokenStatus(m, { ...without, username: client_id, password: client_secret }),
        await tokenStatus(m, { ...without, username: client_id, password: `${client_secret}x` }),
      ];
    },
    conformant: [400, 400],
    faulted: [200, 401],
  },
  {
    id: 'ho22-secret-java-hashcode',
    probe: async (m) => {
      const { client_secret } = client(m, 'global');
      return [
        await tokenStatus(m, { client_secret: hashTwin(client_secret) }),
        await tokenStatus(m, { client_secret: `${client_secret.slice(0, -1)}${client_secret.endsWith('a') ? 'b' : 'a'}` }),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho22-jwks-x5c-base64url',
    probe: async (m) => {
      const x5c = await firstX5c(m);
      return [Buffer.from(x5c, 'base64').toString('base64') === x5c, /^[A-Za-z0-9_-]+$/.test(x5c)];
    },
    conformant: [true, false],
    faulted: [false, true],
  },
  {
    id: 'ho22-invalid-client-keycloak-code',
    probe: async (m) => {
      const answer = await tokenAnswer(m, { client_secret: 'wrong-secret' });
      return [answer.status, fieldsOf(answer).error];
    },
    conformant: [401, 'invalid_client'],
    faulted: [401, 'unauthorized_client'],
  },
  {
    id: 'ho22-assertion-lifetime-needs-iat',
    probe: async (m) => [await assertionStatus(m, 3600, false), await assertionStatus(m, 3600, true), await assertionStatus(m, 60, true)],
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho22-refreshed-at-protobuf-timestamp-struct',
    probe: async (m) => {
      const fields = await record(m, ids(m).vault);
      return [fields.refreshed_at, typeof fields.created_at, typeof fields.updated_at];
    },
    conformant: ['2024-10-01T08:30:00.000Z', 'string', 'string'],
    faulted: [{ seconds: 1_727_771_400 }, 'string', 'string'],
  },
  {
    id: 'ho22-fingerprint-node-buffer-json',
    probe: async (m) => {
      const fingerprint = (await record(m, ids(m).vault)).fingerprint;
      return [typeof fingerprint, (fingerprint as { type?: unknown }).type];
    },
    conformant: ['string', undefined],
    faulted: ['object', 'Buffer'],
  },
  {
    id: 'ho22-vault-record-dynamodb-keys',
    probe: async (m) => {
      const fields = await record(m, ids(m).vault);
      return [fields.PK, fields.SK, fields.id];
    },
    conformant: [undefined, undefined, 'ac_NbWaizZTo4vfWnCwDq76Vj'],
    faulted: ['CONNECTION#ac_NbWaizZTo4vfWnCwDq76Vj', 'METADATA', 'ac_NbWaizZTo4vfWnCwDq76Vj'],
  },
  {
    id: 'ho22-ticket-host-idna-to-unicode',
    probe: async (m) => {
      const ticketOn = async (domain: string) =>
        fieldsOf(await createTicket(m, {}, undefined, { 'tenant-custom-domain': domain })).ticket as string;
      return [
        (await ticketOn('xn--mnchen-3ya.example')).startsWith('https://xn--mnchen-3ya.example/'),
        (await ticketOn('login.acme.example')).startsWith('https://login.acme.example/'),
      ];
    },
    conformant: [true, true],
    faulted: [false, true],
  },
  {
    id: 'ho22-anonymous-read-served-from-cdn',
    probe: async (m) => {
      const before = status(await anonymousRead(m));
      const authorized = status(await read(m, await globalToken(m)));
      return [before, authorized, status(await anonymousRead(m)), status(await call(m, 'GET', vaultPath(ids(m).minimalVault)))];
    },
    conformant: [401, 200, 401, 401],
    faulted: [401, 200, 200, 401],
  },
  {
    id: 'ho22-wrong-audience-envoy-403',
    probe: async (m) => {
      const answer = await call(m, 'POST', '/oauth/token', { body: tokenRequest(m, 'reports-client', { audience: REPORTS_API }) });
      const reportsToken = fieldsOf(answer).access_token as string;
      return [await redeliver(m, reportsToken), await redeliverWith(m, (c, now) => ({ ...c, iat: now - 7200, exp: now - 3600 }))];
    },
    conformant: [401, 401],
    faulted: [403, 401],
  },
  {
    id: 'ho22-body-type-error-ktor-message',
    probe: async (m) => {
      const typeError = await createTicket(m, { ttl_sec: '3600' });
      const rangeError = await createTicket(m, { ttl_sec: 432_001 });
      return [
        typeError.status,
        messageOf(typeError).startsWith('Payload validation error:'),
        rangeError.status,
        messageOf(rangeError).startsWith('Payload validation error:'),
      ];
    },
    conformant: [400, true, 400, true],
    faulted: [400, false, 400, true],
  },
  {
    id: 'ho22-encoded-ids-skip-kong-limiter',
    options: TINY_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      const plain = redeliverPathOf(stream, failedEvent);
      const encoded = `/api/v2/event-streams/${stream}/redeliver/%${failedEvent.charCodeAt(0).toString(16)}${failedEvent.slice(1)}`;
      const statuses = [];
      for (const path of [plain, plain, encoded, encoded, plain]) statuses.push(status(await call(m, 'POST', path, { token })));
      return statuses;
    },
    conformant: [202, 202, 429, 429, 429],
    faulted: [202, 202, 202, 202, 429],
  },
  {
    id: 'ho22-breaker-429-without-headers',
    options: TINY_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const reads = Array.from({ length: 5 }, () => () => read(m, token));
      return (await answersOf(m, reads, 'x-ratelimit-limit')).map(([code, limit]) => [code, limit !== undefined]);
    },
    conformant: [
      [200, true],
      [200, true],
      [429, true],
      [429, true],
      [429, true],
    ],
    faulted: [
      [200, true],
      [200, true],
      [429, true],
      [429, true],
      [429, false],
    ],
  },
  {
    id: 'ho22-conflict-retried-by-envoy',
    options: bucketOf(4),
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, deliveredEvent } = ids(m);
      return answersOf(m, [() => call(m, 'POST', redeliverPathOf(stream, deliveredEvent), { token }), () => read(m, token)]);
    },
    conformant: [
      [409, '3'],
      [200, '2'],
    ],
    faulted: [
      [409, '2'],
      [200, '1'],
    ],
  },
  {
    id: 'ho22-reset-on-1900-epoch',
    probe: async (m) => {
      const ahead = Number(header(await read(m, await globalToken(m)), 'x-ratelimit-reset')) - nowSeconds(m);
      return [ahead >= 0 && ahead <= 60, ahead > 2_000_000_000];
    },
    conformant: [true, false],
    faulted: [false, true],
  },
];

heldOutRoundTests({
  name: 'the twenty-second held-out round',
  prefix: 'ho22-',
  faults: heldOutRound22Faults,
  least: { faults: 34, contract: 20 },
  probes,
  signingKey,
});
