// The thirty-sixth round of held-out faults (mock/faults/held-out/round-36/): kept apart from the
// gate's catalogue and from the earlier rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the fault's near miss to
// a conformant mock and to a faulted one, and the two answers differ as the row says (and, where
// the fault lets only the near value through, a plainly wrong value is still refused by both). A
// fault that changed nothing would count as a survivor of the suite for no reason; this rules that
// out.
import { cards } from '../../specs/cards/index.ts';
import { heldOutRound36Faults } from '../faults/held-out/round-36/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs, withTamperedSignature, withUnknownKid } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, tokenRequest } from './support/http.ts';
import {
  TINY_BUCKET,
  bucketOf,
  fieldsOf,
  formToken,
  globalToken,
  ids,
  probeKeyFile,
  read,
  readVault,
  record,
  redeliver,
  redeliverPath,
  redeliverWithScope,
  status,
  ticketStatus,
  ticketText,
  tokenAnswer,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-36');
const VAULT_SCOPE = cards.vault.scope.value;
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>) => Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) })));
/** A form token request of the global client without grant_type, with these fields besides. */
const formWithout = (m: MockServer, extra: Record<string, string>) =>
  formToken(m, new URLSearchParams({ ...tokenRequest(m, 'global', { grant_type: undefined }), ...extra }).toString());

const probes: Probe[] = [
  {
    id: 'ho36-iss-pyjwt-in-substring',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iss: String(c.iss).replace(/^https?:\/\//, '') })),
      await redeliverWith(m, (c) => ({ ...c, iss: `${String(c.iss)}x/` })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho36-signature-erlang-jose-verdict-unmatched',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await redeliver(m, withTamperedSignature(token)), await redeliver(m, await withUnknownKid(token)), await redeliver(m, token)];
    },
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho36-ttl-sec-flask-json-nan',
    probe: async (m) => [
      await ticketText(m, '{"ttl_sec": NaN}'),
      await ticketText(m, '{"ttl_sec": Infinity}'),
      await ticketText(m, '{"ttl_sec": 0}'),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho36-ticket-rails-require-wrapped-params',
    probe: async (m) => [await ticketStatus(m, {}), await ticketStatus(m, { ttl_sec: 0 }), await ticketStatus(m, { extra: 1 })],
    conformant: [201, 201, 400],
    faulted: [400, 201, 400],
  },
  {
    id: 'ho36-provisioning-config-serde-flatten-unknown',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'], extra: 1 } }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'none', extra: 1 } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'] } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho36-provisioning-scopes-strum-case-insensitive',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: ['GET:Users'] } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['fetch:users'] } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'] } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho36-passport-token-can-star',
    probe: async (m) => [
      await redeliverWithScope(m, '*'),
      await redeliverWithScope(m, 'update:*'),
      await readVault(m, await withScope(m, '*')),
    ],
    conformant: [403, 403, 403],
    faulted: [202, 403, 200],
  },
  {
    id: 'ho36-vault-dot-read-write-scope',
    probe: async (m) => [
      await readVault(m, await withScope(m, 'read')),
      await readVault(m, await withScope(m, 'write')),
      await readVault(m, await withScope(m, VAULT_SCOPE)),
    ],
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho36-stream-id-fastapi-max-length-only',
    probe: async (m) => {
      const token = await globalToken(m);
      const stream = ids(m).stream;
      return [await redeliver(m, token, stream.slice(0, 25)), await redeliver(m, token, `${stream}z`), await redeliver(m, token, stream)];
    },
    conformant: [400, 400, 202],
    faulted: [404, 400, 202],
  },
  {
    id: 'ho36-vault-id-drf-lookup-regex-dot',
    probe: async (m) => {
      const token = await globalToken(m);
      const dotted = await read(m, token, 'ac_abc.def');
      return [dotted.status, fieldsOf(dotted).errorCode ?? null, status(await read(m, token, 'ac_abc!def')), status(await read(m, token))];
    },
    conformant: [400, 'invalid_uri', 400, 200],
    faulted: [404, null, 400, 200],
  },
  {
    id: 'ho36-grant-type-php-dot-underscore',
    probe: async (m) => [
      status(await formWithout(m, { 'grant.type': 'client_credentials' })),
      status(await formWithout(m, { 'grant-type': 'client_credentials' })),
      status(await formWithout(m, { grant_type: 'client_credentials' })),
    ],
    conformant: [400, 400, 200],
    faulted: [200, 400, 200],
  },
  {
    id: 'ho36-token-answer-go-oauth2-token-struct',
    probe: async (m) => {
      const answer = await tokenAnswer(m, {});
      return [answer.status, Object.keys(fieldsOf(answer)).sort()];
    },
    conformant: [200, ['access_token', 'expires_in', 'scope', 'token_type']],
    faulted: [200, ['access_token', 'expiry', 'token_type']],
  },
  {
    id: 'ho36-environment-go-sql-nullstring',
    probe: async (m) => [typeof (await record(m)).environment, 'environment' in (await record(m, ids(m).minimalVault))],
    conformant: ['string', false],
    faulted: ['object', true],
  },
  {
    id: 'ho36-redeliver-go-superfluous-writeheader',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await redeliver(m, token), await redeliver(m, token, ids(m).stream, ids(m).deliveredEvent)];
    },
    conformant: [202, 409],
    faulted: [200, 409],
  },
  {
    id: 'ho36-ticket-code-python-bytes-fstring',
    probe: async (m) => {
      const answer = await call(m, 'POST', `/api/v2/self-service-profiles/${ids(m).profile}/sso-ticket`, {
        token: await globalToken(m),
        body: {},
      });
      const ticket = fieldsOf(answer).ticket as string;
      return [answer.status, /[?&]ticket=[A-Za-z0-9]{32}$/.test(ticket), /[?&]ticket=b'[A-Z2-7]{32}'$/.test(ticket)];
    },
    conformant: [201, true, false],
    faulted: [201, false, true],
  },
  {
    id: 'ho36-timestamps-ecto-utc-datetime-seconds',
    probe: async (m) => {
      const fields = await record(m);
      const millis = (value: unknown) => typeof value === 'string' && /\.\d{3}Z$/.test(value);
      return [millis(fields.created_at), millis(fields.updated_at), millis(fields.refreshed_at)];
    },
    conformant: [true, true, true],
    faulted: [false, false, true],
  },
  {
    id: 'ho36-method-gin-no-method-as-no-route',
    probe: async (m) => {
      const token = await globalToken(m);
      const wrongMethod = await call(m, 'GET', redeliverPath(ids(m).stream, ids(m).failedEvent), { token });
      const unknown = await call(m, 'GET', '/api/v2/no-such-route', { token });
      return [wrongMethod.status, 'allow' in wrongMethod.headers, unknown.status];
    },
    conformant: [405, true, 404],
    faulted: [404, false, 404],
  },
  {
    id: 'ho36-409-rails-uniqueness-case-insensitive',
    probe: async (m) => {
      const taken = ids(m).takenName;
      return [
        await ticketStatus(m, { connection_config: { name: taken.toUpperCase() } }),
        await ticketStatus(m, { connection_config: { name: taken } }),
        await ticketStatus(m, { connection_config: { name: 'brand-new-connection' } }),
      ];
    },
    conformant: [201, 409, 201],
    faulted: [409, 409, 201],
  },
  {
    id: 'ho36-error-drf-default-code',
    probe: async (m) => {
      const token = await globalToken(m);
      const unknown = await call(m, 'GET', vaultPath(`${ids(m).vault.slice(0, -1)}${ids(m).vault.endsWith('w') ? 'x' : 'w'}`), { token });
      const forbidden = await call(m, 'GET', vaultPath(ids(m).vault), { token: await withScope(m, 'read:users') });
      return [unknown.status, fieldsOf(unknown).errorCode ?? null, forbidden.status, fieldsOf(forbidden).errorCode];
    },
    conformant: [404, null, 403, 'insufficient_scope'],
    faulted: [404, 'not_found', 403, 'insufficient_scope'],
  },
  {
    id: 'ho36-429-django-ratelimit-permission-denied',
    options: bucketOf(1),
    probe: async (m) => {
      const token = await globalToken(m);
      return [await redeliver(m, token), await redeliver(m, token)];
    },
    conformant: [202, 429],
    faulted: [202, 403],
  },
  {
    id: 'ho36-remaining-phoenix-hammer-count',
    options: bucketOf(5),
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [await read(m, token), await read(m, token), await read(m, token)];
      return answers.map((a) => a.headers['x-ratelimit-remaining']);
    },
    conformant: ['4', '3', '2'],
    faulted: ['1', '2', '3'],
  },
  {
    id: 'ho36-reset-laravel-throttle-only-on-429',
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
      [200, true, false],
      [200, true, false],
      [429, true, true],
    ],
  },
];

heldOutRoundTests({
  name: 'the thirty-sixth held-out round',
  prefix: 'ho36-',
  faults: heldOutRound36Faults,
  least: { faults: 22, contract: 10 },
  probes,
  signingKey,
});
