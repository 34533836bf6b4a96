// The fifth round of held-out faults (mock/faults/held-out/round-5/): kept apart from the gate's
// catalogue and from the first four rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the fault's near miss to
// a conformant mock and to a faulted one, and the two answers differ as the row says (and, where
// the fault lets only the near value through, a clearly wrong value is still refused by both). A
// fault that changed nothing would count as a survivor of the suite for no reason; this rules that
// out.
import { decodeJwt, type JWTPayload } from 'jose';
import { heldOutRound5Faults } from '../faults/held-out/round-5/catalogue.ts';
import { type MockServer } from '../index.ts';
import { claimsOf, jwsOfText, signedAsIs as signed, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor, tokenRequest, type Answer } from './support/http.ts';
import {
  advance,
  changedEarly,
  createTicket,
  fieldsOf,
  fixtureClientId,
  globalToken,
  hostOf,
  ids,
  messageOf,
  nowSeconds,
  ORGANIZATION,
  MANUAL_CLOCK,
  probeKeyFile,
  read,
  readAs,
  readVault,
  redeliver,
  redeliverPath,
  status,
  ticketPathOf,
  ticketStatus,
  TINY_BUCKET,
  ticketText,
  tokenAnswer,
  unknownLike,
  vaultPath,
} from './support/probe-kit.ts';
import { rawRequest } from './support/raw.ts';

const signingKey = probeKeyFile('held-out-faults-round-5');

const CUSTOM_DOMAIN = 'login.acme.example';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

const encode = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

const formTicket = async (mock: MockServer, form: string) => status(await createTicket(mock, form, undefined, FORM));
const limitOf = (answer: Answer) => answer.headers['x-ratelimit-limit'];

const probes: Probe[] = [
  // Token verification
  {
    id: 'ho5-exp-replicated-in-header-trusted',
    probe: async (m) => {
      const expired = { ...(await claimsOf(m)), exp: nowSeconds(m) - 3600 };
      return [await readVault(m, signed(m, expired, { exp: nowSeconds(m) + 3600 })), await readVault(m, signed(m, expired))];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho5-exp-compared-as-text',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signed(m, { ...claims, iat: 999_990_000, exp: 999_999_999 })),
        await readVault(m, signed(m, { ...claims, exp: nowSeconds(m) - 3600 })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho5-signature-over-reserialised-json',
    probe: async (m) => {
      const [header, payload, signature] = (await globalToken(m)).split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as JWTPayload;
      const spaced = encode(JSON.stringify(claims, null, 1));
      const changed = encode({ ...claims, scope: 'update:event_deliveries' });
      return [await readVault(m, `${header}.${spaced}.${signature}`), await readVault(m, `${header}.${changed}.${signature}`)];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho5-vault-token-answer-unwrapped',
    probe: async (m) => {
      const answer = (token: string) => `Bearer ${JSON.stringify({ access_token: token, token_type: 'Bearer' })}`;
      const token = await globalToken(m);
      return [
        await readAs(m, answer(token)),
        await readAs(m, answer(withTamperedSignature(token))),
        status(await call(m, 'POST', ticketPathOf(m), { body: {}, headers: { authorization: answer(token) } })),
      ];
    },
    conformant: [401, 401, 401],
    faulted: [200, 401, 401],
  },
  {
    id: 'ho5-nbf-read-by-first-match',
    probe: async (m) => {
      const claims = JSON.stringify(await claimsOf(m));
      const header = { alg: 'RS256', typ: 'JWT', kid: m.keys.kid };
      const ahead = nowSeconds(m) + 3600;
      const twice = `${claims.slice(0, -1)},"nbf":${nowSeconds(m) - 60},"nbf":${ahead}}`;
      const once = `${claims.slice(0, -1)},"nbf":${ahead}}`;
      return [
        await readVault(m, jwsOfText(header, twice, m.keys.privateKey)),
        await readVault(m, jwsOfText(header, once, m.keys.privateKey)),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho5-kid-matched-against-x5t',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signed(m, claims, { kid: m.keys.jwks.keys[0]!.x5t })),
        await readVault(m, signed(m, claims, { kid: 'another-key' })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  // Ticket body
  {
    id: 'ho5-form-ttl-sec-parsed-with-parseint',
    probe: async (m) => [
      await formTicket(m, 'ttl_sec=3600.5'),
      await formTicket(m, 'ttl_sec=abc'),
      await ticketStatus(m, { ttl_sec: 3600.5 }),
    ],
    conformant: [400, 400, 400],
    faulted: [201, 400, 400],
  },
  {
    id: 'ho5-duplicate-members-validated-first-wins',
    probe: async (m) => [
      await ticketText(m, '{"ttl_sec": 3600, "ttl_sec": 999999}'),
      await ticketText(m, '{"ttl_sec": 999999, "ttl_sec": 3600}'),
    ],
    conformant: [400, 201],
    faulted: [201, 400],
  },
  {
    id: 'ho5-first-organization-unchecked',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: [{ organization_id: 123 }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION }, { organization_id: 123 }] }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho5-provisioning-config-entries-accepted',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: [['scopes', ['get:users']]] }),
      await ticketStatus(m, { provisioning_config: [1] }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho5-primitive-body-spread',
    probe: async (m) => [await ticketStatus(m, 42), await ticketStatus(m, true), await ticketText(m, '"x"'), await ticketText(m, 'null')],
    conformant: [400, 400, 400, 400],
    faulted: [201, 201, 400, 400],
  },
  {
    id: 'ho5-optional-boolean-nullable',
    probe: async (m) => [
      await ticketStatus(m, { use_for_organization_discovery: null }),
      await ticketStatus(m, { use_for_organization_discovery: 'yes' }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho5-enabled-clients-array-like',
    probe: async (m) => {
      const id = fixtureClientId(m, 'global');
      return [await ticketStatus(m, { enabled_clients: { length: 1, 0: id } }), await ticketStatus(m, { enabled_clients: { 0: id } })];
    },
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho5-enabled-features-bitmask',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: 5 }),
      await ticketStatus(m, { enabled_features: 'sso' }),
      await ticketStatus(m, { enabled_features: 9 }),
    ],
    conformant: [400, 400, 400],
    faulted: [201, 400, 400],
  },
  {
    id: 'ho5-domain-verification-checked-with-in',
    probe: async (m) => [
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'constructor' } }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'maybe' } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho5-connection-name-unicode-letters',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: { name: 'zürich-sso' } }),
      await ticketStatus(m, { connection_config: { name: 'acme_sso' } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho5-allow-configuration-false-as-missing',
    probe: async (m) => [
      await ticketStatus(m, { third_party_client_access_config: { allow_configuration: false } }),
      await ticketStatus(m, { third_party_client_access_config: { allow_configuration: true } }),
    ],
    conformant: [201, 201],
    faulted: [400, 201],
  },
  // Authorization
  {
    id: 'ho5-permissions-keyed-by-raw-url',
    probe: async (m) => {
      const token = await tokenFor(m, 'without-redeliver-scope');
      return [
        status(await call(m, 'POST', `${redeliverPath(ids(m).stream, ids(m).failedEvent)}?x=1`, { token })),
        await redeliver(m, token),
      ];
    },
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho5-token-scopes-must-equal-grant',
    probe: async (m) => [
      await redeliver(m, await tokenFor(m, 'global', 'update:event_deliveries')),
      await redeliver(m, await globalToken(m)),
    ],
    conformant: [202, 202],
    faulted: [401, 202],
  },
  {
    id: 'ho5-vault-permission-from-stored-grant',
    probe: async (m) => [
      await readVault(m, await tokenFor(m, 'global', 'update:event_deliveries')),
      await readVault(m, await tokenFor(m, 'without-vault-scope')),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho5-ticket-scope-singularised',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        status(await createTicket(m, {}, signed(m, { ...claims, scope: 'create:sso_access_ticket' }))),
        status(await createTicket(m, {}, signed(m, { ...claims, scope: 'create:sso_access' }))),
      ];
    },
    conformant: [403, 403],
    faulted: [201, 403],
  },
  // Requests
  {
    id: 'ho5-base-path-slashes-merged',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        status(await call(m, 'GET', vaultPath(ids(m).vault).replace('/api/v2/', '/api//v2/'), { token })),
        status(await call(m, 'GET', vaultPath(ids(m).vault).replace('/api/v2/', '/api/v3/'), { token })),
      ];
    },
    conformant: [404, 404],
    faulted: [200, 404],
  },
  {
    id: 'ho5-custom-domain-last-occurrence',
    probe: async (m) => [
      status(await createTicket(m, {}, undefined, { 'tenant-custom-domain': `ab, ${CUSTOM_DOMAIN}` })),
      status(await createTicket(m, {}, undefined, { 'tenant-custom-domain': 'ab' })),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho5-vault-id-invisible-characters-deleted',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readVault(m, token, `${ids(m).longestVault}%E2%80%8B`), await readVault(m, token, `${ids(m).longestVault}x`)];
    },
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho5-redeliver-bodiless-post-length-required',
    probe: async (m) => {
      const token = await globalToken(m);
      const request = (extra: string) =>
        `POST ${redeliverPath(ids(m).stream, ids(m).failedEvent)} HTTP/1.1\r\nHost: ${m.host}:${m.port}\r\nAuthorization: Bearer ${token}\r\n${extra}Connection: close\r\n\r\n`;
      return [(await rawRequest(m, request('')))?.status, (await rawRequest(m, request('Content-Length: 0\r\n')))?.status];
    },
    conformant: [202, 202],
    faulted: [411, 202],
  },
  {
    id: 'ho5-options-answered-by-cors-layer',
    probe: async (m) => [
      status(await call(m, 'OPTIONS', vaultPath(ids(m).vault))),
      status(await call(m, 'DELETE', vaultPath(ids(m).vault))),
    ],
    conformant: [405, 405],
    faulted: [204, 405],
  },
  {
    id: 'ho5-long-vault-id-answered-414',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readVault(m, token, `${ids(m).longestVault}x`), await readVault(m, token, 'ac_0000')];
    },
    conformant: [400, 400],
    faulted: [414, 400],
  },
  // Token endpoint
  {
    id: 'ho5-token-secret-hashed-as-latin1',
    probe: async (m) => {
      const secret = client(m, 'global').client_secret;
      const first = secret.charCodeAt(0);
      const wide = `${String.fromCharCode(0x100 | first)}${secret.slice(1)}`;
      const other = `${String.fromCharCode(first === 0x61 ? 0x62 : 0x61)}${secret.slice(1)}`;
      return [status(await tokenAnswer(m, { client_secret: wide })), status(await tokenAnswer(m, { client_secret: other }))];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho5-token-grant-type-spellings-unified',
    probe: async (m) => [
      status(await tokenAnswer(m, { grant_type: 'client-credentials' })),
      status(await tokenAnswer(m, { grant_type: 'password' })),
    ],
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho5-token-audience-control-characters-deleted',
    probe: async (m) => [
      status(await tokenAnswer(m, { audience: m.audience.replace('/v2/', '/\nv2/') })),
      status(await tokenAnswer(m, { audience: m.audience.replace('/v2/', '/v3/') })),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho5-token-empty-scope-taken-as-given',
    probe: async (m) => {
      const empty = fieldsOf(await tokenAnswer(m, { scope: '' }));
      const whole = fieldsOf(await tokenAnswer(m, {}));
      return [empty.scope === '', await redeliver(m, empty.access_token as string), whole.scope === ''];
    },
    conformant: [false, 202, false],
    faulted: [true, 403, false],
  },
  {
    id: 'ho5-token-client-found-by-array-index',
    probe: async (m) => {
      const answer = await tokenAnswer(m, { client_id: '0' });
      const token = fieldsOf(answer).access_token;
      return [
        answer.status,
        typeof token === 'string' && decodeJwt(token).azp === fixtureClientId(m, 'global'),
        status(await tokenAnswer(m, { client_id: '0', client_secret: 'not-the-secret' })),
      ];
    },
    conformant: [401, false, 401],
    faulted: [200, true, 401],
  },
  {
    id: 'ho5-token-openid-scope-added',
    probe: async (m) => {
      const answer = fieldsOf(await tokenAnswer(m, {}));
      const token = answer.access_token as string;
      const words = (scope: unknown) => String(scope).split(' ');
      return [words(answer.scope).includes('openid'), words(decodeJwt(token).scope).includes('openid'), await redeliver(m, token)];
    },
    conformant: [false, false, 202],
    faulted: [true, true, 202],
  },
  {
    id: 'ho5-token-json-only-without-slash',
    probe: async (m) => {
      const fields = tokenRequest(m, 'global');
      return [
        status(await call(m, 'POST', '/oauth/token/', { body: fields })),
        status(await call(m, 'POST', '/oauth/token', { body: fields })),
        status(await call(m, 'POST', '/oauth/token/', { body: new URLSearchParams(fields).toString(), headers: FORM })),
      ];
    },
    conformant: [200, 200, 200],
    faulted: [400, 200, 200],
  },
  {
    id: 'ho5-token-body-sniffed-as-json',
    probe: async (m) => {
      const asText = (body: string) => call(m, 'POST', '/oauth/token', { body, headers: { 'content-type': 'text/plain' } });
      return [status(await asText(JSON.stringify(tokenRequest(m, 'global')))), status(await asText('grant_type: client_credentials'))];
    },
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho5-jwks-exponent-as-number',
    probe: async (m) => (fieldsOf(await call(m, 'GET', '/.well-known/jwks.json')).keys as Array<{ e: unknown }>).map((key) => key.e),
    conformant: ['AQAB'],
    faulted: [65537],
  },
  // Success answers
  {
    id: 'ho5-vault-ready-through-boolean-of-text',
    probe: async (m) => {
      const token = await globalToken(m);
      return [fieldsOf(await read(m, token, ids(m).minimalVault)).ready, fieldsOf(await read(m, token)).ready];
    },
    conformant: [false, true],
    faulted: [true, true],
  },
  {
    id: 'ho5-vault-timestamps-mapped-by-position',
    probe: async (m) => {
      const record = fieldsOf(await read(m, await globalToken(m), ids(m).longestVault));
      return String(record.created_at) < String(record.updated_at);
    },
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho5-vault-default-environment-omitted',
    probe: async (m) => {
      const token = await globalToken(m);
      return [fieldsOf(await read(m, token)).environment ?? null, typeof fieldsOf(await read(m, token, ids(m).longestVault)).environment];
    },
    conformant: ['production', 'string'],
    faulted: [null, 'string'],
  },
  {
    id: 'ho5-vault-long-name-gains-ellipsis',
    probe: async (m) => {
      const token = await globalToken(m);
      const length = async (id: string) => String(fieldsOf(await read(m, token, id)).name).length;
      return [await length(ids(m).longestVault), await length(ids(m).vault)];
    },
    conformant: [150, 18],
    faulted: [151, 18],
  },
  {
    id: 'ho5-ticket-legacy-url-object',
    probe: async (m) => [
      typeof fieldsOf(await createTicket(m, {}, undefined, { 'tenant-custom-domain': CUSTOM_DOMAIN })).ticket,
      typeof fieldsOf(await createTicket(m, {})).ticket,
    ],
    conformant: ['string', 'string'],
    faulted: ['object', 'string'],
  },
  {
    id: 'ho5-ticket-custom-domain-keeps-port',
    probe: async (m) => {
      const local = fieldsOf(await tokenAnswer(m, { audience: `${m.url}/api/v2/` })).access_token as string;
      const headers = { 'tenant-custom-domain': CUSTOM_DOMAIN };
      const onPort = hostOf(await createTicket(m, {}, local, headers)) === `${CUSTOM_DOMAIN}:${m.port}`;
      return [
        onPort,
        hostOf(await createTicket(m, {}, local, headers)) === CUSTOM_DOMAIN,
        hostOf(await createTicket(m, {}, undefined, headers)),
      ];
    },
    conformant: [false, true, CUSTOM_DOMAIN],
    faulted: [true, false, CUSTOM_DOMAIN],
  },
  {
    id: 'ho5-vault-refreshed-at-coalesced',
    probe: async (m) => 'refreshed_at' in fieldsOf(await read(m, await globalToken(m), ids(m).minimalVault)),
    conformant: false,
    faulted: true,
  },
  // State and errors
  {
    id: 'ho5-events-binary-searched-unsorted',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream } = ids(m);
      return [
        await redeliver(m, token, stream, ids(m).pendingEvent),
        await redeliver(m, token, stream, ids(m).failedEvent),
        await redeliver(m, token, stream, ids(m).deliveredEvent),
      ];
    },
    conformant: [409, 202, 409],
    faulted: [404, 202, 409],
  },
  {
    id: 'ho5-unknown-stream-resolved-through-event',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, otherStreamEvent } = ids(m);
      return [
        await redeliver(m, token, unknownLike(stream), otherStreamEvent),
        await redeliver(m, token, unknownLike(stream), unknownLike(otherStreamEvent)),
      ];
    },
    conformant: [404, 404],
    faulted: [202, 404],
  },
  {
    id: 'ho5-redeliver-look-alikes-folded',
    probe: async (m) => {
      const token = await globalToken(m);
      const { otherStream, otherStreamEvent } = ids(m);
      return [
        await redeliver(m, token, otherStream, otherStreamEvent.replace('o', '0')),
        await redeliver(m, token, otherStream, changedEarly(otherStreamEvent)),
      ];
    },
    conformant: [400, 404],
    faulted: [202, 404],
  },
  {
    id: 'ho5-error-bodies-snake-case',
    probe: async (m) => {
      const token = await globalToken(m);
      return [Object.keys(fieldsOf(await read(m, token, unknownLike(ids(m).vault)))).sort(), 'app_id' in fieldsOf(await read(m, token))];
    },
    conformant: [['error', 'message', 'statusCode'], true],
    faulted: [['error', 'message', 'status_code'], true],
  },
  {
    id: 'ho5-expired-token-reported-as-signature',
    probe: async (m) => {
      const expired = signed(m, { ...(await claimsOf(m)), exp: nowSeconds(m) - 3600 });
      const vault = async (token: string) => messageOf(await read(m, token));
      return [await vault(expired), await vault(withTamperedSignature(await globalToken(m)))];
    },
    conformant: ['Expired token received for JSON Web Token validation', 'Invalid signature received for JSON Web Token validation'],
    faulted: ['Invalid signature received for JSON Web Token validation', 'Invalid signature received for JSON Web Token validation'],
  },
  {
    id: 'ho5-not-found-messages-german-fallback',
    probe: async (m) => {
      const token = await globalToken(m);
      const path = redeliverPath(unknownLike(ids(m).stream), ids(m).failedEvent);
      return [
        messageOf(await call(m, 'POST', path, { token, headers: { 'accept-language': 'fr-FR' } })),
        messageOf(await call(m, 'POST', path, { token, headers: { 'accept-language': 'en-US' } })),
        messageOf(await call(m, 'POST', path, { token })),
      ];
    },
    conformant: ['The requested stream does not exist.', 'The requested stream does not exist.', 'The requested stream does not exist.'],
    faulted: ['Der angeforderte Stream existiert nicht.', 'The requested stream does not exist.', 'The requested stream does not exist.'],
  },
  // Rate limit
  {
    id: 'ho5-429-limit-undefined',
    options: () => ({ ...TINY_BUCKET, ...MANUAL_CLOCK() }),
    probe: async (m) => {
      const token = await globalToken(m);
      const first = await read(m, token);
      await read(m, token);
      const refused = await read(m, token);
      return [limitOf(first), refused.status, limitOf(refused)];
    },
    conformant: ['2', 429, '2'],
    faulted: ['2', 429, 'undefined'],
  },
  {
    id: 'ho5-forwarded-internal-callers-exempt',
    options: () => ({ ...TINY_BUCKET, ...MANUAL_CLOCK() }),
    probe: async (m) => {
      const token = await globalToken(m);
      await read(m, token);
      await read(m, token);
      const from = async (address?: string) =>
        status(
          await call(m, 'POST', redeliverPath(ids(m).stream, ids(m).failedEvent), {
            token,
            headers: address === undefined ? {} : { 'x-forwarded-for': address },
          }),
        );
      return [await from('127.0.0.1'), await from(), await from('203.0.113.5')];
    },
    conformant: [429, 429, 429],
    faulted: [202, 429, 429],
  },
  {
    id: 'ho5-remaining-rounded',
    options: () => ({ rateLimit: { bucketSize: 2, refillPerSecond: 1 }, ...MANUAL_CLOCK() }),
    probe: async (m) => {
      const token = await globalToken(m);
      await read(m, token);
      await read(m, token);
      advance(m, 600);
      const refused = await read(m, token);
      return [refused.status, refused.headers['x-ratelimit-remaining']];
    },
    conformant: [429, '0'],
    faulted: [429, '1'],
  },
  {
    id: 'ho5-created-answers-without-rate-limit-headers',
    probe: async (m) => {
      const created = await createTicket(m, {});
      return [created.status, limitOf(created) !== undefined, limitOf(await read(m, await globalToken(m))) !== undefined];
    },
    conformant: [201, true, true],
    faulted: [201, false, true],
  },
  {
    id: 'ho5-anonymous-answers-default-tier-limit',
    options: { rateLimit: { bucketSize: 50, refillPerSecond: 1000 } },
    probe: async (m) => [
      limitOf(await call(m, 'GET', vaultPath(ids(m).vault), { headers: { authorization: 'Bearer not-a-token' } })),
      limitOf(await read(m, await globalToken(m))),
    ],
    conformant: ['50', '50'],
    faulted: ['10', '50'],
  },
];

heldOutRoundTests({
  name: 'the fifth held-out round',
  prefix: 'ho5-',
  faults: heldOutRound5Faults,
  least: { faults: 54, contract: 34 },
  probes,
  signingKey,
});
