// The thirty-seventh round of held-out faults (mock/faults/held-out/round-37/): kept apart from the
// gate's catalogue and from the earlier rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the fault's near miss to
// a conformant mock and to a faulted one, and the two answers differ as the row says (and, where
// the fault lets only the near value through, a plainly wrong value is still refused by both). A
// fault that changed nothing would count as a survivor of the suite for no reason; this rules that
// out.
import { decodeJwt } from 'jose';
import { cards } from '../../specs/cards/index.ts';
import { heldOutRound37Faults } from '../faults/held-out/round-37/catalogue.ts';
import { ManualClock, type MockServer } from '../index.ts';
import { claimsOf, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call } from './support/http.ts';
import {
  CLOCKED_BUCKET,
  MANUAL_CLOCK,
  advance,
  bucketOf,
  createTicket,
  domainOf,
  fieldsOf,
  globalToken,
  ids,
  nowSeconds,
  probeKeyFile,
  read,
  redeliver,
  redeliverPath,
  status,
  ticketOn,
  ticketStatus,
  tokenAnswer,
  unknownLike,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-37');
const VAULT_SCOPE = cards.vault.scope.value;
/** A redelivery with the global client's token whose exp is `seconds` from the mock's now. */
const redeliverExpiring = async (m: MockServer, seconds: number) =>
  redeliver(m, signedAsIs(m, { ...(await claimsOf(m)), exp: nowSeconds(m) + seconds }));
/** The day before Europe/Berlin moves its clocks forward (30 March 2025), at noon UTC. */
const BEFORE_SPRING_CHANGE = Date.UTC(2025, 2, 29, 12);
/** What a token answer says and what its token carries: [expires_in, exp - iat]. */
const lifetimes = async (m: MockServer) => {
  const fields = fieldsOf(await tokenAnswer(m, {}));
  const claims = decodeJwt(fields.access_token as string);
  return [fields.expires_in, claims.exp! - claims.iat!];
};

const probes: Probe[] = [
  {
    id: 'ho37-exp-protobuf-float32',
    options: MANUAL_CLOCK,
    probe: async (m) => [await redeliverExpiring(m, -60), await redeliverExpiring(m, -200), await redeliverExpiring(m, 3600)],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho37-ttl-sec-kotlin-duration-of-millis',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 432001 }),
      await ticketStatus(m, { ttl_sec: 432001000 }),
      await ticketStatus(m, { ttl_sec: -1 }),
      await ticketStatus(m, { ttl_sec: 432000 }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho37-custom-domain-rust-length-as-u8',
    probe: async (m) => {
      const long = domainOf(259);
      const answer = await createTicket(m, {}, undefined, { 'tenant-custom-domain': long });
      const host = answer.status === 201 ? new URL(fieldsOf(answer).ticket as string).host : null;
      return [answer.status, host === long, await ticketOn(m, domainOf(256)), await ticketOn(m, domainOf(255))];
    },
    conformant: [400, false, 400, 201],
    faulted: [201, true, 400, 201],
  },
  {
    id: 'ho37-connection-name-regex-iu-case-folding',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: { name: '\u017fso-connection' } }),
      await ticketStatus(m, { connection_config: { name: 'my-\u212aey' } }),
      await ticketStatus(m, { connection_config: { name: '\u00df-connection' } }),
      await ticketStatus(m, { connection_config: { name: 'sso-connection' } }),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho37-vault-head-spring-get-matcher',
    probe: async (m) => {
      const lacking = await withScope(m, 'read:users');
      const head = await call(m, 'HEAD', vaultPath(ids(m).vault), { token: lacking });
      const get = await call(m, 'GET', vaultPath(ids(m).vault), { token: lacking });
      const allowed = await call(m, 'HEAD', vaultPath(ids(m).vault), { token: await withScope(m, VAULT_SCOPE) });
      return [head.status, get.status, allowed.status];
    },
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho37-audience-tenant-default-audience',
    probe: async (m) => [
      status(await tokenAnswer(m, { audience: undefined })),
      status(await tokenAnswer(m, { audience: 'https://reports-api.example.com/' })),
      status(await tokenAnswer(m, {})),
    ],
    conformant: [400, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho37-token-lifetime-moment-local-day',
    options: () => ({ clock: new ManualClock(BEFORE_SPRING_CHANGE) }),
    probe: async (m) => {
      const springDay = await lifetimes(m);
      advance(m, 3 * 86_400_000);
      return [...springDay, ...(await lifetimes(m))];
    },
    conformant: [86400, 86400, 86400, 86400],
    faulted: [82800, 82800, 86400, 86400],
  },
  {
    id: 'ho37-ticket-go-url-struct',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      const ticket = fieldsOf(answer).ticket;
      return [
        answer.status,
        typeof ticket,
        typeof ticket === 'object' && ticket !== null ? Object.keys(ticket).includes('RawQuery') : false,
      ];
    },
    conformant: [201, 'string', false],
    faulted: [201, 'object', true],
  },
  {
    id: 'ho37-method-python-http-server-501',
    probe: async (m) => {
      const token = await globalToken(m);
      const path = redeliverPath(ids(m).stream, ids(m).failedEvent);
      const put = await call(m, 'PUT', path, { token });
      const get = await call(m, 'GET', path, { token });
      return [put.status, 'allow' in put.headers, get.status, await redeliver(m, token)];
    },
    conformant: [405, true, 405, 202],
    faulted: [501, false, 405, 202],
  },
  {
    id: 'ho37-error-go-http-error-text-plain',
    probe: async (m) => {
      const token = await globalToken(m);
      const missing = await read(m, token, unknownLike(ids(m).vault));
      const found = await read(m, token);
      return [missing.status, missing.headers['content-type'], fieldsOf(missing).statusCode, found.status, found.headers['content-type']];
    },
    conformant: [404, 'application/json; charset=utf-8', 404, 200, 'application/json; charset=utf-8'],
    faulted: [404, 'text/plain; charset=utf-8', 404, 200, 'application/json; charset=utf-8'],
  },
  {
    id: 'ho37-refill-elapsed-microseconds-as-ms',
    options: CLOCKED_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const spent = [await redeliver(m, token), await redeliver(m, token), await redeliver(m, token)];
      advance(m, 10);
      return [...spent, await redeliver(m, token)];
    },
    conformant: [202, 202, 429, 429],
    faulted: [202, 202, 429, 202],
  },
  {
    id: 'ho37-reset-dotnet-datetime-ticks',
    options: bucketOf(5),
    probe: async (m) => {
      const reset = Number((await read(m, await globalToken(m))).headers['x-ratelimit-reset']);
      const now = Math.floor(Date.now() / 1000);
      return [reset >= now && reset <= now + 3600, reset > 60_000_000_000];
    },
    conformant: [true, false],
    faulted: [false, true],
  },
];

heldOutRoundTests({
  name: 'the thirty-seventh held-out round',
  prefix: 'ho37-',
  faults: heldOutRound37Faults,
  least: { faults: 12, contract: 6 },
  probes,
  signingKey,
});
