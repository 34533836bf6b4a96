// The eighteenth round of held-out faults (mock/faults/held-out/round-18/): kept apart from the
// gate's catalogue and from the first seventeen rounds, each row naming a clause of the registry at
// its own level, and each fault shown to do what its bug line says: a probe sends the fault's near
// miss to a conformant mock and to a faulted one, and the two answers differ as the row says (and,
// where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { cards } from '../../specs/cards/index.ts';
import { heldOutRound18Faults } from '../faults/held-out/round-18/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client } from './support/http.ts';
import {
  FORM,
  PARTNER_DOMAIN,
  TINY_BUCKET,
  anonymousRead,
  createTicket,
  domainOf,
  fieldsOf,
  globalToken,
  ids,
  nowSeconds,
  probeKeyFile,
  read,
  record,
  redeliver,
  status,
  ticketHost,
  ticketOn,
  ticketStatus,
  ticketText,
  tokenAnswer,
  tokenStatus,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-18');
const REDELIVER_SCOPE = cards.redeliver.scope.value;
const header = (answer: { headers: Record<string, string> }, name: string) => answer.headers[name];
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>, now: number) => Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) }, nowSeconds(m))));
const burst = async (m: MockServer, n: number) => {
  const token = await globalToken(m);
  const answers = [];
  for (let i = 0; i < n; i++) answers.push(await call(m, 'GET', vaultPath(ids(m).vault), { token }));
  return answers;
};
const redeliverPathOf = (stream: string, event: string) => `/api/v2/event-streams/${stream}/redeliver/${event}`;
const redeliverAt = async (m: MockServer, stream: string, event: string) =>
  status(await call(m, 'POST', redeliverPathOf(stream, event), { token: await globalToken(m) }));
const metadataOf = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, `value${i}`]));
const displayNamed = async (m: MockServer, display_name: string) =>
  status(await createTicket(m, { connection_config: { name: 'held-out-display', display_name } }));
const formOf = (m: MockServer, pairs: Array<[string, string]>) => {
  const { client_id, client_secret } = client(m, 'global');
  const form = new URLSearchParams([...pairs, ['client_id', client_id], ['client_secret', client_secret], ['audience', m.audience]]);
  return form.toString();
};
const formStatus = async (m: MockServer, text: string) =>
  status(await call(m, 'POST', '/oauth/token', { body: text, headers: { 'content-type': FORM } }));

const probes: Probe[] = [
  {
    id: 'ho18-nbf-compared-in-milliseconds',
    probe: async (m) => [
      await redeliverWith(m, (c, now) => ({ ...c, nbf: now + 3600 })),
      await redeliverWith(m, (c, now) => ({ ...c, iat: now + 3600 })),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho18-exp-leeway-five-minutes',
    probe: async (m) => [
      await redeliverWith(m, (c, now) => ({ ...c, iat: now - 3600, exp: now - 120 })),
      await redeliverWith(m, (c, now) => ({ ...c, iat: now - 3600, exp: now - 600 })),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho18-aud-trailing-slash-ignored',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, aud: String(c.aud).replace(/\/$/, '') })),
      await redeliverWith(m, (c) => ({ ...c, aud: String(c.aud).replace(/v2\/$/, 'v3/') })),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho18-iat-unchecked-when-nbf-present',
    probe: async (m) => [
      await redeliverWith(m, (c, now) => ({ ...c, nbf: now - 60, iat: now + 3600 })),
      await redeliverWith(m, (c, now) => ({ ...c, iat: now + 3600 })),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho18-nbf-null-as-absent',
    probe: async (m) => [await redeliverWith(m, (c) => ({ ...c, nbf: null })), await redeliverWith(m, (c) => ({ ...c, nbf: 'soon' }))],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho18-ttl-sec-int32-wrapped',
    probe: async (m) => [await ticketStatus(m, { ttl_sec: 2 ** 32 + 3600 }), await ticketStatus(m, { ttl_sec: 432001 })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho18-ttl-sec-maximum-exclusive',
    probe: async (m) => [await ticketStatus(m, { ttl_sec: 432000 }), await ticketStatus(m, { ttl_sec: 431999 })],
    conformant: [201, 201],
    faulted: [400, 201],
  },
  {
    id: 'ho18-enabled-clients-flattened',
    probe: async (m) => {
      const id = client(m, 'global').client_id;
      return [await ticketStatus(m, { enabled_clients: [[id]] }), await ticketStatus(m, { enabled_clients: [[[id]]] })];
    },
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho18-ttl-sec-exponent-refused',
    probe: async (m) => [
      await ticketText(m, '{"ttl_sec":3.6e3}'),
      await ticketText(m, '{"ttl_sec":3600.0}'),
      await ticketText(m, '{"ttl_sec":3600}'),
      await ticketText(m, '{"ttl_sec":3600.5}'),
    ],
    conformant: [201, 201, 201, 400],
    faulted: [400, 400, 201, 400],
  },
  {
    id: 'ho18-ttl-sec-negative-zero-refused',
    probe: async (m) => [
      await ticketText(m, '{"ttl_sec":-0}'),
      await ticketText(m, '{"ttl_sec":0}'),
      await ticketText(m, '{"ttl_sec":-1}'),
    ],
    conformant: [201, 201, 400],
    faulted: [400, 201, 400],
  },
  {
    id: 'ho18-metadata-eleventh-key-uncounted',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: { name: 'held-out-eleven', metadata: metadataOf(11) } }),
      await ticketStatus(m, { connection_config: { name: 'held-out-twelve', metadata: metadataOf(12) } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho18-scope-invisible-characters-stripped',
    probe: async (m) => [
      await redeliver(m, await withScope(m, REDELIVER_SCOPE.replace('_', '_\u200b'))),
      await redeliver(m, await withScope(m, 'update:event_\u200bstreams')),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho18-ticket-body-decoded-latin1',
    probe: async (m) => [await displayNamed(m, '\u00e9'.repeat(100)), await displayNamed(m, 'e'.repeat(100))],
    conformant: [201, 201],
    faulted: [400, 201],
  },
  {
    id: 'ho18-custom-domain-256-accepted',
    probe: async (m) => [await ticketOn(m, domainOf(256)), await ticketOn(m, domainOf(257))],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho18-audience-case-folded',
    probe: async (m) => [
      await tokenStatus(m, { audience: m.audience.toUpperCase() }),
      await tokenStatus(m, { audience: m.audience.replace(/v2\/$/, 'v3/') }),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho18-audience-fragment-dropped',
    probe: async (m) => [
      await tokenStatus(m, { audience: `${m.audience}#reports` }),
      await tokenStatus(m, { audience: `${m.audience}reports` }),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho18-client-id-cut-at-nul',
    probe: async (m) => [
      await tokenStatus(m, { client_id: `${client(m, 'global').client_id}\u0000x` }),
      await tokenStatus(m, { client_id: `${client(m, 'global').client_id}x` }),
    ],
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho18-repeated-parameter-last-wins',
    probe: async (m) => [
      await formStatus(
        m,
        formOf(m, [
          ['grant_type', 'password'],
          ['grant_type', 'client_credentials'],
        ]),
      ),
      await formStatus(
        m,
        formOf(m, [
          ['grant_type', 'client_credentials'],
          ['grant_type', 'password'],
        ]),
      ),
    ],
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho18-token-type-lower-case',
    probe: async (m) => fieldsOf(await tokenAnswer(m, {})).token_type,
    conformant: 'Bearer',
    faulted: 'bearer',
  },
  {
    id: 'ho18-expires-in-from-clock-fraction',
    probe: async (m) => Number.isInteger(fieldsOf(await tokenAnswer(m, {})).expires_in),
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho18-vault-unset-optionals-null',
    probe: async (m) => {
      const minimal = await record(m, ids(m).minimalVault);
      return ['environment' in minimal ? minimal.environment : 'absent', typeof (await record(m)).environment];
    },
    conformant: ['absent', 'string'],
    faulted: [null, 'string'],
  },
  {
    id: 'ho18-vault-dates-as-epoch-millis',
    probe: async (m) => {
      const fields = await record(m);
      return [typeof fields.created_at, typeof fields.updated_at];
    },
    conformant: ['string', 'string'],
    faulted: ['number', 'number'],
  },
  {
    id: 'ho18-vault-type-discriminator',
    probe: async (m) => '@type' in (await record(m)),
    conformant: false,
    faulted: true,
  },
  {
    id: 'ho18-ticket-custom-host-root-dot',
    probe: async (m) => [await ticketHost(m, { 'tenant-custom-domain': PARTNER_DOMAIN }), (await ticketHost(m, {})).endsWith('.')],
    conformant: [PARTNER_DOMAIN, false],
    faulted: [`${PARTNER_DOMAIN}.`, false],
  },
  {
    id: 'ho18-redelivery-lock-per-tenant',
    probe: async (m) => [
      await redeliverAt(m, ids(m).stream, ids(m).failedEvent),
      await redeliverAt(m, ids(m).otherStream, ids(m).otherFailedEvent),
      await redeliverAt(m, ids(m).stream, ids(m).failedEvent),
    ],
    conformant: [202, 202, 202],
    faulted: [202, 409, 202],
  },
  {
    id: 'ho18-redelivered-event-dropped',
    probe: async (m) => [
      await redeliverAt(m, ids(m).stream, ids(m).failedEvent),
      await redeliverAt(m, ids(m).stream, ids(m).failedEvent),
      await redeliverAt(m, ids(m).otherStream, ids(m).otherFailedEvent),
    ],
    conformant: [202, 202, 202],
    faulted: [202, 404, 202],
  },
  {
    id: 'ho18-405-as-text-plain',
    probe: async (m) => {
      const answer = await call(m, 'DELETE', vaultPath(ids(m).vault), { token: await globalToken(m) });
      return [answer.status, String(header(answer, 'content-type')).split(';')[0]];
    },
    conformant: [405, 'application/json'],
    faulted: [405, 'text/plain'],
  },
  {
    id: 'ho18-fallback-404-status-code-text',
    probe: async (m) => {
      const unrouted = await call(m, 'GET', '/api/v2/no-such-resource', { token: await globalToken(m) });
      const vault = await read(m, await globalToken(m), `${ids(m).vault.slice(0, -1)}w`);
      return [unrouted.status, typeof fieldsOf(unrouted).statusCode, vault.status, typeof fieldsOf(vault).statusCode];
    },
    conformant: [404, 'number', 404, 'number'],
    faulted: [404, 'string', 404, 'number'],
  },
  {
    id: 'ho18-429-without-reset',
    options: TINY_BUCKET,
    probe: async (m) => (await burst(m, 3)).map((a) => [a.status, header(a, 'x-ratelimit-reset') !== undefined]),
    conformant: [
      [200, true],
      [200, true],
      [429, true],
    ],
    faulted: [
      [200, true],
      [200, true],
      [429, false],
    ],
  },
  {
    id: 'ho18-bucket-refilled-by-token-issue',
    options: TINY_BUCKET,
    probe: async (m) => {
      const first = (await burst(m, 2)).map((a) => a.status);
      const again = await read(m, await globalToken(m));
      return [...first, again.status];
    },
    conformant: [200, 200, 429],
    faulted: [200, 200, 200],
  },
  {
    id: 'ho18-remaining-minus-one-on-429',
    options: TINY_BUCKET,
    probe: async (m) => (await burst(m, 3)).map((a) => header(a, 'x-ratelimit-remaining')),
    conformant: ['1', '0', '0'],
    faulted: ['1', '0', '-1'],
  },
  {
    id: 'ho18-401-without-reset',
    probe: async (m) => {
      const anonymous = await anonymousRead(m);
      const admitted = await read(m, await globalToken(m));
      return [
        anonymous.status,
        header(anonymous, 'x-ratelimit-reset') !== undefined,
        admitted.status,
        header(admitted, 'x-ratelimit-reset') !== undefined,
      ];
    },
    conformant: [401, true, 200, true],
    faulted: [401, false, 200, true],
  },
];

heldOutRoundTests({
  name: 'the eighteenth held-out round',
  prefix: 'ho18-',
  faults: heldOutRound18Faults,
  least: { faults: 30, contract: 15 },
  probes,
  signingKey,
});
