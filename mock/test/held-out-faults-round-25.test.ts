// The twenty-fifth round of held-out faults (mock/faults/held-out/round-25/): kept apart from the
// gate's catalogue and from the first twenty-four rounds, each row naming a clause of the registry
// at its own level, and each fault shown to do what its bug line says: a probe sends the fault's
// near miss to a conformant mock and to a faulted one, and the two answers differ as the row says
// (and, where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { readFileSync } from 'node:fs';
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { observed } from '../../specs/index.ts';
import { heldOutRound25Faults } from '../faults/held-out/round-25/catalogue.ts';
import { ManualClock, type MockServer } from '../index.ts';
import { claimsOf, jws, jwsOfText, signedAsIs, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor } from './support/http.ts';
import { rawRequest } from './support/raw.ts';
import {
  FORM,
  MANUAL_CLOCK,
  ORGANIZATION,
  REPORTS_API,
  TINY_BUCKET,
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
  replacedAt,
  status,
  ticketHost,
  ticketStatus,
  ticketText,
  tokenAnswer,
  unknownLike,
  vaultPath,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-25');
const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>) => Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) })));
const redeliverPathOf = (stream: string, event: string) =>
  `/api/v2/event-streams/${encodeURIComponent(stream)}/redeliver/${encodeURIComponent(event)}`;
const redeliverAt = async (m: MockServer, stream: string, event: string, token?: string) =>
  call(m, 'POST', redeliverPathOf(stream, event), { token: token ?? (await globalToken(m)) });
const formTicket = async (m: MockServer, text: string) => status(await createTicket(m, text, undefined, { 'content-type': FORM }));
const organizations = (organizationId: string) => ({ enabled_organizations: [{ organization_id: organizationId }] });
const displayName = (name: string) => ({ connection_config: { name: 'acme-new-sso', display_name: name } });
/** Whether the token endpoint issued a token. */
const outcome = (answer: { status: number }) => (answer.status === 200 ? 'token' : 'refused');

const PRIVATE_KEY_JWT = createPrivateKey(readFileSync(new URL('../fixtures/private-key-jwt-client.key.pem', import.meta.url), 'utf8'));
const keyClientId = (m: MockServer) => fixtureClientId(m, 'private-key-jwt');
/** A client assertion of the private-key-jwt client living `lifetime` seconds from now. */
const assertionOf = (m: MockServer, lifetime = 60) => {
  const id = keyClientId(m);
  const now = nowSeconds(m);
  const claims = { iss: id, sub: id, aud: m.issuer, iat: now, exp: now + lifetime, jti: randomUUID() };
  const input = `${b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${sign('sha256', Buffer.from(input), PRIVATE_KEY_JWT).toString('base64url')}`;
};
/** A JSON token request with these members. */
const jsonToken = (m: MockServer, fields: Record<string, unknown>) => call(m, 'POST', '/oauth/token', { body: fields });
const assertionRequest = (m: MockServer, assertion: string) => ({
  grant_type: 'client_credentials',
  client_assertion_type: observed.tokens.client_assertion.type,
  client_assertion: assertion,
  audience: m.audience,
});
/** A form token request of the global client with this secret and audience. */
const globalForm = (m: MockServer, secret: string, audience = m.audience) => {
  const { client_id } = client(m, 'global');
  return `grant_type=client_credentials&client_id=${client_id}&client_secret=${encodeURIComponent(secret)}&audience=${encodeURIComponent(audience)}`;
};
const RATE = (bucketSize: number, refillPerSecond: number) => () => ({
  clock: new ManualClock(),
  rateLimit: { bucketSize, refillPerSecond },
});
const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const headerNames = (answer: { headers: Record<string, string> }) =>
  Object.keys(answer.headers)
    .filter((name) => /ratelimit/.test(name))
    .sort();

const probes: Probe[] = [
  {
    id: 'ho25-exp-first-member-cjson',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const header = { alg: 'RS256', typ: 'JWT', kid: m.keys.kid };
      const past = nowSeconds(m) - 3600;
      const future = nowSeconds(m) + 3600;
      const twice = `{"exp":${future},${JSON.stringify({ ...claims, exp: past }).slice(1)}`;
      return [
        await redeliver(m, jwsOfText(header, twice, m.keys.privateKey)),
        await redeliver(m, jwsOfText(header, JSON.stringify({ ...claims, exp: past }), m.keys.privateKey)),
        await redeliver(m, jwsOfText(header, JSON.stringify({ ...claims, exp: future }), m.keys.privateKey)),
      ];
    },
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho25-aud-string-split-on-spaces',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, aud: `${REPORTS_API} ${String(c.aud)}` })),
      await redeliverWith(m, (c) => ({ ...c, aud: `${REPORTS_API} https://other.example/` })),
      await redeliverWith(m, (c) => ({ ...c, aud: [REPORTS_API, c.aud] })),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho25-signature-cache-keyed-by-jti',
    probe: async (m) => {
      const token = await globalToken(m);
      const tampered = withTamperedSignature(token);
      const withJti = withTamperedSignature(signedAsIs(m, { ...(await claimsOf(m)), jti: 'a1b2c3' }));
      const before = await redeliver(m, tampered);
      const valid = await redeliver(m, token);
      return [before, valid, await redeliver(m, tampered), await redeliver(m, withJti)];
    },
    conformant: [401, 202, 401, 401],
    faulted: [401, 202, 202, 401],
  },
  {
    id: 'ho25-kid-as-jwks-position',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const withKid = (kid: string) => jws({ alg: 'RS256', typ: 'JWT', kid }, { ...claims }, m.keys.privateKey);
      return [await redeliver(m, withKid('0')), await redeliver(m, withKid('7')), await redeliver(m, withKid(m.keys.kid))];
    },
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho25-exp-numeric-string-php-jwt',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, exp: String(nowSeconds(m) + 3600) })),
      await redeliverWith(m, (c) => ({ ...c, exp: 'tomorrow' })),
      await redeliverWith(m, (c) => ({ ...c, exp: String(nowSeconds(m) - 3600) })),
      await redeliverWith(m, (c) => ({ ...c, exp: nowSeconds(m) + 3600 })),
    ],
    conformant: [401, 401, 401, 202],
    faulted: [202, 401, 401, 202],
  },
  {
    id: 'ho25-body-falsy-flask-or-empty',
    probe: async (m) => [
      await ticketText(m, 'null'),
      await ticketText(m, '[]'),
      await ticketText(m, 'false'),
      await ticketText(m, '[1]'),
      await ticketText(m, '{}'),
    ],
    conformant: [400, 400, 400, 400, 201],
    faulted: [201, 201, 201, 400, 201],
  },
  {
    id: 'ho25-ttl-sec-form-lua-string-compare',
    probe: async (m) => [
      await formTicket(m, 'ttl_sec=1000000'),
      await formTicket(m, 'ttl_sec=500000'),
      await ticketStatus(m, { ttl_sec: 1_000_000 }),
      await formTicket(m, 'ttl_sec=3600'),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho25-organization-prefix-ignore-case',
    probe: async (m) => [
      await ticketStatus(m, organizations(ORGANIZATION.replace('org_', 'ORG_'))),
      await ticketStatus(m, organizations(ORGANIZATION.replace('org_', 'Org_'))),
      await ticketStatus(m, organizations(ORGANIZATION.replace('org_', 'grp_'))),
      await ticketStatus(m, organizations(ORGANIZATION)),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho25-third-party-config-zod-default',
    probe: async (m) => [
      await ticketStatus(m, { third_party_client_access_config: {} }),
      await ticketStatus(m, { third_party_client_access_config: { allow_configuration: 'yes' } }),
      await ticketStatus(m, { third_party_client_access_config: { allow_configuration: true } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho25-display-name-bleach-stripped',
    probe: async (m) => [
      await ticketStatus(m, displayName(`<b>${'a'.repeat(126)}</b>`)),
      await ticketStatus(m, displayName('a'.repeat(129))),
      await ticketStatus(m, displayName('Acme SSO')),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho25-client-id-header-trusted',
    probe: async (m) => {
      const globalId = client(m, 'global').client_id;
      const readWith = async (headers: Record<string, string>) => status(await call(m, 'GET', vaultPath(ids(m).vault), { headers }));
      return [
        await readWith({ 'x-authenticated-client-id': globalId }),
        await readWith({ 'x-authenticated-client-id': unknownLike(globalId) }),
        status(await anonymousRead(m)),
      ];
    },
    conformant: [401, 401, 401],
    faulted: [200, 401, 401],
  },
  {
    id: 'ho25-bearer-replay-window-dpop',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      const token = await globalToken(m);
      const first = await readVault(m, token);
      const again = await readVault(m, token);
      advance(m, 1500);
      return [first, again, await readVault(m, token)];
    },
    conformant: [200, 200, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho25-permissions-claim-read-beside-scope',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, scope: 'read:flows_vault_connections', permissions: ['update:event_deliveries'] })),
      await redeliverWith(m, (c) => ({ ...c, scope: 'read:flows_vault_connections', permissions: ['delete:users'] })),
      await redeliverWith(m, (c) => ({ ...c, scope: 'read:flows_vault_connections' })),
    ],
    conformant: [403, 403, 403],
    faulted: [202, 403, 403],
  },
  {
    id: 'ho25-scope-tree-covers-subresources',
    probe: async (m) => {
      const withScope = async (scope: string) => readVault(m, signedAsIs(m, { ...(await claimsOf(m)), scope }));
      return [await withScope('read:flows'), await withScope('read:flo'), await withScope('read:flows_vault_connections')];
    },
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho25-stream-id-redis-scan-match',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [
        status(await redeliverAt(m, `${stream.slice(0, -1)}*`, failedEvent)),
        status(await redeliverAt(m, `${stream.slice(0, -1)}x`, failedEvent)),
        status(await redeliverAt(m, stream, failedEvent)),
      ];
    },
    conformant: [400, 404, 202],
    faulted: [202, 404, 202],
  },
  {
    id: 'ho25-event-id-sequelize-like',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [
        status(await redeliverAt(m, stream, replacedAt(failedEvent, 10, '_'))),
        status(await redeliverAt(m, stream, replacedAt(failedEvent, 10, 'b'))),
        status(await redeliverAt(m, stream, failedEvent)),
      ];
    },
    conformant: [400, 404, 202],
    faulted: [202, 404, 202],
  },
  {
    id: 'ho25-vault-id-decoded-by-proxy-and-service',
    probe: async (m) => {
      const token = await globalToken(m);
      const { vault } = ids(m);
      // The path as sent: the first letter percent-encoded, and that "%" encoded again.
      const encodedFirst = `%25${vault.charCodeAt(0).toString(16)}${vault.slice(1)}`;
      const other = await read(m, token, `%2562${vault.slice(1)}`);
      const near = await read(m, token, encodedFirst);
      return [near.status, fieldsOf(near).id, other.status, await readVault(m, token)];
    },
    conformant: [400, undefined, 400, 200],
    faulted: [200, 'ac_NbWaizZTo4vfWnCwDq76Vj', 400, 200],
  },
  {
    id: 'ho25-path-error-joi-wording',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const answer = await redeliverAt(m, stream, failedEvent.slice(0, -1));
      return [answer.status, messageOf(answer), fieldsOf(answer).errorCode];
    },
    conformant: [400, "Path validation error: 'String is too short (25 chars), minimum 26' on property event_id", 'invalid_uri'],
    faulted: [400, '"event_id" length must be at least 26 characters long', 'invalid_uri'],
  },
  {
    id: 'ho25-client-id-camelcase-keys',
    probe: async (m) => {
      const { client_id, client_secret } = client(m, 'global');
      const base = { grant_type: 'client_credentials', client_secret, audience: m.audience };
      return [
        outcome(await jsonToken(m, { ...base, clientId: client_id })),
        outcome(await jsonToken(m, { ...base, clientId: unknownLike(client_id) })),
        outcome(await jsonToken(m, { ...base, client_id })),
      ];
    },
    conformant: ['refused', 'refused', 'token'],
    faulted: ['token', 'refused', 'token'],
  },
  {
    id: 'ho25-audience-unquoted-again',
    probe: async (m) => {
      const secret = client(m, 'global').client_secret;
      return [
        status(await formToken(m, globalForm(m, secret, m.audience.replace('/api/v2/', '/api%2Fv2/')))),
        status(await formToken(m, globalForm(m, secret, m.audience.replace('/api/v2/', '/api%2Fv3/')))),
        status(await formToken(m, globalForm(m, secret))),
      ];
    },
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho25-secret-stored-cut-to-given-length',
    probe: async (m) => {
      const secret = client(m, 'global').client_secret;
      const lastChanged = `${secret.slice(0, -1)}${secret.endsWith('x') ? 'y' : 'x'}`;
      return [
        status(await formToken(m, globalForm(m, secret.slice(0, -1)))),
        status(await formToken(m, globalForm(m, secret.slice(0, 8)))),
        status(await formToken(m, globalForm(m, lastChanged))),
        status(await formToken(m, globalForm(m, secret))),
      ];
    },
    conformant: [401, 401, 401, 200],
    faulted: [200, 200, 401, 200],
  },
  {
    id: 'ho25-token-error-fosite-members',
    probe: async (m) => {
      const answer = await formToken(m, globalForm(m, 'not-the-secret'));
      return [answer.status, Object.keys(fieldsOf(answer)).sort(), fieldsOf(answer).error];
    },
    conformant: [401, ['error', 'error_description'], 'invalid_client'],
    faulted: [401, ['error', 'error_description', 'error_hint', 'status_code'], 'invalid_client'],
  },
  {
    id: 'ho25-assertion-lifetime-whole-minutes',
    probe: async (m) => [
      outcome(await jsonToken(m, assertionRequest(m, assertionOf(m, 350)))),
      outcome(await jsonToken(m, assertionRequest(m, assertionOf(m, 360)))),
      outcome(await jsonToken(m, assertionRequest(m, assertionOf(m, 60)))),
    ],
    conformant: ['refused', 'refused', 'token'],
    faulted: ['token', 'refused', 'token'],
  },
  {
    id: 'ho25-scope-omitted-when-as-requested',
    probe: async (m) => {
      const narrowed = await tokenAnswer(m, { scope: 'update:event_deliveries read:flows_vault_connections' });
      const whole = await tokenAnswer(m, {});
      return [narrowed.status, Object.keys(fieldsOf(narrowed)).sort(), whole.status, Object.keys(fieldsOf(whole)).sort()];
    },
    conformant: [200, ['access_token', 'expires_in', 'scope', 'token_type'], 200, ['access_token', 'expires_in', 'scope', 'token_type']],
    faulted: [200, ['access_token', 'expires_in', 'token_type'], 200, ['access_token', 'expires_in', 'scope', 'token_type']],
  },
  {
    id: 'ho25-vault-name-lodash-truncate-defaults',
    probe: async (m) => [(await record(m)).name, (await record(m, ids(m).longVault)).name],
    conformant: [
      'Team notifications',
      'Payments reconciliation connection for the European subsidiaries, covering every regional merchant account and the settlement reporting pipeline (EU).',
    ],
    faulted: ['Team notifications', 'Payments reconciliation con...'],
  },
  {
    id: 'ho25-vault-fingerprint-only-when-ready',
    probe: async (m) => [(await record(m, ids(m).notReadyVault)).fingerprint, (await record(m)).fingerprint],
    conformant: ['94a7199fcfc7f634376220903d3b5356', '6d8cd5d8165fd55597d6ab7e02a78bf3'],
    faulted: ['', '6d8cd5d8165fd55597d6ab7e02a78bf3'],
  },
  {
    id: 'ho25-created-at-go-time-string',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.created_at, fields.updated_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['2024-09-12 12:52:16.553 +0000 UTC', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho25-ticket-host-registrable-domain',
    probe: async (m) => [
      await ticketHost(m, { 'tenant-custom-domain': 'login.partner.example' }),
      await ticketHost(m, { 'tenant-custom-domain': 'partner.example' }),
      await ticketHost(m, {}),
    ],
    conformant: ['login.partner.example', 'partner.example', 'tenant.example.com'],
    faulted: ['partner.example', 'partner.example', 'tenant.example.com'],
  },
  {
    id: 'ho25-ticket-code-base64url-bytes',
    probe: async (m) => {
      const codes: string[] = [];
      for (let i = 0; i < 12; i += 1) {
        const ticket = new URL(fieldsOf(await createTicket(m, {})).ticket as string);
        codes.push(ticket.searchParams.get('ticket') ?? '');
      }
      // Twelve random base64url codes all free of "-" and "_": about one chance in 200 000.
      return [codes.every((code) => /^[A-Za-z0-9]{32}$/.test(code)), codes.every((code) => code.length === 32)];
    },
    conformant: [true, true],
    faulted: [false, true],
  },
  {
    id: 'ho25-redelivery-optimistic-pending-cache',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent, otherStream, otherFailedEvent } = ids(m);
      const first = await redeliver(m, token, stream, failedEvent);
      const again = await redeliver(m, token, stream, failedEvent);
      const other = await redeliver(m, token, otherStream, otherFailedEvent);
      advance(m, 6 * 60 * 1000);
      return [first, again, other, await redeliver(m, await globalToken(m), stream, failedEvent)];
    },
    conformant: [202, 202, 202, 202],
    faulted: [202, 409, 202, 202],
  },
  {
    id: 'ho25-ticket-res-send-string-html',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      return [answer.status, answer.headers['content-type'], typeof fieldsOf(answer).ticket];
    },
    conformant: [201, 'application/json; charset=utf-8', 'string'],
    faulted: [201, 'text/html; charset=utf-8', 'string'],
  },
  {
    id: 'ho25-401-jsonwebtoken-messages',
    probe: async (m) => {
      const token = await globalToken(m);
      const tampered = await call(m, 'GET', vaultPath(ids(m).vault), { token: withTamperedSignature(token) });
      const anonymous = await anonymousRead(m);
      const notGlobal = await redeliverAt(m, ids(m).stream, ids(m).failedEvent, await tokenFor(m, 'non-global'));
      return [tampered.status, messageOf(tampered), anonymous.status, messageOf(anonymous), notGlobal.status, messageOf(notGlobal)];
    },
    conformant: [
      401,
      'Invalid signature received for JSON Web Token validation',
      401,
      'Missing authentication',
      401,
      'Client is not global',
    ],
    faulted: [401, 'invalid signature', 401, 'No authorization token was found', 401, 'Client is not global'],
  },
  {
    id: 'ho25-vault-404-django-get-object',
    probe: async (m) => {
      const token = await globalToken(m);
      const unknown = await read(m, token, unknownLike(ids(m).vault));
      return [unknown.status, messageOf(unknown), await readVault(m, token)];
    },
    conformant: [404, 'Connection not found', 200],
    faulted: [404, 'No VaultConnection matches the given query.', 200],
  },
  {
    id: 'ho25-authorization-first-header-go',
    probe: async (m) => {
      const token = await globalToken(m);
      const twice = async (first: string, second: string) => {
        const head = `GET ${vaultPath(ids(m).vault)} HTTP/1.1\r\nHost: ${m.host}:${m.port}\r\nAuthorization: ${first}\r\nAuthorization: ${second}\r\nConnection: close\r\n\r\n`;
        return (await rawRequest(m, head))?.status;
      };
      return [
        await twice(`Bearer ${token}`, 'Bearer abc'),
        await twice('Bearer abc', `Bearer ${token}`),
        await readAs(m, `Bearer ${token}`),
      ];
    },
    conformant: [400, 400, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho25-ratelimit-draft-6-headers',
    options: TINY_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [];
      for (let i = 0; i < 3; i += 1) answers.push(await read(m, token));
      const refused = answers[2]!;
      return [answers.map(status), headerNames(refused)];
    },
    conformant: [[200, 200, 429], RATE_HEADERS],
    faulted: [
      [200, 200, 429],
      ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'],
    ],
  },
  {
    id: 'ho25-ticket-headers-hook-other-blueprint',
    options: RATE(5, 1),
    probe: async (m) => {
      const ticket = await createTicket(m, {});
      const vault = await read(m, await globalToken(m));
      return [ticket.status, headerNames(ticket), vault.status, headerNames(vault)];
    },
    conformant: [201, RATE_HEADERS, 200, RATE_HEADERS],
    faulted: [201, [], 200, RATE_HEADERS],
  },
];

heldOutRoundTests({
  name: 'the twenty-fifth held-out round',
  prefix: 'ho25-',
  faults: heldOutRound25Faults,
  least: { faults: 36, contract: 20 },
  probes,
  signingKey,
});
