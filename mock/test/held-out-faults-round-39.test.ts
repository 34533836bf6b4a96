// The thirty-ninth round of held-out faults (mock/faults/held-out/round-39/): kept apart from the
// gate's catalogue and from the earlier rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the fault's combination
// to a conformant mock and to a faulted one, and the two answers differ as the row says, while each
// half of the combination alone is answered alike by both (and, where the fault lets only the near
// value through, a plainly wrong value is still refused by both).
import { decodeJwt } from 'jose';
import { heldOutRound39Faults } from '../faults/held-out/round-39/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client } from './support/http.ts';
import {
  JSON_TYPE,
  MANUAL_CLOCK,
  ORGANIZATION,
  bucketOf,
  createTicket,
  fieldsOf,
  globalToken,
  ids,
  nowSeconds,
  probeKeyFile,
  read,
  redeliver,
  redeliverPath,
  status,
  ticketStatus,
  tokenAnswer,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-39');
const TICKET_SCOPE = 'create:sso_access_tickets';
const LIMIT = 'x-ratelimit-limit';
const RESET = 'x-ratelimit-reset';

/** A redelivery with the global client's token with these claims changed. */
const redeliverWith = async (m: MockServer, claims: Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, { ...(await claimsOf(m)), ...claims }));
/** A ticket request whose body is this JSON value, typed as given. */
const ticketTyped = async (m: MockServer, body: unknown, type: string) =>
  status(await createTicket(m, JSON.stringify(body), undefined, { 'content-type': type }));
const organization = (item: Record<string, unknown>) => ({ enabled_organizations: [{ organization_id: ORGANIZATION, ...item }] });
/** A token request of the named client authenticated with HTTP Basic, with these body fields. */
const basicToken = (m: MockServer, name: string, body: Record<string, string>) => {
  const { client_id: id, client_secret: secret } = client(m, name);
  return call(m, 'POST', '/oauth/token', {
    headers: { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` },
    body: { grant_type: 'client_credentials', audience: m.audience, ...body },
  });
};
const azpOf = (answer: Awaited<ReturnType<typeof call>>) =>
  answer.status === 200 ? decodeJwt(fieldsOf(answer).access_token as string).azp : null;
const short = (id: string) => id.slice(0, -1);

const probes: Probe[] = [
  {
    id: 'ho39-exp-unread-beside-nbf-python-elif',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      const now = nowSeconds(m);
      return [
        await redeliverWith(m, { nbf: now - 600, exp: now - 3600 }),
        await redeliverWith(m, { exp: now - 3600 }),
        await redeliverWith(m, { nbf: now + 3600, exp: now + 7200 }),
        await redeliverWith(m, { nbf: now - 600, exp: now + 3600 }),
      ];
    },
    conformant: [401, 401, 401, 202],
    faulted: [202, 401, 401, 202],
  },
  {
    id: 'ho39-show-as-button-else-if-assign',
    probe: async (m) => [
      await ticketStatus(m, organization({ assign_membership_on_login: true, show_as_button: 'yes' })),
      await ticketStatus(m, organization({ show_as_button: 'yes' })),
      await ticketStatus(m, organization({ assign_membership_on_login: 'yes', show_as_button: true })),
      await ticketStatus(m, organization({ assign_membership_on_login: true, show_as_button: true })),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho39-provisioning-flag-set-from-config',
    probe: async (m) => [
      await ticketStatus(m, { connection_id: ids(m).connection, provisioning_config: {}, enabled_features: { provisioning: 'yes' } }),
      await ticketStatus(m, { connection_id: ids(m).connection, enabled_features: { provisioning: 'yes' } }),
      await ticketStatus(m, { connection_id: ids(m).connection, provisioning_config: {}, enabled_features: { sso: 'yes' } }),
      await ticketStatus(m, { connection_id: ids(m).connection, provisioning_config: {}, enabled_features: { provisioning: true } }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho39-ttl-sec-gateway-model-exact-content-type',
    probe: async (m) => [
      await ticketTyped(m, { ttl_sec: '3600' }, `${JSON_TYPE}; charset=utf-8`),
      await ticketTyped(m, { ttl_sec: '3600' }, JSON_TYPE),
      await ticketTyped(m, { ttl_sec: 'soon' }, `${JSON_TYPE}; charset=utf-8`),
      await ticketTyped(m, { ttl_sec: 3600 }, `${JSON_TYPE}; charset=utf-8`),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho39-pending-domains-rules-under-if-then',
    probe: async (m) => [
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'none', pending_domains: [''] } }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'optional', pending_domains: [''] } }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'none', pending_domains: [5] } }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'none', pending_domains: ['login.example.com'] } }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho39-token-lifetime-minimum-under-dependent-schemas',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { token_lifetime: 899 } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime: 899 } }),
      await ticketStatus(m, { provisioning_config: { token_lifetime: '900' } }),
      await ticketStatus(m, { provisioning_config: { token_lifetime: 900 } }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho39-ticket-edit-asks-update-connections',
    probe: async (m) => {
      const editor = await withScope(m, 'update:connections');
      const neither = await withScope(m, 'read:users');
      const edit = { connection_id: ids(m).connection };
      return [
        status(await createTicket(m, edit, editor)),
        status(await createTicket(m, {}, editor)),
        status(await createTicket(m, edit, neither)),
        status(await createTicket(m, edit, await withScope(m, TICKET_SCOPE))),
      ];
    },
    conformant: [403, 403, 403, 201],
    faulted: [201, 403, 403, 201],
  },
  {
    id: 'ho39-redeliver-composite-key-length',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [
        status(await call(m, 'POST', redeliverPath(short(stream), `${failedEvent}x`), { token })),
        status(await call(m, 'POST', redeliverPath(stream, `${failedEvent}x`), { token })),
        status(await call(m, 'POST', redeliverPath(short(stream), failedEvent), { token })),
        status(await call(m, 'POST', redeliverPath(short(stream), `${failedEvent}xy`), { token })),
      ];
    },
    conformant: [400, 400, 400, 400],
    faulted: [404, 400, 400, 400],
  },
  {
    id: 'ho39-basic-client-mints-for-body-client-id',
    probe: async (m) => {
      const global = client(m, 'global').client_id;
      const mixed = await basicToken(m, 'non-global', { client_id: global });
      const alone = await basicToken(m, 'non-global', {});
      const wrong = await tokenAnswer(m, { client_secret: 'not-the-secret' });
      return [mixed.status, azpOf(mixed) === global, alone.status, azpOf(alone) === client(m, 'non-global').client_id, status(wrong)];
    },
    conformant: [400, false, 200, true, 401],
    faulted: [200, true, 200, true, 401],
  },
  {
    id: 'ho39-ticket-drf-browsable-renderer',
    probe: async (m) => {
      const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
      const html = await createTicket(m, {}, undefined, { accept: browser });
      const json = await createTicket(m, {}, undefined, { accept: 'application/json' });
      const any = await createTicket(m, {}, undefined, { accept: '*/*' });
      return [html.status, html.headers['content-type'], json.headers['content-type'], any.headers['content-type']];
    },
    conformant: [201, 'application/json; charset=utf-8', 'application/json; charset=utf-8', 'application/json; charset=utf-8'],
    faulted: [201, 'text/html; charset=utf-8', 'application/json; charset=utf-8', 'application/json; charset=utf-8'],
  },
  {
    id: 'ho39-ticket-laravel-resource-merges-edit-target',
    probe: async (m) => [
      Object.keys(fieldsOf(await createTicket(m, { connection_id: ids(m).connection }))),
      Object.keys(fieldsOf(await createTicket(m, {}))),
    ],
    conformant: [['ticket'], ['ticket']],
    faulted: [['ticket', 'connection_id'], ['ticket']],
  },
  {
    id: 'ho39-vault-packed-environment-account-column',
    probe: async (m) => {
      const token = await globalToken(m);
      const stored = (id: string) => m.fixtures.data.vault_connections!.find((v) => v.id === id)!.account_name;
      const long = fieldsOf(await read(m, token, ids(m).longVault));
      const full = fieldsOf(await read(m, token, ids(m).vault));
      return [long.account_name === stored(ids(m).longVault), full.account_name === stored(ids(m).vault)];
    },
    conformant: [true, true],
    faulted: [false, true],
  },
  {
    id: 'ho39-event-identity-map-across-streams',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, otherStream, otherFailedEvent } = ids(m);
      const before = await redeliver(m, token, stream, otherFailedEvent);
      const own = await redeliver(m, token, otherStream, otherFailedEvent);
      return [before, own, await redeliver(m, token, stream, otherFailedEvent)];
    },
    conformant: [404, 202, 404],
    faulted: [404, 202, 202],
  },
  {
    id: 'ho39-redeliverable-flag-per-stream',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, deliveredEvent, failedEvent } = ids(m);
      const before = await redeliver(m, token, stream, deliveredEvent);
      const failed = await redeliver(m, token, stream, failedEvent);
      return [before, failed, await redeliver(m, token, stream, deliveredEvent), await redeliver(m, token, stream, ids(m).pendingEvent)];
    },
    conformant: [409, 202, 409, 409],
    faulted: [409, 202, 202, 202],
  },
  {
    id: 'ho39-limit-kong-anonymous-consumer-on-401',
    options: bucketOf(50),
    probe: async (m) => {
      const token = await globalToken(m);
      const first = await read(m, token);
      const anonymous = await call(m, 'GET', vaultPath(ids(m).vault));
      const after = await read(m, token);
      return [first.status, first.headers[LIMIT], anonymous.status, anonymous.headers[LIMIT], after.headers[LIMIT]];
    },
    conformant: [200, '50', 401, '50', '50'],
    faulted: [200, '50', 401, '10', '50'],
  },
  {
    id: 'ho39-reset-429-from-ms-before-next',
    options: bucketOf(2),
    probe: async (m) => {
      const token = await globalToken(m);
      const digits = async () => (await read(m, token)).headers[RESET]!.length;
      return [await digits(), await digits(), await digits()];
    },
    conformant: [10, 10, 10],
    faulted: [10, 10, 13],
  },
  {
    id: 'ho39-429-unauthenticated-fallback-limiter-headerless',
    options: bucketOf(2),
    probe: async (m) => {
      const token = await globalToken(m);
      const anonymous401 = await call(m, 'GET', vaultPath(ids(m).vault));
      await read(m, token);
      const anonymous429 = await call(m, 'GET', vaultPath(ids(m).vault));
      const valid429 = await read(m, token);
      return [
        anonymous401.status,
        LIMIT in anonymous401.headers,
        anonymous429.status,
        LIMIT in anonymous429.headers,
        valid429.status,
        LIMIT in valid429.headers,
      ];
    },
    conformant: [401, true, 429, true, 429, true],
    faulted: [401, true, 429, false, 429, true],
  },
];

heldOutRoundTests({
  name: 'the thirty-ninth held-out round',
  prefix: 'ho39-',
  faults: heldOutRound39Faults,
  least: { faults: 17, contract: 10 },
  probes,
  signingKey,
});
