// The thirty-fourth round of held-out faults (mock/faults/held-out/round-34/): kept apart from the
// gate's catalogue and from the first thirty-three rounds, each row naming a clause of the registry
// at its own level, and each fault shown to do what its bug line says: a probe sends the fault's
// near miss to a conformant mock and to a faulted one, and the two answers differ as the row says
// (and, where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { cards } from '../../specs/cards/index.ts';
import { heldOutRound34Faults } from '../faults/held-out/round-34/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client } from './support/http.ts';
import {
  ORGANIZATION,
  TINY_BUCKET,
  createTicket,
  domainOf,
  fieldsOf,
  fixtureClientId,
  globalToken,
  ids,
  nowSeconds,
  probeKeyFile,
  read,
  readVault,
  record,
  redeliver,
  redeliverAnswer,
  status,
  ticketStatus,
  tokenAnswer,
  vaultPath,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-34');
const REDELIVER_SCOPE = cards.redeliver.scope.value;
const VAULT_SCOPE = cards.vault.scope.value;
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>) => Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) })));
const withScopeClaim = async (m: MockServer, scope: string, extra: Record<string, unknown> = {}) =>
  signedAsIs(m, { ...(await claimsOf(m)), scope, ...extra });
const without = (claims: Record<string, unknown>, name: string) => {
  const { [name]: _dropped, ...rest } = claims;
  return rest;
};

const probes: Probe[] = [
  {
    id: 'ho34-exp-directus-typeof-number',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, exp: String(nowSeconds(m) - 3600) })),
      await redeliverWith(m, (c) => ({ ...c, exp: nowSeconds(m) - 3600 })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho34-aud-appsync-cognito-client-id',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...without(c, 'aud'), client_id: c.azp })),
      await redeliverWith(m, (c) => without(c, 'aud')),
      await redeliverWith(m, (c) => ({ ...c, aud: 'https://other.example/api/v2/', client_id: c.azp })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 401, 202],
    faulted: [202, 401, 401, 202],
  },
  {
    id: 'ho34-sub-pedestal-ends-with-clients',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, sub: `${fixtureClientId(m, 'non-global')}@clients` })),
      await redeliverWith(m, (c) => ({ ...c, sub: `${String(c.azp)}@client` })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho34-enabled-clients-hasura-array-literal',
    probe: async (m) => {
      const id = fixtureClientId(m, 'global');
      return [
        await ticketStatus(m, { enabled_clients: `{${id}}` }),
        await ticketStatus(m, { enabled_clients: id }),
        await ticketStatus(m, { enabled_clients: [id] }),
      ];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho34-redeliver-appsync-cognito-groups',
    probe: async (m) => [
      await redeliver(m, await withScopeClaim(m, 'read:event_streams', { 'cognito:groups': [REDELIVER_SCOPE] })),
      await redeliver(m, await withScopeClaim(m, 'read:event_streams', { groups: [REDELIVER_SCOPE] })),
      await redeliver(m, await withScopeClaim(m, REDELIVER_SCOPE)),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho34-vault-scope-supabase-like',
    probe: async (m) => [
      await readVault(m, await withScopeClaim(m, `${VAULT_SCOPE}_all`)),
      await readVault(m, await withScopeClaim(m, 'read:flows_vault')),
      await readVault(m, await withScopeClaim(m, VAULT_SCOPE)),
    ],
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho34-vault-id-appwrite-uid-36',
    probe: async (m) => {
      const token = await globalToken(m);
      const vault = ids(m).vault;
      const padded = (length: number) => `${vault}${'a'.repeat(length - vault.length)}`;
      return [
        status(await read(m, token, padded(31))),
        status(await read(m, token, padded(36))),
        status(await read(m, token, padded(37))),
        status(await read(m, token, vault)),
      ];
    },
    conformant: [400, 400, 400, 200],
    faulted: [404, 404, 400, 200],
  },
  {
    id: 'ho34-client-id-libmicrohttpd-strncmp-prefix',
    probe: async (m) => {
      const id = client(m, 'global').client_id;
      return [
        status(await tokenAnswer(m, { client_id: id.slice(0, -1) })),
        status(await tokenAnswer(m, { client_id: `${id.slice(0, -1)}${id.endsWith('x') ? 'y' : 'x'}` })),
        status(await tokenAnswer(m, {})),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho34-created-at-firestore-timestamp',
    probe: async (m) => typeof (await record(m)).created_at,
    conformant: 'string',
    faulted: 'object',
  },
  {
    id: 'ho34-refreshed-at-parse-date-object',
    probe: async (m) => {
      const fields = await record(m);
      return [typeof fields.refreshed_at, typeof fields.updated_at];
    },
    conformant: ['string', 'string'],
    faulted: ['object', 'string'],
  },
  {
    id: 'ho34-redeliver-drogon-json-null',
    probe: async (m) => {
      const answer = await redeliverAnswer(m, await globalToken(m));
      return [answer.status, answer.text, answer.headers['content-type']];
    },
    conformant: [202, '{}', 'application/json; charset=utf-8'],
    faulted: [202, 'null', 'application/json; charset=utf-8'],
  },
  {
    id: 'ho34-delivered-pedestal-410-gone',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await redeliver(m, token, ids(m).stream, ids(m).deliveredEvent),
        await redeliver(m, token, ids(m).stream, ids(m).pendingEvent),
      ];
    },
    conformant: [409, 409],
    faulted: [410, 409],
  },
  {
    id: 'ho34-error-strapi-class-name',
    probe: async (m) => {
      const answer = await call(m, 'GET', vaultPath(`${ids(m).vault.slice(0, -1)}w`), { token: await globalToken(m) });
      return [answer.status, fieldsOf(answer).error];
    },
    conformant: [404, 'Not Found'],
    faulted: [404, 'NotFoundError'],
  },
  {
    id: 'ho34-429-crow-reset-after-handle',
    options: TINY_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [await read(m, token), await read(m, token), await read(m, token)];
      return answers.map((a) => [a.status, 'x-ratelimit-limit' in a.headers, 'x-ratelimit-reset' in a.headers]);
    },
    conformant: [
      [200, true, true],
      [200, true, true],
      [429, true, true],
    ],
    faulted: [
      [200, true, true],
      [200, true, true],
      [429, true, false],
    ],
  },
  {
    id: 'ho34-limit-pistache-tokens-before',
    options: { rateLimit: { bucketSize: 5, refillPerSecond: 0.001 } },
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [await read(m, token), await read(m, token), await read(m, token)];
      return answers.map((a) => a.headers['x-ratelimit-limit']);
    },
    conformant: ['5', '5', '5'],
    faulted: ['5', '4', '3'],
  },
  {
    id: 'ho34-ttl-drogon-uint32-cast',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 2 ** 32 + 3600 }),
      await ticketStatus(m, { ttl_sec: 5_000_000_000 }),
      await ticketStatus(m, { ttl_sec: 3600 }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho34-organization-id-parse-pointer',
    probe: async (m) => [
      await ticketStatus(m, {
        enabled_organizations: [{ organization_id: { __type: 'Pointer', className: 'Organization', objectId: ORGANIZATION } }],
      }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: { objectId: ORGANIZATION } }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION }] }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho34-vault-unknown-hasura-by-pk-null',
    probe: async (m) => {
      const token = await globalToken(m);
      const unknown = await read(m, token, `${ids(m).vault.slice(0, -1)}${ids(m).vault.endsWith('w') ? 'x' : 'w'}`);
      return [unknown.status, unknown.text, status(await read(m, token, 'x'.repeat(31)))];
    },
    conformant: [404, JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'Connection not found' }), 400],
    faulted: [200, 'null', 400],
  },
  {
    id: 'ho34-custom-domain-esp-idf-truncated',
    probe: async (m) => {
      const on = async (domain: string) => status(await createTicket(m, {}, undefined, { 'tenant-custom-domain': domain }));
      return [await on(domainOf(256)), await on('ab'), await on(domainOf(255))];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho34-audience-lambda-alb-http-scheme',
    probe: async (m) => {
      const https = m.audience;
      return [
        status(await tokenAnswer(m, { audience: https.replace(/^https:/, 'http:') })),
        status(await tokenAnswer(m, { audience: https.replace(/^https:/, 'ftp:') })),
        status(await tokenAnswer(m, {})),
      ];
    },
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho34-token-response-cognito-no-scope',
    probe: async (m) => {
      const answer = await tokenAnswer(m, {});
      return [answer.status, 'scope' in fieldsOf(answer), typeof fieldsOf(answer).access_token];
    },
    conformant: [200, true, 'string'],
    faulted: [200, false, 'string'],
  },
  {
    id: 'ho34-403-ash-inspect-list',
    probe: async (m) => {
      const answer = await redeliverAnswer(m, await withScopeClaim(m, 'read:event_streams'));
      return [answer.status, fieldsOf(answer).message, fieldsOf(answer).errorCode];
    },
    conformant: [403, `Insufficient scope, expected any of: ${REDELIVER_SCOPE}`, 'insufficient_scope'],
    faulted: [403, `Insufficient scope, expected any of: ["${REDELIVER_SCOPE}"]`, 'insufficient_scope'],
  },
];

heldOutRoundTests({
  name: 'the thirty-fourth held-out round',
  prefix: 'ho34-',
  faults: heldOutRound34Faults,
  least: { faults: 22, contract: 14 },
  probes,
  signingKey,
});
