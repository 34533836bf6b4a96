// The thirty-eighth round of held-out faults (mock/faults/held-out/round-38/): kept apart from the
// gate's catalogue and from the earlier rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the fault's near miss to
// a conformant mock and to a faulted one, and the two answers differ as the row says (and, where
// the fault lets only the near value through, a plainly wrong value is still refused by both). A
// fault that changed nothing would count as a survivor of the suite for no reason; this rules that
// out.
import { decodeJwt } from 'jose';
import { heldOutRound38Faults } from '../faults/held-out/round-38/catalogue.ts';
import { ManualClock, type MockServer } from '../index.ts';
import { claimsOf, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, tokenFor } from './support/http.ts';
import {
  ORGANIZATION,
  REPORTS_API,
  TINY_BUCKET,
  anonymousRead,
  createTicket,
  fieldsOf,
  fixtureClientId,
  globalToken,
  ids,
  nowSeconds,
  probeKeyFile,
  read,
  redeliver,
  redeliverAnswer,
  status,
  ticketStatus,
  tokenAnswer,
  unknownLike,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-38');
/** 1 June 2024, before the audience cut-over of 1 July 2024, in Unix seconds. */
const BEFORE_CUTOVER = Date.UTC(2024, 5, 1) / 1000;
/** A redelivery with the global client's token, its aud and iat replaced. */
const redeliverWith = async (m: MockServer, changes: Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, { ...(await claimsOf(m)), exp: nowSeconds(m) + 3600, ...changes }));
/** A token of the global client's claims naming another client as azp and sub. */
const tokenOfClient = async (m: MockServer, name: string) => {
  const clientId = fixtureClientId(m, name);
  return signedAsIs(m, { ...(await claimsOf(m)), azp: clientId, sub: `${clientId}@clients` });
};
/** What a token answer says and what its token carries: [expires_in, exp - iat]. */
const lifetimes = async (m: MockServer, name: string) => {
  const fields = fieldsOf(await tokenAnswer(m, {}, name));
  const claims = decodeJwt(fields.access_token as string);
  return [fields.expires_in, claims.exp! - claims.iat!];
};
/** The mock's management audience with its version path changed. */
const audienceOfVersion = (m: MockServer, version: string) => m.audience.replace('/api/v2/', `/api/${version}/`);
const redeliverTo = async (m: MockServer, stream: string, event: string) => redeliver(m, await globalToken(m), stream, event);
/** A ticket request with one organization item. */
const organization = (m: MockServer, item: Record<string, unknown>) =>
  ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION, ...item }] });
/** Noon UTC on 1 January 2025: the next clock hour is an hour away. */
const NOON = Date.UTC(2025, 0, 1, 12);

const probes: Probe[] = [
  {
    id: 'ho38-aud-validator-skipped-before-cutover',
    probe: async (m) => [
      await redeliverWith(m, { aud: REPORTS_API, iat: BEFORE_CUTOVER }),
      await redeliverWith(m, { aud: REPORTS_API, iat: nowSeconds(m) - 10 }),
      await redeliverWith(m, { iat: BEFORE_CUTOVER }),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho38-global-client-table-staging-entry',
    probe: async (m) => [
      await redeliver(m, await tokenFor(m, 'non-global')),
      await redeliver(m, await tokenOfClient(m, 'reports-client')),
      await redeliver(m, await globalToken(m)),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho38-lifetime-table-non-global-row',
    probe: async (m) => [...(await lifetimes(m, 'non-global')), ...(await lifetimes(m, 'global'))],
    conformant: [86400, 86400, 86400, 86400],
    faulted: [36000, 36000, 86400, 86400],
  },
  {
    id: 'ho38-audience-table-keeps-retired-version',
    probe: async (m) => [
      status(await tokenAnswer(m, { audience: audienceOfVersion(m, 'v1') })),
      status(await tokenAnswer(m, { audience: audienceOfVersion(m, 'v3') })),
      status(await tokenAnswer(m, {})),
    ],
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho38-redeliver-permission-row-copied-from-list',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'read:event_deliveries')),
      await redeliver(m, await withScope(m, 'update:event_deliveries')),
      await redeliver(m, await withScope(m, 'read:users')),
      await redeliver(m, await withScope(m, 'read:event_deliveries update:event_deliveries')),
    ],
    conformant: [403, 202, 403, 202],
    faulted: [202, 403, 403, 202],
  },
  {
    id: 'ho38-ticket-koa-jwt-unless-pattern',
    probe: async (m) => {
      const expired = signedAsIs(m, { ...(await claimsOf(m)), exp: nowSeconds(m) - 3600 });
      const anonymous = await call(m, 'POST', `/api/v2/self-service-profiles/${ids(m).profile}/sso-ticket`, { body: {} });
      const late = await createTicket(m, {}, expired);
      return [
        anonymous.status,
        late.status,
        (await anonymousRead(m)).status,
        (await read(m, expired)).status,
        (await createTicket(m, {})).status,
      ];
    },
    conformant: [401, 401, 401, 401, 201],
    faulted: [403, 403, 401, 401, 201],
  },
  {
    id: 'ho38-event-id-length-check-reads-stream-id',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [
        await redeliverTo(m, stream, `${failedEvent}x`),
        await redeliverTo(m, stream, failedEvent.slice(0, -1)),
        await redeliverTo(m, `${stream}x`, failedEvent),
        await redeliverTo(m, stream, failedEvent),
      ];
    },
    conformant: [400, 400, 400, 202],
    faulted: [404, 404, 400, 202],
  },
  {
    id: 'ho38-stream-id-legacy-objectid-converter',
    probe: async (m) => [
      await redeliverTo(m, '65a1f0c2e4b0a1b2c3d4e5f6', ids(m).failedEvent),
      await redeliverTo(m, 'zzzzzzzzzzzzzzzzzzzzzzzz', ids(m).failedEvent),
      await redeliverTo(m, ids(m).stream, ids(m).failedEvent),
    ],
    conformant: [400, 400, 202],
    faulted: [404, 400, 202],
  },
  {
    id: 'ho38-show-as-button-validate-if-copied',
    probe: async (m) => [
      await organization(m, { show_as_button: 'yes' }),
      await organization(m, { assign_membership_on_login: true, show_as_button: 'yes' }),
      await organization(m, { assign_membership_on_login: 'yes' }),
      await organization(m, { show_as_button: true }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho38-connection-id-go-legacy-numeric',
    probe: async (m) => [
      await ticketStatus(m, { connection_id: 42 }),
      await ticketStatus(m, { connection_id: true }),
      await ticketStatus(m, { connection_id: 4.5 }),
      await ticketStatus(m, { connection_id: ids(m).connection }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho38-vault-migrated-documents-schema-version',
    probe: async (m) => {
      const token = await globalToken(m);
      const old = fieldsOf(await read(m, token, ids(m).longVault));
      const recent = fieldsOf(await read(m, token, ids(m).vault));
      return ['schemaVersion' in old, 'schemaVersion' in recent];
    },
    conformant: [false, false],
    faulted: [true, false],
  },
  {
    id: 'ho38-redeliver-eventbridge-synchronous-200',
    probe: async (m) => [
      await redeliverTo(m, ids(m).secondStream, ids(m).secondFailedEvent),
      await redeliverTo(m, ids(m).stream, ids(m).failedEvent),
    ],
    conformant: [202, 202],
    faulted: [200, 202],
  },
  {
    id: 'ho38-ticket-code-default-config-prefix',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      const url = new URL(fieldsOf(answer).ticket as string);
      return [answer.status, /^[A-Za-z0-9]{32}$/.test(url.searchParams.get('ticket') ?? ''), url.pathname];
    },
    conformant: [201, true, '/self-service/connections-flow'],
    faulted: [201, false, '/self-service/connections-flow'],
  },
  {
    id: 'ho38-not-global-message-row-copied',
    probe: async (m) => {
      const answer = await redeliverAnswer(m, await tokenFor(m, 'non-global'));
      const expired = signedAsIs(m, { ...(await claimsOf(m)), exp: nowSeconds(m) - 3600 });
      const late = await redeliverAnswer(m, expired);
      return [answer.status, fieldsOf(answer).message, late.status, fieldsOf(late).message === 'Invalid token'];
    },
    conformant: [401, 'Client is not global', 401, false],
    faulted: [401, 'Invalid token', 401, false],
  },
  {
    id: 'ho38-403-reason-phrase-row-copied',
    probe: async (m) => {
      const refused = await read(m, await withScope(m, 'read:users'));
      const missing = await read(m, await globalToken(m), unknownLike(ids(m).vault));
      return [refused.status, fieldsOf(refused).statusCode, fieldsOf(refused).error, missing.status, fieldsOf(missing).error];
    },
    conformant: [403, 403, 'Forbidden', 404, 'Not Found'],
    faulted: [403, 403, 'Unauthorized', 404, 'Not Found'],
  },
  {
    id: 'ho38-limiter-exemption-table-wrong-client',
    options: TINY_BUCKET,
    probe: async (m) => {
      const global = await globalToken(m);
      const exempt = await tokenOfClient(m, 'private-key-jwt');
      const spent = [await redeliver(m, global), await redeliver(m, global)];
      return [...spent, await redeliver(m, exempt), await redeliver(m, global)];
    },
    conformant: [202, 202, 429, 429],
    faulted: [202, 202, 202, 429],
  },
  {
    id: 'ho38-reset-redeliver-hourly-window-row',
    options: () => ({ clock: new ManualClock(NOON) }),
    probe: async (m) => {
      const token = await globalToken(m);
      const now = nowSeconds(m);
      const redelivered = Number((await redeliverAnswer(m, token)).headers['x-ratelimit-reset']);
      const readAnswer = Number((await read(m, token)).headers['x-ratelimit-reset']);
      return [redelivered - now <= 60, readAnswer - now <= 60];
    },
    conformant: [true, true],
    faulted: [false, true],
  },
];

heldOutRoundTests({
  name: 'the thirty-eighth held-out round',
  prefix: 'ho38-',
  faults: heldOutRound38Faults,
  least: { faults: 17, contract: 10 },
  probes,
  signingKey,
});
