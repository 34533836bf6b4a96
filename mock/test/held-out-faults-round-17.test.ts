// The seventeenth round of held-out faults (mock/faults/held-out/round-17/): kept apart from the
// gate's catalogue and from the first sixteen rounds, each row naming a clause of the registry at
// its own level, and each fault shown to do what its bug line says: a probe sends the fault's near
// miss to a conformant mock and to a faulted one, and the two answers differ as the row says (and,
// where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { cards } from '../../specs/cards/index.ts';
import { heldOutRound17Faults } from '../faults/held-out/round-17/catalogue.ts';
import type { MockServer } from '../index.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client } from './support/http.ts';
import {
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
  status,
  ticketStatus,
  tokenStatus,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-17');
const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
const VAULT_SCOPE = cards.vault.scope.value;
const bearer = async (m: MockServer, edit: (token: string) => string) => readAs(m, `Bearer ${edit(await globalToken(m))}`);
const ticketAs = async (m: MockServer, token: string) => status(await createTicket(m, {}, token));
const header = (answer: { headers: Record<string, string> }, name: string) => answer.headers[name];
const burst = async (m: MockServer, n: number, path?: string) => {
  const token = await globalToken(m);
  const answers = [];
  for (let i = 0; i < n; i++) answers.push(await call(m, 'GET', path ?? vaultPath(ids(m).vault), { token }));
  return answers;
};
const organizations = (show: unknown) => ({ enabled_organizations: [{ organization_id: 'org_abcdefghijklmnop', show_as_button: show }] });
const redeliverPathOf = (stream: string, event: string) => `/api/v2/event-streams/${stream}/redeliver/${event}`;
const redeliverAt = async (m: MockServer, stream: string, event: string) =>
  status(await call(m, 'POST', redeliverPathOf(stream, event), { token: await globalToken(m) }));

const probes: Probe[] = [
  {
    id: 'ho17-scheme-colon-accepted',
    probe: async (m) => [await readAs(m, `Bearer: ${await globalToken(m)}`), await readAs(m, `Basic ${await globalToken(m)}`)],
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho17-empty-fourth-segment-dropped',
    probe: async (m) => [await bearer(m, (t) => `${t}.`), await bearer(m, (t) => `${t}.x`)],
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho17-quoted-credential-unquoted',
    probe: async (m) => [await bearer(m, (t) => `"${t}"`), await bearer(m, (t) => `"${t}`)],
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho17-padded-signature-accepted',
    probe: async (m) => [
      await bearer(m, (t) => `${t}==`),
      await bearer(m, (t) => `${t.slice(0, -5)}${t[t.length - 5] === 'A' ? 'B' : 'A'}${t.slice(-4)}`),
    ],
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho17-ttl-single-element-array',
    probe: async (m) => [await ticketStatus(m, { ttl_sec: [3600] }), await ticketStatus(m, { ttl_sec: [3600, 60] })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho17-enabled-clients-comma-string',
    probe: async (m) => {
      const id = client(m, 'global').client_id;
      return [await ticketStatus(m, { enabled_clients: `${id},${id}` }), await ticketStatus(m, { enabled_clients: 42 })];
    },
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho17-show-as-button-boolean-string',
    probe: async (m) => [await ticketStatus(m, organizations('true')), await ticketStatus(m, organizations('yes'))],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho17-provisioning-scopes-space-string',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: 'get:users post:users' } }),
      await ticketStatus(m, { provisioning_config: { scopes: 5 } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho17-feature-switch-null-dropped',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { sso: null } }),
      await ticketStatus(m, { enabled_features: { sso: 'on' } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho17-scope-case-folded',
    probe: async (m) => [
      await redeliver(m, await withScope(m, REDELIVER_SCOPE.toUpperCase())),
      await redeliver(m, await withScope(m, VAULT_SCOPE.toUpperCase())),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho17-action-wildcard-granted',
    probe: async (m) => [
      await redeliver(m, await withScope(m, `${REDELIVER_SCOPE.split(':')[0]}:*`)),
      await redeliver(m, await withScope(m, 'read:*')),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho17-vault-scope-plural-folded',
    probe: async (m) => [
      await readVault(m, await withScope(m, VAULT_SCOPE.endsWith('s') ? VAULT_SCOPE.slice(0, -1) : `${VAULT_SCOPE}s`)),
      await readVault(m, await withScope(m, 'read:users')),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho17-ticket-scope-comma-split',
    probe: async (m) => [
      await ticketAs(m, await withScope(m, `read:users,${TICKET_SCOPE}`)),
      await ticketAs(m, await withScope(m, `read:users;${TICKET_SCOPE}`)),
    ],
    conformant: [403, 403],
    faulted: [201, 403],
  },
  {
    id: 'ho17-stream-id-trimmed',
    probe: async (m) => [
      await redeliverAt(m, `${ids(m).stream}%20`, ids(m).failedEvent),
      await redeliverAt(m, `${ids(m).stream}w`, ids(m).failedEvent),
    ],
    conformant: [400, 400],
    faulted: [202, 400],
  },
  {
    id: 'ho17-event-id-trimmed',
    probe: async (m) => [
      await redeliverAt(m, ids(m).stream, `${ids(m).failedEvent}%20`),
      await redeliverAt(m, ids(m).stream, `${ids(m).failedEvent}w`),
    ],
    conformant: [400, 400],
    faulted: [202, 400],
  },
  {
    id: 'ho17-grant-type-case-folded',
    probe: async (m) => [await tokenStatus(m, { grant_type: 'Client_Credentials' }), await tokenStatus(m, { grant_type: 'password' })],
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho17-client-id-trimmed',
    probe: async (m) => [
      await tokenStatus(m, { client_id: `${client(m, 'global').client_id} ` }),
      await tokenStatus(m, { client_id: 'unknown-client' }),
    ],
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho17-jwks-modulus-standard-base64',
    probe: async (m) => {
      const keys = fieldsOf(await call(m, 'GET', '/.well-known/jwks.json')).keys as Array<Record<string, string>>;
      return /^[A-Za-z0-9_-]+$/.test(keys[0]!.n!);
    },
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho17-discovery-issuer-slash-stripped',
    probe: async (m) => String(fieldsOf(await call(m, 'GET', '/.well-known/openid-configuration')).issuer).endsWith('/'),
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho17-ready-driver-string',
    probe: async (m) => typeof (await record(m)).ready,
    conformant: 'boolean',
    faulted: 'string',
  },
  {
    id: 'ho17-timestamps-local-date-time',
    probe: async (m) => String((await record(m)).created_at).endsWith('Z'),
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho17-ticket-sent-as-html',
    probe: async (m) => String(header(await createTicket(m, {}), 'content-type')).split(';')[0],
    conformant: 'application/json',
    faulted: 'text/html',
  },
  {
    id: 'ho17-ticket-url-double-slash',
    probe: async (m) => new URL(String(fieldsOf(await createTicket(m, {})).ticket)).pathname.startsWith('//'),
    conformant: false,
    faulted: true,
  },
  {
    id: 'ho17-state-conflict-422',
    probe: async (m) => [
      await redeliverAt(m, ids(m).stream, ids(m).deliveredEvent),
      await redeliverAt(m, ids(m).stream, ids(m).failedEvent),
    ],
    conformant: [409, 202],
    faulted: [422, 202],
  },
  {
    id: 'ho17-name-taken-400',
    probe: async (m) => ticketStatus(m, { connection_config: { name: m.fixtures.data.connections![0]!.name } }),
    conformant: 409,
    faulted: 400,
  },
  {
    id: 'ho17-401-message-period',
    probe: async (m) => messageOf(await call(m, 'GET', vaultPath(ids(m).vault))).endsWith('.'),
    conformant: false,
    faulted: true,
  },
  {
    id: 'ho17-errors-problem-json',
    probe: async (m) => String(header(await read(m, await globalToken(m), `${ids(m).vault.slice(0, -1)}w`), 'content-type')).split(';')[0],
    conformant: 'application/json',
    faulted: 'application/problem+json',
  },
  {
    id: 'ho17-429-headers-dropped',
    options: TINY_BUCKET,
    probe: async (m) => (await burst(m, 3)).map((a) => [a.status, header(a, 'x-ratelimit-limit') ?? null]),
    conformant: [
      [200, '2'],
      [200, '2'],
      [429, '2'],
    ],
    faulted: [
      [200, '2'],
      [200, '2'],
      [429, null],
    ],
  },
  {
    id: 'ho17-bucket-keyed-by-query',
    options: TINY_BUCKET,
    probe: async (m) => {
      const first = await burst(m, 3);
      const queried = await burst(m, 1, `${vaultPath(ids(m).vault)}?page=1`);
      return [...first, ...queried].map((a) => a.status);
    },
    conformant: [200, 200, 429, 429],
    faulted: [200, 200, 429, 200],
  },
  {
    id: 'ho17-reset-http-date',
    probe: async (m) => /^\d+$/.test(String(header(await read(m, await globalToken(m)), 'x-ratelimit-reset'))),
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho17-429-error-snake-code',
    options: TINY_BUCKET,
    probe: async (m) => fieldsOf((await burst(m, 3))[2]!).error,
    conformant: 'Too Many Requests',
    faulted: 'too_many_requests',
  },
];

heldOutRoundTests({
  name: 'the seventeenth held-out round',
  prefix: 'ho17-',
  faults: heldOutRound17Faults,
  least: { faults: 30, contract: 15 },
  probes,
  signingKey,
});
