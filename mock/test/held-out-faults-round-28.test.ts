// The twenty-eighth round of held-out faults (mock/faults/held-out/round-28/): kept apart from the
// gate's catalogue and from the first twenty-seven rounds, each row naming a clause of the registry
// at its own level, and each fault shown to do what its bug line says: a probe sends the fault's
// near miss to a conformant mock and to a faulted one, and the two answers differ as the row says
// (and, where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { cards } from '../../specs/cards/index.ts';
import { heldOutRound28Faults } from '../faults/held-out/round-28/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor, tokenRequest } from './support/http.ts';
import {
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
  readVault,
  record,
  redeliver,
  redeliverAnswer,
  status,
  ticketPathOf,
  ticketStatus,
  tokenAnswer,
  tokenStatus,
  unknownLike,
  vaultPath,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-28');
const VAULT_SCOPE = cards.vault.scope.value;
const REDELIVER_SCOPE = cards.redeliver.scope.value;
const XMLDSIG = 'http://www.w3.org/2001/04/xmldsig-more#rsa-';
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>) => Record<string, unknown>, header = {}) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) }), header));
const redeliverRaw = async (m: MockServer, stream: string, event: string, headers: Record<string, string> = {}, token?: string) =>
  call(m, 'POST', `/api/v2/event-streams/${stream}/redeliver/${event}`, { token: token ?? (await globalToken(m)), headers });
const withScopeClaim = async (m: MockServer, scope: string) => signedAsIs(m, { ...(await claimsOf(m)), scope });
const organization = (member: Record<string, unknown>) => ({ enabled_organizations: [{ organization_id: ORGANIZATION, ...member }] });
/** The claims' iat moved by `seconds`. */
const iatPlus = (claims: Record<string, unknown>, seconds: number) => Number(claims.iat) + seconds;
/** A JSON token request of the global client with these members (client_id may be a number). */
const jsonToken = (m: MockServer, members: Record<string, unknown>) =>
  call(m, 'POST', '/oauth/token', { body: { ...tokenRequest(m, 'global'), ...members } });
const tinyBucketAnswers = async (m: MockServer) => {
  const token = await globalToken(m);
  const answers = [];
  for (let i = 0; i < 3; i += 1) answers.push(await read(m, token));
  return answers;
};
/** The id with its last character one lower (a key that sorts just before it). */
const justBefore = (id: string) => `${id.slice(0, -1)}${String.fromCharCode(id.charCodeAt(id.length - 1) - 1)}`;

const probes: Probe[] = [
  {
    id: 'ho28-exp-go-json-case-insensitive',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, exp: iatPlus(c, -3600), EXP: iatPlus(c, 3600) })),
      await redeliverWith(m, (c) => ({ ...c, exp: iatPlus(c, -3600) })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho28-verified-cache-memcached-key-cut',
    probe: async (m) => {
      const token = await globalToken(m);
      const first = await redeliver(m, token);
      const neverVerified = withTamperedSignature(signedAsIs(m, { ...(await claimsOf(m)) }, { x5t: 'not-a-thumbprint' }));
      return [first, await redeliver(m, withTamperedSignature(token)), await redeliver(m, neverVerified)];
    },
    conformant: [202, 401, 401],
    faulted: [202, 202, 401],
  },
  {
    id: 'ho28-bearer-nbsp-python-split',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readAs(m, `Bearer\u00a0${token}`), await readAs(m, `Basic\u00a0${token}`), await readAs(m, `Bearer ${token}`)];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho28-alg-dotnet-xmldsig-uri',
    probe: async (m) => [
      await redeliverWith(m, (c) => c, { alg: `${XMLDSIG}sha256` }),
      await redeliverWith(m, (c) => c, { alg: `${XMLDSIG}sha384` }),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho28-exp-elixir-term-order',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, exp: '1600000000' })),
      await redeliverWith(m, (c) => ({ ...c, exp: 1600000000 })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho28-assign-membership-pydantic-lax-bool',
    probe: async (m) => [
      await ticketStatus(m, organization({ assign_membership_on_login: 'yes' })),
      await ticketStatus(m, organization({ assign_membership_on_login: 'maybe' })),
      await ticketStatus(m, organization({ assign_membership_on_login: true })),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho28-organization-id-kotlin-nullable',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: [{ organization_id: null }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: 42 }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION }] }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho28-domain-verification-laravel-boolean-rule',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { domain_verification: '1' } }),
      await ticketStatus(m, { enabled_features: { domain_verification: 'true' } }),
      await ticketStatus(m, { enabled_features: { domain_verification: true } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho28-enabled-clients-symfony-assoc-array',
    probe: async (m) => {
      const id = client(m, 'global').client_id;
      return [
        await ticketStatus(m, { enabled_clients: { web: id } }),
        await ticketStatus(m, { enabled_clients: { web: 5 } }),
        await ticketStatus(m, { enabled_clients: [id] }),
      ];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho28-ttl-sec-go-duration-overflow',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 18446744074 }),
      await ticketStatus(m, { ttl_sec: 432001 }),
      await ticketStatus(m, { ttl_sec: 9223372037 }),
      await ticketStatus(m, { ttl_sec: 3600 }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho28-redeliver-nginx-auth-request-cache',
    probe: async (m) => {
      const token = await withScopeClaim(m, VAULT_SCOPE);
      const other = await withScopeClaim(m, 'read:users');
      return [
        await redeliver(m, token),
        await readVault(m, token),
        await redeliver(m, token),
        await readVault(m, other),
        await redeliver(m, other),
      ];
    },
    conformant: [403, 200, 403, 403, 403],
    faulted: [403, 200, 202, 403, 403],
  },
  {
    id: 'ho28-redeliver-jwt-authz-any-of',
    probe: async (m) => [
      await redeliver(m, await withScopeClaim(m, 'read:event_deliveries')),
      await redeliver(m, await withScopeClaim(m, 'read:event_streams')),
      await redeliver(m, await withScopeClaim(m, REDELIVER_SCOPE)),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho28-403-spring-access-denied-description',
    probe: async (m) => {
      const answer = await redeliverAnswer(m, await withScopeClaim(m, 'read:users'));
      return [answer.status, messageOf(answer).startsWith('Insufficient scope, expected any of: '), fieldsOf(answer).errorCode];
    },
    conformant: [403, true, 'insufficient_scope'],
    faulted: [403, false, 'insufficient_scope'],
  },
  {
    id: 'ho28-ticket-dotnet-binding-before-scope',
    probe: async (m) => {
      const withoutScope = await withScopeClaim(m, 'read:users');
      return [
        status(await createTicket(m, { ttl_sec: 'soon' }, withoutScope)),
        status(await createTicket(m, '{"ttl_sec": ', withoutScope, { 'content-type': JSON_TYPE })),
        status(await createTicket(m, { ttl_sec: 3600 }, withoutScope)),
        status(await call(m, 'POST', ticketPathOf(m), { body: { ttl_sec: 'soon' } })),
      ];
    },
    conformant: [403, 403, 403, 401],
    faulted: [400, 400, 403, 401],
  },
  {
    id: 'ho28-vault-id-symfony-x-original-url',
    probe: async (m) => {
      const token = await globalToken(m);
      const { vault } = ids(m);
      const asked = (named: string) =>
        call(m, 'GET', vaultPath(unknownLike(vault)), { token, headers: { 'x-original-url': `/api/v2/flows/vault/connections/${named}` } });
      const near = await asked(vault);
      return [near.status, fieldsOf(near).id, (await asked(unknownLike(vault))).status, await readVault(m, token)];
    },
    conformant: [404, undefined, 404, 200],
    faulted: [200, 'ac_NbWaizZTo4vfWnCwDq76Vj', 404, 200],
  },
  {
    id: 'ho28-stream-id-only-for-404-message',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [
        await redeliver(m, token, unknownLike(stream), failedEvent),
        await redeliver(m, token, unknownLike(stream), unknownLike(failedEvent)),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: [404, 404, 202],
    faulted: [202, 404, 202],
  },
  {
    id: 'ho28-event-id-rocksdb-seek',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [
        await redeliver(m, token, stream, justBefore(failedEvent)),
        await redeliver(m, token, stream, `evt_${'z'.repeat(22)}`),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: [404, 404, 202],
    faulted: [202, 404, 202],
  },
  {
    id: 'ho28-stream-404-laravel-model-not-found',
    probe: async (m) => {
      const stream = unknownLike(ids(m).stream);
      const answer = await redeliverAnswer(m, await globalToken(m), stream);
      return [
        answer.status,
        messageOf(answer) === `No query results for model [App\\Models\\EventStream] ${stream}`,
        fieldsOf(answer).statusCode,
      ];
    },
    conformant: [404, false, 404],
    faulted: [404, true, 404],
  },
  {
    id: 'ho28-client-id-mysql-numeric-cast',
    probe: async (m) => [
      status(await jsonToken(m, { client_id: 2 })),
      status(await jsonToken(m, { client_id: 3 })),
      status(await jsonToken(m, {})),
    ],
    conformant: [400, 400, 200],
    faulted: [200, 400, 200],
  },
  {
    id: 'ho28-grant-type-dotnet-enum-number',
    probe: async (m) => [await tokenStatus(m, { grant_type: '1' }), await tokenStatus(m, { grant_type: '2' }), await tokenStatus(m, {})],
    conformant: [400, 400, 200],
    faulted: [200, 400, 200],
  },
  {
    id: 'ho28-narrowed-scope-go-fmt-sprint',
    probe: async (m) => {
      const answer = await tokenAnswer(m, { scope: REDELIVER_SCOPE });
      return [
        fieldsOf(answer).scope,
        await redeliver(m, fieldsOf(answer).access_token as string),
        await redeliver(m, await tokenFor(m, 'global')),
      ];
    },
    conformant: [REDELIVER_SCOPE, 202, 202],
    faulted: [REDELIVER_SCOPE, 403, 202],
  },
  {
    id: 'ho28-audience-oidc-provider-invalid-target',
    probe: async (m) => {
      const unknownApi = await tokenAnswer(m, { audience: 'https://other.example/api/' });
      const notGranted = await tokenAnswer(m, {}, 'reports-client');
      return [unknownApi.status, fieldsOf(unknownApi).error, notGranted.status, fieldsOf(notGranted).error];
    },
    conformant: [403, 'access_denied', 403, 'access_denied'],
    faulted: [400, 'invalid_target', 403, 'access_denied'],
  },
  {
    id: 'ho28-token-answer-ktor-respond-text',
    probe: async (m) => {
      const answer = await tokenAnswer(m, {});
      const refused = await tokenAnswer(m, { client_secret: 'not-the-secret' });
      return [answer.status, answer.headers['content-type'], typeof fieldsOf(answer).access_token, refused.headers['content-type']];
    },
    conformant: [200, 'application/json; charset=utf-8', 'string', 'application/json; charset=utf-8'],
    faulted: [200, 'text/plain; charset=UTF-8', 'string', 'application/json; charset=utf-8'],
  },
  {
    id: 'ho28-audience-pydantic-before-client-auth',
    probe: async (m) => {
      const near = await tokenAnswer(m, { client_secret: 'not-the-secret', audience: 'reports-api' });
      return [
        near.status,
        fieldsOf(near).error,
        await tokenStatus(m, { client_secret: 'not-the-secret', audience: 'https://other.example/api/' }),
        await tokenStatus(m, {}),
      ];
    },
    conformant: [401, 'invalid_client', 401, 200],
    faulted: [400, 'invalid_request', 401, 200],
  },
  {
    id: 'ho28-vault-njs-default-type',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m));
      return [answer.status, answer.headers['content-type'], fieldsOf(answer).id];
    },
    conformant: [200, 'application/json; charset=utf-8', 'ac_NbWaizZTo4vfWnCwDq76Vj'],
    faulted: [200, 'application/octet-stream', 'ac_NbWaizZTo4vfWnCwDq76Vj'],
  },
  {
    id: 'ho28-ticket-elixir-uri-without-scheme',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      const ticket = String(fieldsOf(answer).ticket);
      return [answer.status, ticket.startsWith('https://'), ticket.startsWith('//'), /ticket=[A-Za-z0-9]{32}$/.test(ticket)];
    },
    conformant: [201, true, false, true],
    faulted: [201, false, true, true],
  },
  {
    id: 'ho28-vault-id-rails-integer-key',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.id, fields.name];
    },
    conformant: ['ac_NbWaizZTo4vfWnCwDq76Vj', 'Team notifications'],
    faulted: [1, 'Team notifications'],
  },
  {
    id: 'ho28-account-name-pydantic-secret-str',
    probe: async (m) => {
      const full = await record(m);
      const minimal = await record(m, ids(m).minimalVault);
      return [full.account_name, 'account_name' in minimal, full.name];
    },
    conformant: ['acme-workspace', false, 'Team notifications'],
    faulted: ['**********', false, 'Team notifications'],
  },
  {
    id: 'ho28-ticket-url-roda-expires-param',
    probe: async (m) => {
      const ticket = String(fieldsOf(await createTicket(m, {})).ticket);
      const lived = String(fieldsOf(await createTicket(m, { ttl_sec: 3600 })).ticket);
      return [/\?ticket=[A-Za-z0-9]{32}$/.test(ticket), ticket.endsWith('&expires_in=432000'), lived.endsWith('&expires_in=3600')];
    },
    conformant: [true, false, false],
    faulted: [false, true, true],
  },
  {
    id: 'ho28-redeliver-409-grpc-gateway-failed-precondition',
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
    faulted: [400, 400, 404, 202],
  },
  {
    id: 'ho28-redeliver-webflux-consumes-415',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const bare = await redeliverRaw(m, stream, failedEvent);
      return [bare.status, status(await redeliverRaw(m, stream, failedEvent, { 'content-type': JSON_TYPE }))];
    },
    conformant: [202, 202],
    faulted: [415, 202],
  },
  {
    id: 'ho28-path-error-gin-validator-message',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const short = await redeliverRaw(m, stream.slice(0, -1), failedEvent);
      return [short.status, messageOf(short), fieldsOf(short).errorCode];
    },
    conformant: [400, "Path validation error: 'String is too short (25 chars), minimum 26' on property id", 'invalid_uri'],
    faulted: [400, "Key: 'RedeliverURI.ID' Error:Field validation for 'ID' failed on the 'len' tag", 'invalid_uri'],
  },
  {
    id: 'ho28-vault-404-rails-record-not-found',
    probe: async (m) => {
      const unknown = unknownLike(ids(m).vault);
      const answer = await read(m, await globalToken(m), unknown);
      return [answer.status, messageOf(answer) === `Couldn't find VaultConnection with 'id'=${unknown}`, fieldsOf(answer).statusCode];
    },
    conformant: [404, false, 404],
    faulted: [404, true, 404],
  },
  {
    id: 'ho28-401-ruby-jwt-messages',
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
    faulted: ['Signature verification failed', 'Signature has expired', 'Invalid token'],
  },
  {
    id: 'ho28-haproxy-deny-status-403',
    options: TINY_BUCKET,
    probe: async (m) => {
      const answers = await tinyBucketAnswers(m);
      return [answers.map(status), answers[2]!.headers['x-ratelimit-limit'] !== undefined, answers[0]!.headers['x-ratelimit-limit']];
    },
    conformant: [[200, 200, 429], true, '2'],
    faulted: [[200, 200, 403], false, '2'],
  },
  {
    id: 'ho28-ratelimit-nginx-add-header-202',
    probe: async (m) => {
      const token = await globalToken(m);
      const redelivered = await redeliverAnswer(m, token);
      const readOne = await read(m, token);
      return [
        redelivered.status,
        redelivered.headers['x-ratelimit-limit'] !== undefined,
        readOne.status,
        readOne.headers['x-ratelimit-limit'] !== undefined,
      ];
    },
    conformant: [202, true, 200, true],
    faulted: [202, false, 200, true],
  },
];

heldOutRoundTests({
  name: 'the twenty-eighth held-out round',
  prefix: 'ho28-',
  faults: heldOutRound28Faults,
  least: { faults: 36, contract: 20 },
  probes,
  signingKey,
});
