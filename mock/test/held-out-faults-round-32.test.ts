// The thirty-second round of held-out faults (mock/faults/held-out/round-32/): kept apart from the
// gate's catalogue and from the first thirty-one rounds, each row naming a clause of the registry
// at its own level, and each fault shown to do what its bug line says: a probe sends the fault's
// near miss to a conformant mock and to a faulted one, and the two answers differ as the row says
// (and, where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { decodeJwt } from 'jose';
import { cards } from '../../specs/cards/index.ts';
import { heldOutRound32Faults } from '../faults/held-out/round-32/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client } from './support/http.ts';
import {
  CLOCKED_BUCKET,
  ORGANIZATION,
  TINY_BUCKET,
  createTicket,
  fieldsOf,
  globalToken,
  ids,
  nowSeconds,
  probeKeyFile,
  read,
  readAs,
  record,
  redeliver,
  redeliverAnswer,
  status,
  ticketStatus,
  tokenAnswer,
  vaultPath,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-32');
const REDELIVER_SCOPE = cards.redeliver.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>) => Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) })));
const withScopeClaim = async (m: MockServer, scope: string) => signedAsIs(m, { ...(await claimsOf(m)), scope });
const organization = (member: Record<string, unknown>) => ({ enabled_organizations: [{ organization_id: ORGANIZATION, ...member }] });
const ticketCode = (answer: Awaited<ReturnType<typeof createTicket>>) =>
  new URL(fieldsOf(answer).ticket as string).searchParams.get('ticket') ?? '';

const probes: Probe[] = [
  {
    id: 'ho32-aud-plsql-empty-string-null',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, aud: '' })),
      await redeliverWith(m, (c) => ({ ...c, aud: 'https://other.example/api/v2/' })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho32-bearer-classic-asp-mid-no-space',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readAs(m, `Bearer${token}`), await readAs(m, `Bearerx${token}`), await readAs(m, `Bearer ${token}`)];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho32-iat-dataweave-millis-heuristic',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iat: nowSeconds(m) * 1000 })),
      await redeliverWith(m, (c) => ({ ...c, iat: nowSeconds(m) + 3600 })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho32-sub-abap-char40-truncated',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, sub: `${String(c.azp)}@clients-x` })),
      await redeliverWith(m, (c) => ({ ...c, sub: `${String(c.azp)}@client` })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho32-show-as-button-abap-bool-x',
    probe: async (m) => [
      await ticketStatus(m, organization({ show_as_button: 'X' })),
      await ticketStatus(m, organization({ show_as_button: 'Y' })),
      await ticketStatus(m, organization({ show_as_button: true })),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho32-ticket-cap-odata-annotation-ignored',
    probe: async (m) => [
      await ticketStatus(m, { '@odata.type': '#acme.TicketRequest' }),
      await ticketStatus(m, { enabled_features: { '@odata.type': '#acme.Features', sso: true } }),
      await ticketStatus(m, { odata_type: '#acme.TicketRequest' }),
      await ticketStatus(m, {}),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho32-connection-id-ords-empty-null',
    probe: async (m) => [
      await ticketStatus(m, { connection_id: '' }),
      await ticketStatus(m, { connection_id: 'con_' }),
      await ticketStatus(m, {}),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho32-redeliver-apic-security-requirements-or',
    probe: async (m) => [
      await redeliver(m, await withScopeClaim(m, 'read:event_streams')),
      await redeliver(m, await withScopeClaim(m, 'read:users')),
      await redeliver(m, await withScopeClaim(m, REDELIVER_SCOPE)),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho32-ticket-scope-xsuaa-local-suffix',
    probe: async (m) => [
      status(await createTicket(m, {}, await withScopeClaim(m, `ticketing!t42.${TICKET_SCOPE}`))),
      status(await createTicket(m, {}, await withScopeClaim(m, `ticketing!t42.${TICKET_SCOPE.slice(0, -1)}`))),
      status(await createTicket(m, {}, await withScopeClaim(m, TICKET_SCOPE))),
    ],
    conformant: [403, 403, 201],
    faulted: [201, 403, 201],
  },
  {
    id: 'ho32-vault-datapower-validate-before-aaa',
    probe: async (m) => {
      const { vault } = ids(m);
      const malformed = `${vault.slice(0, -1)}0`;
      return [
        status(await call(m, 'GET', vaultPath(malformed))),
        status(await call(m, 'GET', vaultPath(vault))),
        status(await read(m, await globalToken(m), malformed)),
      ];
    },
    conformant: [401, 401, 400],
    faulted: [400, 401, 400],
  },
  {
    id: 'ho32-event-id-dotnet-uri-trailing-dot',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [
        await redeliver(m, token, stream, `${failedEvent}.`),
        await redeliver(m, token, stream, `${failedEvent}.x`),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: [400, 400, 202],
    faulted: [202, 400, 202],
  },
  {
    id: 'ho32-event-id-coldfusion-eq-prefix',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      const upper = await redeliverAnswer(m, token, stream, `EVT_${failedEvent.slice(4)}`);
      return [
        upper.status,
        fieldsOf(upper).errorCode,
        await redeliver(m, token, stream, `EVX_${failedEvent.slice(4)}`),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: [400, 'invalid_uri', 400, 202],
    faulted: [404, undefined, 400, 202],
  },
  {
    id: 'ho32-secret-abap-char-trailing-blanks',
    probe: async (m) => {
      const secret = client(m, 'global').client_secret;
      return [
        status(await tokenAnswer(m, { client_secret: `${secret}  ` })),
        status(await tokenAnswer(m, { client_secret: `${secret}x` })),
        status(await tokenAnswer(m, {})),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho32-token-answer-coldfusion-uppercase-keys',
    probe: async (m) => {
      const fields = fieldsOf(await tokenAnswer(m, {}));
      return [typeof fields.access_token, typeof fields.ACCESS_TOKEN, fields.expires_in ?? fields.EXPIRES_IN];
    },
    conformant: ['string', 'undefined', 86400],
    faulted: ['undefined', 'string', 86400],
  },
  {
    id: 'ho32-token-exp-oracle-sysdate-local',
    probe: async (m) => {
      const answer = await tokenAnswer(m, {});
      const claims = decodeJwt(fieldsOf(answer).access_token as string);
      return [claims.exp! - claims.iat!, fieldsOf(answer).expires_in];
    },
    conformant: [86400, 86400],
    faulted: [90000, 86400],
  },
  {
    id: 'ho32-updated-at-abap-timestampl',
    probe: async (m) => {
      const fields = await record(m);
      return [typeof fields.updated_at, Math.floor(Number(fields.updated_at)), fields.created_at];
    },
    conformant: ['string', Number.NaN, '2024-09-12T12:52:16.553Z'],
    faulted: ['number', 20240912125216, '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho32-ready-delphi-booltostr',
    probe: async (m) => [(await record(m)).ready, (await record(m, ids(m).notReadyVault)).ready],
    conformant: [true, false],
    faulted: ['-1', '0'],
  },
  {
    id: 'ho32-environment-openedge-initial-empty',
    probe: async (m) => {
      const minimal = await record(m, ids(m).minimalVault);
      return [minimal.environment, minimal.account_name, (await record(m)).environment];
    },
    conformant: [undefined, undefined, 'production'],
    faulted: ['', '', 'production'],
  },
  {
    id: 'ho32-vault-id-cap-cuid-key',
    probe: async (m) => {
      const fields = await record(m);
      return [fields.id, fields.ID, fields.name];
    },
    conformant: ['ac_NbWaizZTo4vfWnCwDq76Vj', undefined, 'Team notifications'],
    faulted: [undefined, 'ac_NbWaizZTo4vfWnCwDq76Vj', 'Team notifications'],
  },
  {
    id: 'ho32-ticket-code-delphi-guid-braces',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      const code = ticketCode(answer);
      return [
        answer.status,
        /^[A-Za-z0-9]{32}$/.test(code),
        /^\{[0-9A-F-]{36}\}$/.test(code),
        new URL(fieldsOf(answer).ticket as string).pathname,
      ];
    },
    conformant: [201, true, false, '/self-service/connections-flow'],
    faulted: [201, false, true, '/self-service/connections-flow'],
  },
  {
    id: 'ho32-redeliver-tibco-ems-fire-and-forget',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent, deliveredEvent } = ids(m);
      const unknownEvent = `${failedEvent.slice(0, -1)}${failedEvent.endsWith('w') ? 'x' : 'w'}`;
      const unknownStream = `${stream.slice(0, -1)}${stream.endsWith('w') ? 'x' : 'w'}`;
      return [
        await redeliver(m, token, stream, unknownEvent),
        await redeliver(m, token, stream, deliveredEvent),
        await redeliver(m, token, unknownStream, failedEvent),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: [404, 409, 404, 202],
    faulted: [202, 202, 404, 202],
  },
  {
    id: 'ho32-ratelimit-apic-named-values',
    options: TINY_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [await read(m, token), await read(m, token), await read(m, token)];
      return [answers.map(status), answers[2]!.headers['x-ratelimit-limit'], answers[0]!.headers['x-ratelimit-remaining']];
    },
    conformant: [[200, 200, 429], '2', '1'],
    faulted: [[200, 200, 429], 'name=rate-limit,2;', 'name=rate-limit,1;'],
  },
  {
    id: 'ho32-reset-mulesoft-millis-left',
    options: CLOCKED_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const answer = await read(m, token);
      const reset = Number(answer.headers['x-ratelimit-reset']);
      return [answer.status, answer.headers['x-ratelimit-remaining'], reset >= nowSeconds(m)];
    },
    conformant: [200, '1', true],
    faulted: [200, '1', false],
  },
];

heldOutRoundTests({
  name: 'the thirty-second held-out round',
  prefix: 'ho32-',
  faults: heldOutRound32Faults,
  least: { faults: 23, contract: 11 },
  probes,
  signingKey,
});
