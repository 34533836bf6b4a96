// The fortieth round of held-out faults (mock/faults/held-out/round-40/): kept apart from the gate's
// catalogue and from the earlier rounds, each row naming a clause of the registry at its own level,
// and each fault shown to do what its bug line says: a probe sends the fault's combination to a
// conformant mock and to a faulted one, and the two answers differ as the row says, while each half
// of the combination alone is answered alike by both (and, where the fault lets only the near value
// through, a plainly wrong value is still refused by both).
import { heldOutRound40Faults } from '../faults/held-out/round-40/catalogue.ts';
import { ManualClock, type MockServer } from '../index.ts';
import { claimsOf, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, tokenFor, tokenRequest } from './support/http.ts';
import {
  FORM,
  MANUAL_CLOCK,
  PARTNER_DOMAIN,
  REPORTS_API,
  advance,
  bucketOf,
  createTicket,
  fieldsOf,
  fixtureClientId,
  globalToken,
  ids,
  nowSeconds,
  probeKeyFile,
  read,
  record,
  redeliver,
  redeliverAnswer,
  redeliverPath,
  status,
  ticketStatus,
  tokenStatus,
  unknownLike,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-40');
const LIMIT = 'x-ratelimit-limit';
const RESET = 'x-ratelimit-reset';
const OTHER_ISSUER = 'https://other-tenant.example.com/';
const STREAM_MISSING = 'The requested stream does not exist.';
const EVENT_MISSING = 'The requested event does not exist.';
const FRESH_NAME = 'fresh-partner-sso';

/** A redelivery with the global client's token with these claims changed. */
const redeliverWith = async (m: MockServer, claims: Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, { ...(await claimsOf(m)), ...claims }));
/** A fixture client's token claims with these changed, signed with the mock's key. */
const tokenOf = async (m: MockServer, name: string, claims: Record<string, unknown>) =>
  signedAsIs(m, { ...(await claimsOf(m, name)), ...claims });
const short = (id: string) => id.slice(0, -1);
const edit = (m: MockServer, body: Record<string, unknown>) => ({ connection_id: ids(m).connection, ...body });
const created = (body: Record<string, unknown>) => ({ connection_config: { name: FRESH_NAME }, ...body });
const domains = (config: Record<string, unknown>) => ({ domain_aliases_config: config });
const errorCodeOf = (answer: Awaited<ReturnType<typeof call>>) => fieldsOf(answer).errorCode ?? null;
const messageOf = (answer: Awaited<ReturnType<typeof call>>) => fieldsOf(answer).message;
/** A JSON token request of the global client to this path. */
const jsonToken = (m: MockServer, path: string) => call(m, 'POST', path, { body: tokenRequest(m, 'global') });

const probes: Probe[] = [
  {
    id: 'ho40-iss-unchecked-for-list-audience',
    probe: async (m) => {
      const audience = (await claimsOf(m)).aud as string;
      return [
        await redeliverWith(m, { aud: [audience], iss: OTHER_ISSUER }),
        await redeliverWith(m, { iss: OTHER_ISSUER }),
        await redeliverWith(m, { aud: [REPORTS_API], iss: OTHER_ISSUER }),
        await redeliverWith(m, { aud: [audience] }),
      ];
    },
    conformant: [401, 401, 401, 202],
    faulted: [202, 401, 401, 202],
  },
  {
    id: 'ho40-enabled-features-checked-only-for-edit',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: 'all' }),
      await ticketStatus(m, edit(m, { enabled_features: 'all' })),
      await ticketStatus(m, edit(m, { enabled_features: true })),
      await ticketStatus(m, edit(m, { enabled_features: { sso: true } })),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho40-connection-config-unread-on-edit',
    probe: async (m) => [
      await ticketStatus(m, edit(m, { connection_config: 'acme' })),
      await ticketStatus(m, { connection_config: 'acme' }),
      await ticketStatus(m, edit(m, { connection_config: { name: ids(m).takenName } })),
      await ticketStatus(m, edit(m, { connection_config: { name: FRESH_NAME } })),
    ],
    conformant: [400, 400, 409, 201],
    faulted: [201, 400, 409, 201],
  },
  {
    id: 'ho40-enabled-clients-loose-in-create-branch',
    probe: async (m) => [
      await ticketStatus(m, created({ enabled_clients: [42] })),
      await ticketStatus(m, { enabled_clients: [42] }),
      await ticketStatus(m, created({ enabled_clients: 'web' })),
      await ticketStatus(m, created({ enabled_clients: [fixtureClientId(m, 'global')] })),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho40-ttl-maximum-only-in-create-group',
    probe: async (m) => [
      await ticketStatus(m, edit(m, { ttl_sec: 432_001 })),
      await ticketStatus(m, { ttl_sec: 432_001 }),
      await ticketStatus(m, edit(m, { ttl_sec: -1 })),
      await ticketStatus(m, edit(m, { ttl_sec: 432_000 })),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho40-discovery-flag-parsed-beside-domain-config',
    probe: async (m) => {
      const config = { domain_verification: 'optional' };
      return [
        await ticketStatus(m, { ...domains(config), use_for_organization_discovery: 'true' }),
        await ticketStatus(m, { use_for_organization_discovery: 'true' }),
        await ticketStatus(m, { ...domains(config), use_for_organization_discovery: 1 }),
        await ticketStatus(m, { ...domains(config), use_for_organization_discovery: true }),
      ];
    },
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho40-domain-verification-unrequired-beside-empty-pending',
    probe: async (m) => [
      await ticketStatus(m, domains({ pending_domains: [] })),
      await ticketStatus(m, domains({})),
      await ticketStatus(m, domains({ pending_domains: ['login.example.com'] })),
      await ticketStatus(m, domains({ domain_verification: 'none', pending_domains: [] })),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho40-redeliver-permission-from-overridden-method',
    probe: async (m) => {
      const reader = await withScope(m, 'read:event_deliveries');
      const neither = await withScope(m, 'read:users');
      const override = { 'x-http-method-override': 'GET' };
      const path = redeliverPath(ids(m).stream, ids(m).failedEvent);
      return [
        status(await call(m, 'POST', path, { token: reader, headers: override })),
        status(await call(m, 'POST', path, { token: reader })),
        status(await call(m, 'POST', path, { token: neither, headers: override })),
        status(await call(m, 'POST', path, { token: await globalToken(m), headers: override })),
      ];
    },
    conformant: [403, 403, 403, 202],
    faulted: [202, 403, 403, 202],
  },
  {
    id: 'ho40-scope-guard-before-global-client-guard',
    probe: async (m) => [
      await redeliver(m, await tokenOf(m, 'non-global', { scope: 'read:users' })),
      await redeliver(m, await tokenFor(m, 'non-global')),
      await redeliver(m, await withScope(m, 'read:users')),
    ],
    conformant: [401, 401, 403],
    faulted: [403, 401, 403],
  },
  {
    id: 'ho40-vault-field-filter-skips-permission',
    probe: async (m) => {
      const token = await withScope(m, 'read:users');
      const filtered = `${vaultPath(ids(m).vault)}?fields=name`;
      return [
        status(await call(m, 'GET', filtered, { token })),
        status(await call(m, 'GET', vaultPath(ids(m).vault), { token })),
        status(await call(m, 'GET', filtered)),
        status(await call(m, 'GET', filtered, { token: await globalToken(m) })),
      ];
    },
    conformant: [403, 403, 401, 200],
    faulted: [200, 403, 401, 200],
  },
  {
    id: 'ho40-stream-id-prefix-of-found-event',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [
        await redeliver(m, token, `${stream}x`, failedEvent),
        await redeliver(m, token, `${stream}x`, unknownLike(failedEvent)),
        await redeliver(m, token, short(stream), failedEvent),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: [400, 400, 400, 202],
    faulted: [202, 400, 400, 202],
  },
  {
    id: 'ho40-vault-cache-keyed-by-column-width',
    probe: async (m) => {
      const token = await globalToken(m);
      const { longVault, vault } = ids(m);
      const before = status(await read(m, token, `${longVault}x`));
      const first = status(await read(m, token, longVault));
      const after = status(await read(m, token, `${longVault}x`));
      const neverRead = status(await read(m, token, `${vault}${'x'.repeat(31 - vault.length)}`));
      return [before, first, after, neverRead];
    },
    conformant: [400, 200, 400, 400],
    faulted: [400, 200, 200, 400],
  },
  {
    id: 'ho40-both-path-ids-reported-by-joi-details',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      const both = await redeliverAnswer(m, token, short(stream), short(failedEvent));
      return [
        both.status,
        errorCodeOf(both),
        String(messageOf(both)).startsWith('Path validation error:'),
        errorCodeOf(await redeliverAnswer(m, token, short(stream), failedEvent)),
        errorCodeOf(await redeliverAnswer(m, token, stream, short(failedEvent))),
      ];
    },
    conformant: [400, 'invalid_uri', true, 'invalid_uri', 'invalid_uri'],
    faulted: [400, null, false, 'invalid_uri', 'invalid_uri'],
  },
  {
    id: 'ho40-secret-check-memoised-per-client-audience',
    probe: async (m) => [
      await tokenStatus(m, { client_secret: 'not-the-secret' }),
      await tokenStatus(m, {}),
      await tokenStatus(m, { client_secret: 'not-the-secret' }),
    ],
    conformant: [401, 200, 401],
    faulted: [401, 200, 200],
  },
  {
    id: 'ho40-audience-found-from-requested-scopes',
    probe: async (m) => [
      await tokenStatus(m, { audience: REPORTS_API, scope: 'update:event_deliveries' }),
      await tokenStatus(m, { audience: REPORTS_API }),
      await tokenStatus(m, { audience: REPORTS_API, scope: 'read:reports' }),
      await tokenStatus(m, { scope: 'update:event_deliveries' }),
    ],
    conformant: [403, 403, 403, 200],
    faulted: [200, 403, 403, 200],
  },
  {
    id: 'ho40-json-token-unparsed-at-trailing-slash',
    probe: async (m) => [
      status(await jsonToken(m, '/oauth/token/')),
      status(await jsonToken(m, '/oauth/token')),
      status(
        await call(m, 'POST', '/oauth/token/', {
          body: new URLSearchParams(tokenRequest(m, 'global')).toString(),
          headers: { 'content-type': FORM },
        }),
      ),
    ],
    conformant: [200, 200, 200],
    faulted: [400, 200, 200],
  },
  {
    id: 'ho40-vault-row-decoded-into-shared-struct',
    probe: async (m) => {
      const { minimalVault, vault } = ids(m);
      const alone = await record(m, minimalVault);
      const full = await record(m, vault);
      const after = await record(m, minimalVault);
      return ['environment' in alone, full.environment, 'environment' in after, 'account_name' in after];
    },
    conformant: [false, 'production', false, false],
    faulted: [false, 'production', true, true],
  },
  {
    id: 'ho40-updated-at-omitted-when-equal-to-created',
    probe: async (m) => ['updated_at' in (await record(m, ids(m).vault)), 'updated_at' in (await record(m, ids(m).longVault))],
    conformant: [true, true],
    faulted: [false, true],
  },
  {
    id: 'ho40-unknown-stream-and-event-told-event',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [
        messageOf(await redeliverAnswer(m, token, unknownLike(stream), unknownLike(failedEvent))),
        messageOf(await redeliverAnswer(m, token, unknownLike(stream), failedEvent)),
        messageOf(await redeliverAnswer(m, token, stream, unknownLike(failedEvent))),
      ];
    },
    conformant: [STREAM_MISSING, STREAM_MISSING, EVENT_MISSING],
    faulted: [EVENT_MISSING, STREAM_MISSING, EVENT_MISSING],
  },
  {
    id: 'ho40-global-client-checked-before-expiry',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      const expired = { exp: nowSeconds(m) - 3600 };
      const expiredNonGlobal = await redeliverAnswer(m, await tokenOf(m, 'non-global', expired));
      const expiredGlobal = await redeliverAnswer(m, await tokenOf(m, 'global', expired));
      const nonGlobal = await redeliverAnswer(m, await tokenFor(m, 'non-global'));
      return [
        expiredNonGlobal.status,
        expiredGlobal.status,
        nonGlobal.status,
        messageOf(expiredNonGlobal) === messageOf(expiredGlobal),
        messageOf(expiredNonGlobal) === messageOf(nonGlobal),
      ];
    },
    conformant: [401, 401, 401, true, false],
    faulted: [401, 401, 401, false, true],
  },
  {
    id: 'ho40-429-reset-dropped-for-long-wait',
    options: () => ({ clock: new ManualClock(), rateLimit: { bucketSize: 2, refillPerSecond: 0.01 } }),
    probe: async (m) => {
      const token = await globalToken(m);
      const first = await read(m, token);
      await read(m, token);
      const longWait = await read(m, token);
      advance(m, 70_000);
      const shortWait = await read(m, token);
      return [RESET in first.headers, longWait.status, RESET in longWait.headers, shortWait.status, RESET in shortWait.headers];
    },
    conformant: [true, 429, true, 429, true],
    faulted: [true, 429, false, 429, true],
  },
  {
    id: 'ho40-custom-domain-ticket-rebuilt-by-edge-worker',
    probe: async (m) => {
      const custom = { 'tenant-custom-domain': PARTNER_DOMAIN };
      const onCustom = await createTicket(m, {}, undefined, custom);
      const plain = await createTicket(m, {});
      const refused = await createTicket(m, { ttl_sec: 'soon' }, undefined, custom);
      return [onCustom.status, LIMIT in onCustom.headers, plain.status, LIMIT in plain.headers, refused.status, LIMIT in refused.headers];
    },
    conformant: [201, true, 201, true, 400, true],
    faulted: [201, false, 201, true, 400, true],
  },
  {
    id: 'ho40-limit-from-key-policy-for-non-global',
    options: bucketOf(50),
    probe: async (m) => {
      const global = await globalToken(m);
      const nonGlobal = await tokenFor(m, 'non-global');
      const before = await read(m, global);
      const other = await read(m, nonGlobal);
      const after = await read(m, global);
      const anonymous = await call(m, 'GET', vaultPath(ids(m).vault));
      return [before.headers[LIMIT], other.status, other.headers[LIMIT], after.headers[LIMIT], anonymous.headers[LIMIT]];
    },
    conformant: ['50', 200, '50', '50', '50'],
    faulted: ['50', 200, '1000', '50', '50'],
  },
];

heldOutRoundTests({
  name: 'the fortieth held-out round',
  prefix: 'ho40-',
  faults: heldOutRound40Faults,
  least: { faults: 23, contract: 14 },
  probes,
  signingKey,
});
