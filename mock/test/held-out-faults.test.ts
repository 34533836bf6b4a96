// The held-out catalogue (mock/faults/held-out/): kept apart from the gate's, each row naming a
// clause of the registry at its own level, and each fault shown to do what its bug line says: a
// probe sends the fault's near miss to a conformant mock and to a faulted one, and the two answers
// differ as the row says. A fault that changed nothing would count as a survivor of the suite for
// no reason; this is what rules that out.
import { decodeProtectedHeader, generateKeyPair } from 'jose';
import { heldOutFaults } from '../faults/held-out/catalogue.ts';
import type { MockServer } from '../index.ts';
import { selfSignedCertificate } from '../tls/certificates.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, tokenFor, tokenRequest, type Answer } from './support/http.ts';
import {
  createTicket,
  fieldsOf,
  ids,
  nowSeconds,
  probeKeyFile,
  readVault,
  redeliver,
  redeliverPath,
  status,
  ticketPathOf,
  ticketStatus,
  TINY_BUCKET,
  tokenAnswer,
  vaultPath,
} from './support/probe-kit.ts';
import { claimsOf, jws, signedAsIs as signed, withTamperedSignature } from './support/forged-tokens.ts';

const signingKey = probeKeyFile('held-out-faults');

const messageOf = (answer: Answer) => (answer.json as { message?: string }).message ?? '';

async function thirdAnswer(mock: MockServer): Promise<Answer> {
  const token = await tokenFor(mock, 'global');
  await call(mock, 'GET', vaultPath(ids(mock).vault), { token });
  await call(mock, 'GET', vaultPath(ids(mock).vault), { token });
  return call(mock, 'GET', vaultPath(ids(mock).vault), { token });
}

const probes: Probe[] = [
  // JOSE header and signature
  {
    id: 'ho-crit-header-ignored',
    probe: async (m) => readVault(m, signed(m, await claimsOf(m), { crit: ['x-unknown'], 'x-unknown': true })),
    conformant: 401,
    faulted: 200,
  },
  {
    id: 'ho-alg-name-ignoring-case',
    probe: async (m) => readVault(m, signed(m, await claimsOf(m), { alg: 'rs256' })),
    conformant: 401,
    faulted: 200,
  },
  {
    id: 'ho-verified-cache-keyed-by-signed-part',
    probe: async (m) => {
      const token = await tokenFor(m, 'global');
      await readVault(m, token);
      return readVault(m, withTamperedSignature(token));
    },
    conformant: 401,
    faulted: 200,
  },
  {
    id: 'ho-trusts-x5c-header',
    probe: async (m) => {
      const keys = await generateKeyPair('RS256', { extractable: true });
      const certificate = await selfSignedCertificate({
        keys,
        commonName: 'attacker.example',
        notBeforeMs: m.clock.now(),
        validityDays: 1,
        ca: true,
      });
      return readVault(m, jws({ alg: 'RS256', typ: 'JWT', x5c: [certificate.derBase64] }, await claimsOf(m), keys.privateKey));
    },
    conformant: 401,
    faulted: 200,
  },
  {
    id: 'ho-issued-typ-at-jwt',
    probe: async (m) => decodeProtectedHeader(await tokenFor(m, 'global')).typ,
    conformant: 'JWT',
    faulted: 'at+jwt',
  },
  {
    id: 'ho-issued-kid-in-upper-case',
    probe: async (m) => {
      const kid = decodeProtectedHeader(await tokenFor(m, 'global')).kid;
      return [m.keys.jwks.keys.some((key) => key.kid === kid), await readVault(m, await tokenFor(m, 'global'))];
    },
    conformant: [true, 200],
    faulted: [false, 200],
  },
  // Claims
  {
    id: 'ho-token-without-aud-accepted',
    probe: async (m) => {
      const { aud: _aud, ...claims } = await claimsOf(m);
      return readVault(m, signed(m, claims));
    },
    conformant: 401,
    faulted: 200,
  },
  {
    id: 'ho-token-without-exp-accepted',
    probe: async (m) => {
      const { exp: _exp, ...claims } = await claimsOf(m);
      return readVault(m, signed(m, claims));
    },
    conformant: 401,
    faulted: 200,
  },
  {
    id: 'ho-exp-as-numeric-string',
    probe: async (m) => readVault(m, signed(m, { ...(await claimsOf(m)), exp: String(nowSeconds(m) + 3600) })),
    conformant: 401,
    faulted: 200,
  },
  {
    id: 'ho-redeliver-iat-in-future-unchecked',
    probe: async (m) => {
      const token = signed(m, { ...(await claimsOf(m)), iat: nowSeconds(m) + 3600, exp: nowSeconds(m) + 7200 });
      return [await redeliver(m, token), await readVault(m, token)];
    },
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho-ticket-issuer-scheme-ignored',
    probe: async (m) => {
      const token = signed(m, { ...(await claimsOf(m)), iss: m.issuer.replace('https://', 'http://') });
      return [status(await createTicket(m, {}, token)), await readVault(m, token)];
    },
    conformant: [401, 401],
    faulted: [201, 401],
  },
  {
    id: 'ho-global-rule-skipped-without-gty',
    probe: async (m) => {
      const { gty: _gty, ...claims } = await claimsOf(m, 'non-global');
      return [await redeliver(m, signed(m, claims)), await redeliver(m, await tokenFor(m, 'non-global'))];
    },
    conformant: [401, 401],
    faulted: [202, 401],
  },
  // Scopes
  {
    id: 'ho-redeliver-scope-split-on-commas',
    probe: async (m) => redeliver(m, signed(m, { ...(await claimsOf(m)), scope: 'read:event_streams,update:event_deliveries' })),
    conformant: 403,
    faulted: 202,
  },
  {
    id: 'ho-redeliver-scope-implied-by-stream-update',
    probe: async (m) => redeliver(m, signed(m, { ...(await claimsOf(m)), scope: 'update:event_streams' })),
    conformant: 403,
    faulted: 202,
  },
  {
    id: 'ho-vault-scope-implied-by-read-flows',
    probe: async (m) => readVault(m, signed(m, { ...(await claimsOf(m)), scope: 'read:flows' })),
    conformant: 403,
    faulted: 200,
  },
  {
    id: 'ho-ticket-scope-read-from-scp',
    probe: async (m) =>
      status(
        await createTicket(m, {}, signed(m, { ...(await claimsOf(m)), scope: 'read:event_streams', scp: ['create:sso_access_tickets'] })),
      ),
    conformant: 403,
    faulted: 201,
  },
  {
    id: 'ho-token-endpoint-grants-any-catalogue-scope',
    probe: async (m) => status(await tokenAnswer(m, { scope: 'update:event_deliveries' }, 'without-redeliver-scope')),
    conformant: 403,
    faulted: 200,
  },
  // Token endpoint
  {
    id: 'ho-token-secret-trimmed',
    probe: async (m) => status(await tokenAnswer(m, { client_secret: `${tokenRequest(m, 'global').client_secret} ` })),
    conformant: 401,
    faulted: 200,
  },
  {
    id: 'ho-token-secret-compared-over-32-characters',
    probe: async (m) => {
      const secret = tokenRequest(m, 'global').client_secret!;
      return status(await tokenAnswer(m, { client_secret: `${secret.slice(0, -1)}${secret.endsWith('x') ? 'y' : 'x'}` }));
    },
    conformant: 401,
    faulted: 200,
  },
  {
    id: 'ho-token-client-found-by-secret',
    probe: async (m) => status(await tokenAnswer(m, { client_id: tokenRequest(m, 'non-global').client_id })),
    conformant: 401,
    faulted: 200,
  },
  {
    id: 'ho-token-form-with-charset-refused',
    probe: async (m) =>
      status(
        await call(m, 'POST', '/oauth/token', {
          body: new URLSearchParams(tokenRequest(m, 'global')).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        }),
      ),
    conformant: 200,
    faulted: 400,
  },
  {
    id: 'ho-token-audience-query-dropped',
    probe: async (m) => status(await tokenAnswer(m, { audience: `${m.audience}?x=1` })),
    conformant: 403,
    faulted: 200,
  },
  {
    id: 'ho-token-expires-in-as-string',
    probe: async (m) => typeof fieldsOf(await tokenAnswer(m, {})).expires_in,
    conformant: 'number',
    faulted: 'string',
  },
  {
    id: 'ho-token-bad-secret-400-invalid-grant',
    probe: async (m) => {
      const answer = await tokenAnswer(m, { client_secret: 'wrong' });
      return [answer.status, (answer.json as { error: string }).error];
    },
    conformant: [401, 'invalid_client'],
    faulted: [400, 'invalid_grant'],
  },
  {
    id: 'ho-token-grant-type-error-without-description',
    probe: async (m) => 'error_description' in fieldsOf(await tokenAnswer(m, { grant_type: 'password' })),
    conformant: true,
    faulted: false,
  },
  // Method, path, headers
  {
    id: 'ho-vault-head-served-without-token',
    probe: async (m) => status(await call(m, 'HEAD', vaultPath(ids(m).vault))),
    conformant: 401,
    faulted: 200,
  },
  {
    id: 'ho-encoded-slash-decoded-before-routing',
    probe: async (m) =>
      status(
        await call(m, 'GET', vaultPath(`${ids(m).vault.slice(0, 10)}%2F${ids(m).vault.slice(10)}`), { token: await tokenFor(m, 'global') }),
      ),
    conformant: 400,
    faulted: 404,
  },
  {
    id: 'ho-vault-path-id-not-percent-decoded',
    probe: async (m) => {
      const id = ids(m).vault;
      const encoded = `${id.slice(0, 3)}%${id.charCodeAt(3).toString(16).toUpperCase()}${id.slice(4)}`;
      return status(await call(m, 'GET', vaultPath(encoded), { token: await tokenFor(m, 'global') }));
    },
    conformant: 200,
    faulted: 400,
  },
  {
    id: 'ho-redeliver-stream-id-cut-at-nul',
    probe: async (m) => redeliver(m, await tokenFor(m, 'global'), `${ids(m).stream}%00x`),
    conformant: 400,
    faulted: 202,
  },
  {
    id: 'ho-vault-bearer-scheme-case-sensitive',
    probe: async (m) => {
      const headers = { authorization: `bearer ${await tokenFor(m, 'global')}` };
      return [status(await call(m, 'GET', vaultPath(ids(m).vault), { headers })), status(await createTicket(m, {}, undefined, {}))];
    },
    conformant: [200, 201],
    faulted: [401, 201],
  },
  {
    id: 'ho-ticket-json-with-charset-refused',
    probe: async (m) => status(await createTicket(m, '{}', undefined, { 'content-type': 'application/json; charset=utf-8' })),
    conformant: 201,
    faulted: 415,
  },
  {
    id: 'ho-ticket-without-body-refused',
    probe: async (m) => [status(await createTicket(m, undefined)), await ticketStatus(m, {})],
    conformant: [201, 201],
    faulted: [400, 201],
  },
  {
    id: 'ho-custom-domain-of-3-refused',
    probe: async (m) => [
      status(await createTicket(m, {}, undefined, { 'tenant-custom-domain': 'abc' })),
      status(await createTicket(m, {}, undefined, { 'tenant-custom-domain': 'abcd' })),
    ],
    conformant: [201, 201],
    faulted: [400, 201],
  },
  // Ticket body
  { id: 'ho-ttl-sec-numeric-string-coerced', probe: (m) => ticketStatus(m, { ttl_sec: '3600' }), conformant: 400, faulted: 201 },
  { id: 'ho-ttl-sec-null-as-omitted', probe: (m) => ticketStatus(m, { ttl_sec: null }), conformant: 400, faulted: 201 },
  {
    id: 'ho-ttl-sec-under-a-minute-refused',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 1 }),
      await ticketStatus(m, { ttl_sec: 0 }),
      await ticketStatus(m, { ttl_sec: 60 }),
    ],
    conformant: [201, 201, 201],
    faulted: [400, 201, 201],
  },
  { id: 'ho-enabled-clients-empty-refused', probe: (m) => ticketStatus(m, { enabled_clients: [] }), conformant: 201, faulted: 400 },
  { id: 'ho-enabled-clients-items-untyped', probe: (m) => ticketStatus(m, { enabled_clients: [1] }), conformant: 400, faulted: 201 },
  {
    id: 'ho-enabled-organizations-object-wrapped',
    probe: (m) => ticketStatus(m, { enabled_organizations: { organization_id: 'org_abcdefghijklmnop' } }),
    conformant: 400,
    faulted: 201,
  },
  {
    id: 'ho-enabled-features-unchecked-without-connection-id',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: 'all' }),
      await ticketStatus(m, { enabled_features: 'all', connection_id: 'con_6kG6vTEQLMczF3qe' }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho-provisioning-config-unchecked-unless-enabled',
    probe: (m) => ticketStatus(m, { provisioning_config: { scopes: 'get:users' } }),
    conformant: 400,
    faulted: 201,
  },
  {
    id: 'ho-organization-id-not-required',
    probe: (m) => ticketStatus(m, { enabled_organizations: [{ show_as_button: true }] }),
    conformant: 400,
    faulted: 201,
  },
  {
    id: 'ho-token-lifetime-minimum-exclusive',
    probe: (m) => ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime: 900 } }),
    conformant: 201,
    faulted: 400,
  },
  {
    id: 'ho-provisioning-scopes-case-insensitive',
    probe: (m) => ticketStatus(m, { provisioning_config: { scopes: ['GET:users'] } }),
    conformant: 400,
    faulted: 201,
  },
  {
    id: 'ho-connection-config-name-max-127',
    probe: (m) => ticketStatus(m, { connection_config: { name: 'a'.repeat(128) } }),
    conformant: 201,
    faulted: 400,
  },
  // Ids and state
  {
    id: 'ho-event-ids-case-insensitive',
    probe: async (m) => {
      const event = ids(m).failedEvent;
      const flipped = `${event.slice(0, 4)}${event[4]!.toUpperCase() === event[4] ? event[4].toLowerCase() : event[4]!.toUpperCase()}${event.slice(5)}`;
      return redeliver(m, await tokenFor(m, 'global'), ids(m).stream, flipped);
    },
    conformant: 404,
    faulted: 202,
  },
  {
    id: 'ho-vault-id-matched-by-prefix',
    probe: async (m) => status(await call(m, 'GET', vaultPath(ids(m).longestVault.slice(0, -1)), { token: await tokenFor(m, 'global') })),
    conformant: 404,
    faulted: 200,
  },
  {
    id: 'ho-stream-id-type-prefix-ignored',
    probe: async (m) => redeliver(m, await tokenFor(m, 'global'), `evt_${ids(m).stream.slice(4)}`),
    conformant: 400,
    faulted: 202,
  },
  {
    id: 'ho-event-state-read-before-stream',
    probe: async (m) => {
      const token = await tokenFor(m, 'global');
      const unknownStream = `${ids(m).stream.slice(0, -1)}${ids(m).stream.endsWith('w') ? 'x' : 'w'}`;
      return [
        await redeliver(m, token, unknownStream, ids(m).deliveredEvent),
        await redeliver(m, token, unknownStream, ids(m).failedEvent),
      ];
    },
    conformant: [404, 404],
    faulted: [409, 404],
  },
  {
    id: 'ho-redeliver-409-as-400',
    probe: async (m) => redeliver(m, await tokenFor(m, 'global'), ids(m).stream, ids(m).deliveredEvent),
    conformant: 409,
    faulted: 400,
  },
  {
    id: 'ho-vault-record-false-ready-omitted',
    probe: async (m) => 'ready' in fieldsOf(await call(m, 'GET', vaultPath(ids(m).notReadyVault), { token: await tokenFor(m, 'global') })),
    conformant: true,
    faulted: false,
  },
  // Rate limit
  {
    id: 'ho-reset-as-seconds-to-wait',
    probe: async (m) =>
      Number((await call(m, 'GET', vaultPath(ids(m).vault), { token: await tokenFor(m, 'global') })).headers['x-ratelimit-reset']) >
      nowSeconds(m) - 5,
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho-limit-header-written-twice',
    probe: async (m) =>
      /^\d+$/.test((await call(m, 'GET', vaultPath(ids(m).vault), { token: await tokenFor(m, 'global') })).headers['x-ratelimit-limit']!),
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho-429-reset-zero',
    options: TINY_BUCKET,
    probe: async (m) => {
      const answer = await thirdAnswer(m);
      return [answer.status, answer.headers['x-ratelimit-reset'] === '0'];
    },
    conformant: [429, false],
    faulted: [429, true],
  },
  {
    id: 'ho-429-remaining-from-configuration',
    options: TINY_BUCKET,
    probe: async (m) => {
      const answer = await thirdAnswer(m);
      return [answer.status, answer.headers['x-ratelimit-remaining']];
    },
    conformant: [429, '0'],
    faulted: [429, '2'],
  },
  {
    id: 'ho-empty-bucket-answered-503',
    options: TINY_BUCKET,
    probe: async (m) => status(await thirdAnswer(m)),
    conformant: 429,
    faulted: 503,
  },
  // Error answers and orderings
  {
    id: 'ho-400-status-code-as-string',
    probe: async (m) => {
      const answer = await call(m, 'GET', vaultPath(`${ids(m).longestVault}x`), { token: await tokenFor(m, 'global') });
      return [answer.status, typeof (answer.json as { statusCode: unknown }).statusCode];
    },
    conformant: [400, 'number'],
    faulted: [400, 'string'],
  },
  {
    id: 'ho-403-scope-named-from-method',
    probe: async (m) => {
      const answer = await call(m, 'POST', redeliverPath(ids(m).stream, ids(m).failedEvent), {
        token: await tokenFor(m, 'without-redeliver-scope'),
      });
      return [answer.status, messageOf(answer).endsWith('update:event_deliveries')];
    },
    conformant: [403, true],
    faulted: [403, false],
  },
  {
    id: 'ho-event-id-error-names-id',
    probe: async (m) => {
      const answer = await call(m, 'POST', redeliverPath(ids(m).stream, ids(m).failedEvent.slice(0, -1)), {
        token: await tokenFor(m, 'global'),
      });
      return [answer.status, messageOf(answer).endsWith('event_id')];
    },
    conformant: [400, true],
    faulted: [400, false],
  },
  {
    id: 'ho-body-errors-without-prefix',
    probe: async (m) => messageOf(await createTicket(m, { ttl_sec: 432001 })).startsWith('Payload validation error: '),
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho-ticket-body-checked-before-token',
    probe: async (m) => status(await call(m, 'POST', ticketPathOf(m), { body: { ttl_sec: -1 } })),
    conformant: 401,
    faulted: 400,
  },
  {
    id: 'ho-vault-lookup-before-scope',
    probe: async (m) => {
      const unknown = `${ids(m).vault.slice(0, -1)}${ids(m).vault.endsWith('k') ? 'm' : 'k'}`;
      return status(await call(m, 'GET', vaultPath(unknown), { token: await tokenFor(m, 'without-vault-scope') }));
    },
    conformant: 403,
    faulted: 404,
  },
  // Success answers
  {
    id: 'ho-ticket-answer-with-expiry',
    probe: async (m) => Object.keys((await createTicket(m, {})).json as object),
    conformant: ['ticket'],
    faulted: ['ticket', 'expires_at'],
  },
  {
    id: 'ho-ticket-code-cut-from-a-uuid',
    probe: async (m) => {
      const token = await tokenFor(m, 'global');
      const tickets = await Promise.all(Array.from({ length: 3 }, () => createTicket(m, {}, token)));
      return tickets.map((answer) => /ticket=[A-Za-z0-9]{32}$/.test((answer.json as { ticket: string }).ticket));
    },
    conformant: [true, true, true],
    faulted: [false, false, false],
  },
  {
    id: 'ho-vault-timestamps-without-milliseconds',
    probe: async (m) =>
      /\.\d{3}Z$/.test(String(fieldsOf(await call(m, 'GET', vaultPath(ids(m).vault), { token: await tokenFor(m, 'global') })).created_at)),
    conformant: true,
    faulted: false,
  },
];

heldOutRoundTests({
  name: 'the first held-out round',
  prefix: 'ho-',
  faults: heldOutFaults,
  probes,
  signingKey,
});
