// The twenty-fourth round of held-out faults (mock/faults/held-out/round-24/): kept apart from the
// gate's catalogue and from the first twenty-three rounds, each row naming a clause of the registry
// at its own level, and each fault shown to do what its bug line says: a probe sends the fault's
// near miss to a conformant mock and to a faulted one, and the two answers differ as the row says
// (and, where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { readFileSync } from 'node:fs';
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeJwt } from 'jose';
import { observed } from '../../specs/index.ts';
import { heldOutRound24Faults } from '../faults/held-out/round-24/catalogue.ts';
import { ManualClock, type MockServer } from '../index.ts';
import { claimsOf, jws, jwsOfText, signedAsIs, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor } from './support/http.ts';
import {
  FORM,
  MANUAL_CLOCK,
  REPORTS_API,
  advance,
  anonymousRead,
  createTicket,
  fieldsOf,
  fixtureClientId,
  formToken,
  globalToken,
  ids,
  messageOf,
  nowSeconds,
  probeKeyFile,
  read,
  readAs,
  readVault,
  record,
  redeliver,
  status,
  ticketPathOf,
  ticketStatus,
  tokenAnswer,
  tokenStatus,
  unknownLike,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-24');
const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
const bigIntOf = (bytes: Buffer) => BigInt(`0x${bytes.toString('hex')}`);
/** A non-negative integer as the fewest big-endian octets that hold it, base64url. */
const octets = (value: bigint) => {
  const hex = value.toString(16);
  return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex').toString('base64url');
};
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>) => Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) })));
/** A token of the global client's claims with this header, signed RS256 with the mock's key whatever the header says. */
const withHeader = async (m: MockServer, header: Record<string, unknown>) => jws(header, { ...(await claimsOf(m)) }, m.keys.privateKey);
const redeliverPathOf = (stream: string, event: string) =>
  `/api/v2/event-streams/${encodeURIComponent(stream)}/redeliver/${encodeURIComponent(event)}`;
const redeliverAt = async (m: MockServer, stream: string, event: string, token?: string) =>
  call(m, 'POST', redeliverPathOf(stream, event), { token: token ?? (await globalToken(m)) });
const formTicket = async (m: MockServer, text: string) => status(await createTicket(m, text, undefined, { 'content-type': FORM }));
const aliases = (config: Record<string, unknown>) => ({ domain_aliases_config: { domain_verification: 'none', ...config } });
const idpInitiated = (clientProtocol: unknown) => ({
  connection_config: { name: 'acme-new-sso', options: { idpinitiated: { client_protocol: clientProtocol } } },
});
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ticketUrl = async (m: MockServer, headers: Record<string, string> = {}) =>
  fieldsOf(await createTicket(m, {}, undefined, headers)).ticket as string;

const PRIVATE_KEY_JWT = createPrivateKey(readFileSync(new URL('../fixtures/private-key-jwt-client.key.pem', import.meta.url), 'utf8'));
const keyClientId = (m: MockServer) => fixtureClientId(m, 'private-key-jwt');
/** A client assertion of the private-key-jwt client, valid unless `aud` says otherwise. */
const assertionOf = (m: MockServer, aud: string = m.issuer) => {
  const id = keyClientId(m);
  const now = nowSeconds(m);
  const input = `${b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${b64url(JSON.stringify({ iss: id, sub: id, aud, iat: now, exp: now + 60, jti: randomUUID() }))}`;
  return `${input}.${sign('sha256', Buffer.from(input), PRIVATE_KEY_JWT).toString('base64url')}`;
};
/** A JSON token request with these members. */
const jsonToken = async (m: MockServer, fields: Record<string, unknown>) =>
  status(await call(m, 'POST', '/oauth/token', { body: { audience: m.audience, ...fields } }));
const assertionRequest = (m: MockServer, assertion: string, fields: Record<string, unknown> = {}) => ({
  grant_type: 'client_credentials',
  client_assertion_type: observed.tokens.client_assertion.type,
  client_assertion: assertion,
  ...fields,
});
/** A form token request of the global client with these parameters after its own. */
const globalForm = (m: MockServer, rest: string) => {
  const { client_id, client_secret } = client(m, 'global');
  return `grant_type=client_credentials&client_id=${client_id}&client_secret=${client_secret}&${rest}`;
};
const RATE = (bucketSize: number, refillPerSecond: number) => () => ({
  clock: new ManualClock(),
  rateLimit: { bucketSize, refillPerSecond },
});

const probes: Probe[] = [
  {
    id: 'ho24-signature-unreduced-python-pow',
    probe: async (m) => {
      const token = await globalToken(m);
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const n = bigIntOf(Buffer.from(m.keys.jwks.keys[0]!.n, 'base64url'));
      const s = bigIntOf(Buffer.from(signature, 'base64url'));
      return [
        await redeliver(m, `${header}.${payload}.${octets(s + n)}`),
        await redeliver(m, `${header}.${payload}.${octets(s + 1n)}`),
        await redeliver(m, token),
      ];
    },
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho24-aud-list-jwt-go-type-assertion',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, aud: [REPORTS_API] })),
      await redeliverWith(m, (c) => ({ ...c, aud: REPORTS_API })),
      await redeliverWith(m, (c) => ({ ...c, aud: [c.aud, REPORTS_API] })),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho24-claims-trailing-data-go-decoder',
    probe: async (m) => {
      const claims = JSON.stringify(await claimsOf(m));
      const header = { alg: 'RS256', typ: 'JWT', kid: m.keys.kid };
      return [
        await redeliver(m, jwsOfText(header, `${claims}{"scope":"x"}`, m.keys.privateKey)),
        await redeliver(m, jwsOfText(header, `${claims}garbage`, m.keys.privateKey)),
        await redeliver(m, jwsOfText(header, claims.slice(0, -1), m.keys.privateKey)),
      ];
    },
    conformant: [401, 401, 401],
    faulted: [202, 202, 401],
  },
  {
    id: 'ho24-header-alg-from-webcrypto-key',
    probe: async (m) => [
      await redeliver(m, await withHeader(m, { alg: 'RS512', typ: 'JWT', kid: m.keys.kid })),
      await redeliver(m, await withHeader(m, { alg: 'PS256', typ: 'JWT', kid: m.keys.kid })),
      await redeliver(m, await withHeader(m, { alg: 'none', typ: 'JWT', kid: m.keys.kid })),
      await redeliver(m, await withHeader(m, { alg: 'RS256', typ: 'JWT', kid: m.keys.kid })),
    ],
    conformant: [401, 401, 401, 202],
    faulted: [202, 202, 401, 202],
  },
  {
    id: 'ho24-token-age-microprofile-limit',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      const token = await globalToken(m);
      const fresh = await redeliver(m, token);
      advance(m, 2 * 3600 * 1000);
      return [fresh, await redeliver(m, token), await redeliver(m, await globalToken(m))];
    },
    conformant: [202, 202, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho24-form-empty-value-gin-zero',
    probe: async (m) => [
      await formTicket(m, 'ttl_sec='),
      await formTicket(m, 'use_for_organization_discovery='),
      await formTicket(m, 'ttl_sec=abc'),
      await formTicket(m, 'ttl_sec=3600'),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho24-ttl-sec-max-with-clock-tolerance',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 432_030 }),
      await ticketStatus(m, { ttl_sec: 432_001 }),
      await ticketStatus(m, { ttl_sec: 432_031 }),
      await ticketStatus(m, { ttl_sec: 432_000 }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho24-pending-domain-empty-laravel-null',
    probe: async (m) => [
      await ticketStatus(m, aliases({ pending_domains: [''] })),
      await ticketStatus(m, aliases({ pending_domains: ['login.example.com', ''] })),
      await ticketStatus(m, aliases({ pending_domains: ['a'.repeat(256)] })),
      await ticketStatus(m, aliases({ pending_domains: ['login.example.com'] })),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho24-domain-verification-kotlinx-coerced',
    probe: async (m) => [
      await ticketStatus(m, aliases({ domain_verification: 'mandatory' })),
      await ticketStatus(m, aliases({ domain_verification: null })),
      await ticketStatus(m, aliases({ domain_verification: 5 })),
      await ticketStatus(m, aliases({ domain_verification: 'optional' })),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho24-client-protocol-integer-stj-enum',
    probe: async (m) => [
      await ticketStatus(m, idpInitiated(1)),
      await ticketStatus(m, idpInitiated(0)),
      await ticketStatus(m, idpInitiated('saml')),
      await ticketStatus(m, idpInitiated('wsfed')),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho24-tokens-valid-after-last-issue',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      const first = await globalToken(m);
      advance(m, 2000);
      const second = await globalToken(m);
      const sameSecond = await globalToken(m);
      return [await redeliver(m, first), await redeliver(m, second), await redeliver(m, sameSecond)];
    },
    conformant: [202, 202, 202],
    faulted: [401, 202, 202],
  },
  {
    id: 'ho24-requested-scope-text-in-claim',
    probe: async (m) => {
      const answer = await tokenAnswer(m, { scope: 'update:event_deliveries\tread:flows_vault_connections' });
      const claims = answer.status === 200 ? decodeJwt(fieldsOf(answer).access_token as string) : undefined;
      return [
        answer.status,
        claims?.scope,
        await tokenStatus(m, { scope: 'update:event_deliveries\tdelete:users' }),
        await tokenStatus(m, { scope: 'update:event_deliveries read:flows_vault_connections' }),
      ];
    },
    conformant: [403, undefined, 403, 200],
    faulted: [200, 'update:event_deliveries\tread:flows_vault_connections', 403, 200],
  },
  {
    id: 'ho24-token-as-basic-password',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await readAs(m, basic('x-access-token', token)),
        await readAs(m, basic(token, '')),
        await readAs(m, basic('x-access-token', withTamperedSignature(token))),
        await readAs(m, `Bearer ${token}`),
      ];
    },
    conformant: [401, 401, 401, 200],
    faulted: [200, 200, 401, 200],
  },
  {
    id: 'ho24-custom-domain-validated-before-jwt',
    probe: async (m) => {
      const ticket = async (domain: string, token?: string) =>
        status(
          await call(m, 'POST', ticketPathOf(m), { body: {}, headers: { 'tenant-custom-domain': domain }, ...(token ? { token } : {}) }),
        );
      return [
        await ticket('ab'),
        await ticket('ab', await tokenFor(m, 'without-sso-ticket-scope')),
        await ticket('login.partner.example'),
        await ticket('ab', await globalToken(m)),
      ];
    },
    conformant: [401, 403, 401, 400],
    faulted: [400, 400, 401, 400],
  },
  {
    id: 'ho24-stream-id-memcached-multi-get',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [
        status(await redeliverAt(m, `${stream} x`, failedEvent)),
        status(await redeliverAt(m, `${stream}x`, failedEvent)),
        status(await redeliverAt(m, stream, failedEvent)),
      ];
    },
    conformant: [400, 400, 202],
    faulted: [202, 400, 202],
  },
  {
    id: 'ho24-event-id-icu-ignore-accents',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [
        status(await redeliverAt(m, stream, failedEvent.replace('a', 'á'))),
        status(await redeliverAt(m, stream, failedEvent.replace('a', 'b'))),
        status(await redeliverAt(m, stream, failedEvent.replace('a', 'A'))),
      ];
    },
    conformant: [400, 404, 404],
    faulted: [202, 404, 404],
  },
  {
    id: 'ho24-vault-cache-key-lowercased',
    probe: async (m) => {
      const token = await globalToken(m);
      const lower = ids(m).vault.toLowerCase();
      const before = await readVault(m, token, lower);
      const real = await readVault(m, token);
      const after = await read(m, token, lower);
      return [before, real, after.status, fieldsOf(after).id];
    },
    conformant: [404, 200, 404, undefined],
    faulted: [404, 200, 200, 'ac_NbWaizZTo4vfWnCwDq76Vj'],
  },
  {
    id: 'ho24-path-error-fastify-wording',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const answer = await redeliverAt(m, stream, failedEvent.slice(0, -1));
      return [answer.status, messageOf(answer), fieldsOf(answer).errorCode];
    },
    conformant: [400, "Path validation error: 'String is too short (25 chars), minimum 26' on property event_id", 'invalid_uri'],
    faulted: [400, 'params/event_id must NOT have fewer than 26 characters', 'invalid_uri'],
  },
  {
    id: 'ho24-secret-php-strcmp-array',
    probe: async (m) => {
      const { client_id } = client(m, 'global');
      const audience = encodeURIComponent(m.audience);
      const base = `grant_type=client_credentials&client_id=${client_id}&audience=${audience}`;
      return [
        status(await formToken(m, `${base}&client_secret[]=anything`)),
        await jsonToken(m, { grant_type: 'client_credentials', client_id, client_secret: ['anything'] }),
        status(await formToken(m, `${base}&client_secret=anything`)),
      ];
    },
    conformant: [400, 400, 401],
    faulted: [200, 200, 401],
  },
  {
    id: 'ho24-assertion-client-id-unchecked',
    probe: async (m) => {
      const globalId = client(m, 'global').client_id;
      return [
        await jsonToken(m, assertionRequest(m, assertionOf(m), { client_id: globalId })),
        await jsonToken(m, assertionRequest(m, assertionOf(m), { client_id: unknownLike(globalId) })),
        await jsonToken(m, assertionRequest(m, assertionOf(m), { client_id: keyClientId(m) })),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho24-grant-type-jwt-bearer-openiddict',
    probe: async (m) => [
      await jsonToken(m, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: assertionOf(m) }),
      await jsonToken(m, { grant_type: 'password', assertion: assertionOf(m) }),
      await jsonToken(m, assertionRequest(m, assertionOf(m))),
    ],
    conformant: [400, 400, 200],
    faulted: [200, 400, 200],
  },
  {
    id: 'ho24-assertion-jti-per-replica',
    probe: async (m) => {
      const assertion = assertionOf(m);
      const answers = [];
      for (let use = 0; use < 5; use += 1) answers.push(await jsonToken(m, assertionRequest(m, assertion)));
      return answers;
    },
    conformant: [200, 401, 401, 401, 401],
    faulted: [200, 200, 200, 200, 401],
  },
  {
    id: 'ho24-assertion-aud-authority-only',
    probe: async (m) => [
      await jsonToken(m, assertionRequest(m, assertionOf(m, `${m.issuer}userinfo`))),
      await jsonToken(m, assertionRequest(m, assertionOf(m, m.issuer.slice(0, -1)))),
      await jsonToken(m, assertionRequest(m, assertionOf(m, REPORTS_API))),
      await jsonToken(m, assertionRequest(m, assertionOf(m))),
    ],
    conformant: [401, 401, 401, 200],
    faulted: [200, 200, 401, 200],
  },
  {
    id: 'ho24-form-blank-repeat-parse-qs',
    probe: async (m) => {
      const audience = encodeURIComponent(m.audience);
      return [
        status(await formToken(m, globalForm(m, `audience=${audience}&audience=`))),
        status(await formToken(m, globalForm(m, `audience=${audience}&audience=${encodeURIComponent(REPORTS_API)}`))),
        status(await formToken(m, globalForm(m, `audience=${audience}`))),
      ];
    },
    conformant: [400, 400, 200],
    faulted: [200, 400, 200],
  },
  {
    id: 'ho24-vault-read-dataloader-order',
    probe: async (m) => {
      const token = await globalToken(m);
      const { vault, minimalVault } = ids(m);
      const alone = fieldsOf(await read(m, token, minimalVault)).id;
      // Two reads 5 ms apart share a batch unless the machine is slow enough to part them: up to
      // five tries, the first that shows the swap kept (a conformant mock never swaps).
      let seen: unknown[] = [];
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const askedFirst = read(m, token, minimalVault);
        await sleep(5);
        const askedSecond = read(m, token, vault);
        const [first, second] = await Promise.all([askedFirst, askedSecond]);
        seen = [alone, first.status, fieldsOf(first).id, second.status, fieldsOf(second).id];
        if (fieldsOf(first).id !== minimalVault) break;
      }
      return seen;
    },
    conformant: ['ac_AkoqqjxmLJhPJThFBi7J1v', 200, 'ac_AkoqqjxmLJhPJThFBi7J1v', 200, 'ac_NbWaizZTo4vfWnCwDq76Vj'],
    faulted: ['ac_AkoqqjxmLJhPJThFBi7J1v', 200, 'ac_NbWaizZTo4vfWnCwDq76Vj', 200, 'ac_AkoqqjxmLJhPJThFBi7J1v'],
  },
  {
    id: 'ho24-ticket-host-configmap-newline',
    probe: async (m) => {
      const ticket = await ticketUrl(m);
      const custom = await ticketUrl(m, { 'tenant-custom-domain': 'login.partner.example' });
      return [ticket.includes('\n'), new URL(ticket).host, custom.includes('\n')];
    },
    conformant: [false, 'tenant.example.com', false],
    faulted: [true, 'tenant.example.com', false],
  },
  {
    id: 'ho24-vault-content-type-appended-koa',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m));
      return [answer.status, answer.headers['content-type'], fieldsOf(answer).id];
    },
    conformant: [200, 'application/json; charset=utf-8', 'ac_NbWaizZTo4vfWnCwDq76Vj'],
    faulted: [200, 'application/json; charset=utf-8, application/json', 'ac_NbWaizZTo4vfWnCwDq76Vj'],
  },
  {
    id: 'ho24-created-at-buddhist-calendar',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.created_at, fields.updated_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['2567-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho24-ticket-url-django-language-prefix',
    probe: async (m) => {
      const ticket = new URL(await ticketUrl(m));
      return [ticket.host, ticket.pathname, /^[A-Za-z0-9]{32}$/.test(ticket.searchParams.get('ticket') ?? '')];
    },
    conformant: ['tenant.example.com', '/self-service/connections-flow', true],
    faulted: ['tenant.example.com', '/en/self-service/connections-flow', true],
  },
  {
    id: 'ho24-event-read-from-failed-events-table',
    probe: async (m) => {
      const { stream, failedEvent, deliveredEvent, pendingEvent } = ids(m);
      return [
        status(await redeliverAt(m, stream, deliveredEvent)),
        status(await redeliverAt(m, stream, pendingEvent)),
        status(await redeliverAt(m, stream, failedEvent)),
      ];
    },
    conformant: [409, 409, 202],
    faulted: [404, 404, 202],
  },
  {
    id: 'ho24-gateway-fails-open-on-error',
    probe: async (m) => [await readAs(m, 'Bearer abc'), await readAs(m, 'Bearer a.b.c'), status(await anonymousRead(m))],
    conformant: [401, 401, 401],
    faulted: [200, 401, 401],
  },
  {
    id: 'ho24-bad-audience-names-required',
    probe: async (m) => {
      const reports = fieldsOf(await tokenAnswer(m, { audience: REPORTS_API }, 'reports-client')).access_token as string;
      const answer = await read(m, reports);
      return [answer.status, messageOf(answer)];
    },
    conformant: [401, 'Bad audience: https://reports-api.example.com/'],
    faulted: [401, 'Bad audience: https://tenant.example.com/api/v2/'],
  },
  {
    id: 'ho24-two-causes-exception-group',
    probe: async (m) => {
      const unknownProfile = ticketPathOf(m, unknownLike(ids(m).profile));
      const taken = { connection_config: { name: ids(m).takenName } };
      return [
        status(await createTicket(m, taken, undefined, {}, unknownProfile)),
        status(await createTicket(m, {}, undefined, {}, unknownProfile)),
        status(await createTicket(m, taken)),
      ];
    },
    conformant: [404, 404, 409],
    faulted: [500, 404, 409],
  },
  {
    id: 'ho24-401-body-boom-output',
    probe: async (m) => {
      const anonymous = await anonymousRead(m);
      const notGlobal = await redeliverAt(m, ids(m).stream, ids(m).failedEvent, await tokenFor(m, 'non-global'));
      return [anonymous.status, Object.keys(fieldsOf(anonymous)).sort(), notGlobal.status, Object.keys(fieldsOf(notGlobal)).sort()];
    },
    conformant: [401, ['attributes', 'error', 'message', 'statusCode'], 401, ['error', 'message', 'statusCode']],
    faulted: [401, ['headers', 'payload', 'statusCode'], 401, ['error', 'message', 'statusCode']],
  },
  {
    id: 'ho24-gcra-tat-whole-seconds',
    options: RATE(2, 10),
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [];
      for (let i = 0; i < 4; i += 1) answers.push(await redeliver(m, token));
      return answers;
    },
    conformant: [202, 202, 429, 429],
    faulted: [202, 202, 202, 202],
  },
  {
    id: 'ho24-remaining-python-float',
    options: RATE(5, 1),
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [];
      for (let i = 0; i < 6; i += 1) {
        if (i === 2) advance(m, 500);
        const answer = await read(m, token);
        answers.push([answer.status, answer.headers['x-ratelimit-remaining']]);
      }
      return answers;
    },
    conformant: [
      [200, '4'],
      [200, '3'],
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '0'],
    ],
    faulted: [
      [200, '4.0'],
      [200, '3.0'],
      [200, '2.5'],
      [200, '1.5'],
      [200, '0.5'],
      [429, '0.5'],
    ],
  },
];

heldOutRoundTests({
  name: 'the twenty-fourth held-out round',
  prefix: 'ho24-',
  faults: heldOutRound24Faults,
  least: { faults: 36, contract: 20 },
  probes,
  signingKey,
});
