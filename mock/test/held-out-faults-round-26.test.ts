// The twenty-sixth round of held-out faults (mock/faults/held-out/round-26/): kept apart from the
// gate's catalogue and from the first twenty-five rounds, each row naming a clause of the registry
// at its own level, and each fault shown to do what its bug line says: a probe sends the fault's
// near miss to a conformant mock and to a faulted one, and the two answers differ as the row says
// (and, where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { cards } from '../../specs/cards/index.ts';
import { heldOutRound26Faults } from '../faults/held-out/round-26/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client } from './support/http.ts';
import {
  TINY_BUCKET,
  createTicket,
  fieldsOf,
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
  ticketStatus,
  tokenAnswer,
  unknownLike,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-26');
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>) => Record<string, unknown>, header = {}) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) }), header));
const redeliverPathOf = (stream: string, event: string) =>
  `/api/v2/event-streams/${encodeURIComponent(stream)}/redeliver/${encodeURIComponent(event)}`;
const redeliverAt = async (m: MockServer, stream: string, event: string) =>
  call(m, 'POST', redeliverPathOf(stream, event), { token: await globalToken(m) });
const withoutScope = (claims: Record<string, unknown>) => {
  const { scope: _scope, ...rest } = claims;
  return rest;
};
const VAULT_SCOPE = cards.vault.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
/** A form token request of the global client with these parameters changed. */
const globalForm = (m: MockServer, overrides: Record<string, string> = {}) => {
  const { client_id, client_secret } = client(m, 'global');
  const fields = { grant_type: 'client_credentials', client_id, client_secret, audience: m.audience, ...overrides };
  return new URLSearchParams(fields).toString();
};
const outcome = (answer: { status: number }) => (answer.status === 200 ? 'token' : 'refused');
const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const headerNames = (answer: { headers: Record<string, string> }) =>
  Object.keys(answer.headers)
    .filter((name) => /ratelimit/.test(name))
    .sort();
const padded = (token: string) => `${token}==`;

const probes: Probe[] = [
  {
    id: 'ho26-exp-jwt-scala-leeway',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, exp: nowSeconds(m) - 30 })),
      await redeliverWith(m, (c) => ({ ...c, exp: nowSeconds(m) - 120 })),
      await redeliverWith(m, (c) => ({ ...c, exp: nowSeconds(m) + 3600 })),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho26-iss-crystal-rchop-slash',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iss: String(c.iss).replace(/\/$/, '') })),
      await redeliverWith(m, (c) => ({ ...c, iss: 'https://other.example' })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho26-signature-dart-base64-padding',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await redeliver(m, padded(token)),
        await redeliver(m, padded(withTamperedSignature(token))),
        await redeliver(m, withTamperedSignature(token)),
        await redeliver(m, token),
      ];
    },
    conformant: [401, 401, 401, 202],
    faulted: [202, 401, 401, 202],
  },
  {
    id: 'ho26-alg-julia-lowercase',
    probe: async (m) => [
      await redeliverWith(m, (c) => c, { alg: 'rs256' }),
      await redeliverWith(m, (c) => c, { alg: 'HS256' }),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho26-kid-deno-trimmed',
    probe: async (m) => [
      await redeliverWith(m, (c) => c, { kid: `${m.keys.kid} ` }),
      await redeliverWith(m, (c) => c, { kid: unknownLike(m.keys.kid) }),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho26-ttl-sec-ruby-integer-truncates',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 3600.5 }),
      await ticketStatus(m, { ttl_sec: 'soon' }),
      await ticketStatus(m, { ttl_sec: 3600 }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho26-enabled-clients-play-single-or-list',
    probe: async (m) => {
      const id = client(m, 'global').client_id;
      return [
        await ticketStatus(m, { enabled_clients: id }),
        await ticketStatus(m, { enabled_clients: 5 }),
        await ticketStatus(m, { enabled_clients: [id] }),
      ];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho26-sso-feature-mojo-coerce-booleans',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { sso: 'true' } }),
      await ticketStatus(m, { enabled_features: { sso: 'yes' } }),
      await ticketStatus(m, { enabled_features: { sso: true } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho26-org-discovery-thoth-null-optional',
    probe: async (m) => [
      await ticketStatus(m, { use_for_organization_discovery: null }),
      await ticketStatus(m, { use_for_organization_discovery: 'no' }),
      await ticketStatus(m, { use_for_organization_discovery: false }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho26-token-lifetime-go-string-tag',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { token_lifetime: '3600' } }),
      await ticketStatus(m, { provisioning_config: { token_lifetime: 'an hour' } }),
      await ticketStatus(m, { provisioning_config: { token_lifetime: 3600 } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho26-token-keyword-drf',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await readAs(m, `Token ${token}`),
        await readAs(m, `Basic ${Buffer.from('a:b').toString('base64')}`),
        await readAs(m, `Bearer ${token}`),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho26-scp-claim-identity-web',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, scope: VAULT_SCOPE, scp: 'update:event_deliveries' })),
      await redeliverWith(m, (c) => ({ ...c, scope: VAULT_SCOPE, scp: 'delete:users' })),
      await redeliverWith(m, (c) => ({ ...withoutScope(c), scope: VAULT_SCOPE })),
    ],
    conformant: [403, 403, 403],
    faulted: [202, 403, 403],
  },
  {
    id: 'ho26-scope-rails-singularize',
    probe: async (m) => {
      const withScope = async (scope: string) => readVault(m, signedAsIs(m, { ...(await claimsOf(m)), scope }));
      return [await withScope(VAULT_SCOPE.replace(/s$/, '')), await withScope('read:flows_vault'), await withScope(VAULT_SCOPE)];
    },
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho26-scope-postgres-citext',
    probe: async (m) => {
      const ticketWith = async (scope: string) => status(await createTicket(m, {}, signedAsIs(m, { ...(await claimsOf(m)), scope })));
      return [await ticketWith(TICKET_SCOPE.toUpperCase()), await ticketWith('create:sso_access'), await ticketWith(TICKET_SCOPE)];
    },
    conformant: [403, 403, 201],
    faulted: [201, 403, 201],
  },
  {
    id: 'ho26-stream-id-sqlserver-ci-collation',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [
        status(await redeliverAt(m, stream.toUpperCase(), failedEvent)),
        status(await redeliverAt(m, unknownLike(stream), failedEvent)),
        status(await redeliverAt(m, stream, failedEvent)),
      ];
    },
    conformant: [400, 404, 202],
    faulted: [202, 404, 202],
  },
  {
    id: 'ho26-event-id-mysql-pad-space',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [
        status(await redeliverAt(m, stream, `${failedEvent} `)),
        status(await redeliverAt(m, stream, `${failedEvent}x`)),
        status(await redeliverAt(m, stream, failedEvent)),
      ];
    },
    conformant: [400, 400, 202],
    faulted: [202, 400, 202],
  },
  {
    id: 'ho26-vault-id-rails-format-suffix',
    probe: async (m) => {
      const token = await globalToken(m);
      const { vault } = ids(m);
      const near = await read(m, token, `${vault}.json`);
      return [near.status, fieldsOf(near).id, (await read(m, token, `${vault}.txt`)).status, await readVault(m, token)];
    },
    conformant: [400, undefined, 400, 200],
    faulted: [200, 'ac_NbWaizZTo4vfWnCwDq76Vj', 400, 200],
  },
  {
    id: 'ho26-stream-404-gettext-names-id',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const unknown = unknownLike(stream);
      const answer = await redeliverAt(m, unknown, failedEvent);
      return [
        answer.status,
        messageOf(answer) === 'The requested stream does not exist.',
        messageOf(answer) === `Event stream ${unknown} does not exist.`,
      ];
    },
    conformant: [404, true, false],
    faulted: [404, false, true],
  },
  {
    id: 'ho26-grant-type-mojo-trimmed',
    probe: async (m) => [
      status(await formToken(m, globalForm(m, { grant_type: 'client_credentials ' }))),
      status(await formToken(m, globalForm(m, { grant_type: 'password' }))),
      status(await formToken(m, globalForm(m))),
    ],
    conformant: [400, 400, 200],
    faulted: [200, 400, 200],
  },
  {
    id: 'ho26-audience-java-uri-equals',
    probe: async (m) => {
      const host = new URL(m.audience).host;
      return [
        status(await formToken(m, globalForm(m, { audience: m.audience.replace(host, host.toUpperCase()) }))),
        status(await formToken(m, globalForm(m, { audience: 'https://other.example/api/v2/' }))),
        status(await formToken(m, globalForm(m))),
      ];
    },
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho26-client-id-mysql-ai-ci',
    probe: async (m) => {
      const id = client(m, 'global').client_id;
      return [
        outcome(await formToken(m, globalForm(m, { client_id: id.toUpperCase() }))),
        outcome(await formToken(m, globalForm(m, { client_id: unknownLike(id) }))),
        outcome(await formToken(m, globalForm(m))),
      ];
    },
    conformant: ['refused', 'refused', 'token'],
    faulted: ['token', 'refused', 'token'],
  },
  {
    id: 'ho26-token-error-spring-null-description',
    probe: async (m) => {
      const answer = await formToken(m, globalForm(m, { client_secret: 'not-the-secret' }));
      return [answer.status, Object.keys(fieldsOf(answer)).sort(), fieldsOf(answer).error];
    },
    conformant: [401, ['error', 'error_description'], 'invalid_client'],
    faulted: [401, ['error'], 'invalid_client'],
  },
  {
    id: 'ho26-expires-in-php-string',
    probe: async (m) => {
      const answer = await tokenAnswer(m, {});
      return [answer.status, typeof fieldsOf(answer).expires_in, typeof fieldsOf(answer).access_token];
    },
    conformant: [200, 'number', 'string'],
    faulted: [200, 'string', 'string'],
  },
  {
    id: 'ho26-granted-scope-go-comma-join',
    probe: async (m) => {
      const two = await tokenAnswer(m, { scope: `update:event_deliveries ${VAULT_SCOPE}` });
      const one = await tokenAnswer(m, { scope: VAULT_SCOPE });
      return [two.status, String(fieldsOf(two).scope).includes(','), one.status, fieldsOf(one).scope];
    },
    conformant: [200, false, 200, VAULT_SCOPE],
    faulted: [200, true, 200, VAULT_SCOPE],
  },
  {
    id: 'ho26-ready-perl-dbi-tinyint',
    probe: async (m) => [(await record(m)).ready, (await record(m, ids(m).notReadyVault)).ready, (await record(m)).id],
    conformant: [true, false, 'ac_NbWaizZTo4vfWnCwDq76Vj'],
    faulted: [1, 0, 'ac_NbWaizZTo4vfWnCwDq76Vj'],
  },
  {
    id: 'ho26-updated-at-python-naive-isoformat',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.updated_at, fields.created_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['2024-09-12T12:52:16.553000', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho26-vault-jsonapi-content-type',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m));
      return [answer.status, answer.headers['content-type'], fieldsOf(answer).id];
    },
    conformant: [200, 'application/json; charset=utf-8', 'ac_NbWaizZTo4vfWnCwDq76Vj'],
    faulted: [200, 'application/vnd.api+json', 'ac_NbWaizZTo4vfWnCwDq76Vj'],
  },
  {
    id: 'ho26-ticket-url-scheme-behind-balancer',
    probe: async (m) => {
      const ticket = new URL(fieldsOf(await createTicket(m, {})).ticket as string);
      return [ticket.protocol, ticket.pathname];
    },
    conformant: ['https:', '/self-service/connections-flow'],
    faulted: ['http:', '/self-service/connections-flow'],
  },
  {
    id: 'ho26-vault-object-member-stripe-style',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.object, fields.id];
    },
    conformant: [undefined, 'ac_NbWaizZTo4vfWnCwDq76Vj'],
    faulted: ['vault_connection', 'ac_NbWaizZTo4vfWnCwDq76Vj'],
  },
  {
    id: 'ho26-redeliver-pending-oban-guard',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, pendingEvent, deliveredEvent } = ids(m);
      return [await redeliver(m, token, stream, pendingEvent), await redeliver(m, token, stream, deliveredEvent)];
    },
    conformant: [409, 409],
    faulted: [202, 409],
  },
  {
    id: 'ho26-client-id-claim-ktor',
    probe: async (m) => {
      const globalId = client(m, 'global').client_id;
      const asNonGlobal = async (extra: Record<string, unknown>) =>
        redeliver(m, signedAsIs(m, { ...(await claimsOf(m, 'non-global')), ...extra }));
      return [await asNonGlobal({ client_id: globalId }), await asNonGlobal({ client_id: unknownLike(globalId) }), await asNonGlobal({})];
    },
    conformant: [401, 401, 401],
    faulted: [202, 401, 401],
  },
  {
    id: 'ho26-errors-aspnet-problem-json',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m), unknownLike(ids(m).vault));
      const ok = await read(m, await globalToken(m));
      return [answer.status, answer.headers['content-type'], ok.headers['content-type']];
    },
    conformant: [404, 'application/json; charset=utf-8', 'application/json; charset=utf-8'],
    faulted: [404, 'application/problem+json; charset=utf-8', 'application/json; charset=utf-8'],
  },
  {
    id: 'ho26-error-status-code-perl-string',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m), unknownLike(ids(m).vault));
      return [answer.status, fieldsOf(answer).statusCode, messageOf(answer)];
    },
    conformant: [404, 404, 'Connection not found'],
    faulted: [404, '404', 'Connection not found'],
  },
  {
    id: 'ho26-redeliver-body-oban-job',
    probe: async (m) => {
      const answer = await redeliverAt(m, ids(m).stream, ids(m).failedEvent);
      return [answer.status, answer.json];
    },
    conformant: [202, {}],
    faulted: [202, { id: 1, queue: 'redeliveries', state: 'available' }],
  },
  {
    id: 'ho26-429-traefik-middleware',
    options: TINY_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [];
      for (let i = 0; i < 3; i += 1) answers.push(await read(m, token));
      return [answers.map(status), headerNames(answers[0]!), headerNames(answers[2]!)];
    },
    conformant: [[200, 200, 429], RATE_HEADERS, RATE_HEADERS],
    faulted: [[200, 200, 429], RATE_HEADERS, []],
  },
  {
    id: 'ho26-ratelimit-reset-deno-millis',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m));
      const reset = answer.headers['x-ratelimit-reset'] ?? '';
      return [answer.status, reset.length, answer.headers['x-ratelimit-limit'] !== undefined];
    },
    conformant: [200, 10, true],
    faulted: [200, 13, true],
  },
];

heldOutRoundTests({
  name: 'the twenty-sixth held-out round',
  prefix: 'ho26-',
  faults: heldOutRound26Faults,
  least: { faults: 36, contract: 20 },
  probes,
  signingKey,
});
