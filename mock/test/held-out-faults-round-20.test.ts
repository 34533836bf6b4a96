// The twentieth round of held-out faults (mock/faults/held-out/round-20/): kept apart from the
// gate's catalogue and from the first nineteen rounds, each row naming a clause of the registry at
// its own level, and each fault shown to do what its bug line says: a probe sends the fault's near
// miss to a conformant mock and to a faulted one, and the two answers differ as the row says (and,
// where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { heldOutRound20Faults } from '../faults/held-out/round-20/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client } from './support/http.ts';
import {
  CLOCKED_BUCKET,
  ORGANIZATION,
  TINY_BUCKET,
  advance,
  createTicket,
  fieldsOf,
  formToken,
  globalToken,
  ids,
  messageOf,
  nowSeconds,
  probeKeyFile,
  read,
  readVault,
  record,
  redeliver,
  status,
  ticketPathOf,
  ticketStatus,
  tokenAnswer,
  tokenStatus,
  unknownLike,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-20');
const header = (answer: { headers: Record<string, string> }, name: string) => answer.headers[name];
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>, now: number) => Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) }, nowSeconds(m))));
const redeliverSigned = async (m: MockServer, headerMembers: Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, await claimsOf(m), headerMembers));
const redeliverPathOf = (stream: string, event: string) =>
  `/api/v2/event-streams/${encodeURIComponent(stream)}/redeliver/${encodeURIComponent(event)}`;
const redeliverAt = async (m: MockServer, stream: string, event: string) =>
  status(await call(m, 'POST', redeliverPathOf(stream, event), { token: await globalToken(m) }));
const vaultAt = async (m: MockServer, id: string) => status(await read(m, await globalToken(m), encodeURIComponent(id)));
const ticketWith = async (m: MockServer, scope: string) => status(await createTicket(m, {}, await withScope(m, scope)));
const withPath = (url: string, edit: (path: string) => string) => {
  const parsed = /^(https?:\/\/[^/]+)(\/.*)$/.exec(url)!;
  return `${parsed[1]}${edit(parsed[2]!)}`;
};
const formStatus = async (m: MockServer, fields: Array<[string, string]>) => {
  const form = new URLSearchParams();
  for (const [name, value] of fields) form.append(name, value);
  return status(await formToken(m, form.toString()));
};
const lifetime = (token_lifetime: unknown) => ({ provisioning_config: { scopes: ['get:users'], token_lifetime } });
/** Java's String.hashCode. */
const javaHash = (text: string) => {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
};
const ALPHABET = /^[1-9A-HJ-NP-Za-km-z]$/;
/** Another well-formed id of the same String.hashCode: two neighbouring characters moved by +1 and -31. */
const hashTwin = (id: string) => {
  for (let i = 4; i < id.length - 1; i++) {
    const a = String.fromCharCode(id.charCodeAt(i) + 1);
    const b = String.fromCharCode(id.charCodeAt(i + 1) - 31);
    if (ALPHABET.test(a) && ALPHABET.test(b)) {
      const twin = `${id.slice(0, i)}${a}${b}${id.slice(i + 2)}`;
      if (javaHash(twin) === javaHash(id)) return twin;
    }
  }
  throw new Error(`no hash twin of ${id}`);
};
/** Statuses of `n` vault reads with one token. */
const burst = async (m: MockServer, n: number, token: string) => {
  const answers = [];
  for (let i = 0; i < n; i++) answers.push((await call(m, 'GET', vaultPath(ids(m).vault), { token })).status);
  return answers;
};

const probes: Probe[] = [
  {
    id: 'ho20-alg-header-trimmed',
    probe: async (m) => [await redeliverSigned(m, { alg: 'RS256 ' }), await redeliverSigned(m, { alg: 'RS 256' })],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho20-iss-char-padded',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iss: `${String(c.iss)}   ` })),
      await redeliverWith(m, (c) => ({ ...c, iss: `${String(c.iss)}x` })),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho20-kid-single-element-array',
    probe: async (m) => [await redeliverSigned(m, { kid: [m.keys.kid] }), await redeliverSigned(m, { kid: [m.keys.kid, 'other'] })],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho20-exp-iso-date-string',
    probe: async (m) => [
      await redeliverWith(m, (c, now) => ({ ...c, exp: new Date((now + 3600) * 1000).toISOString() })),
      await redeliverWith(m, (c) => ({ ...c, exp: 'in an hour' })),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho20-enabled-clients-number-coerced',
    probe: async (m) => [
      await ticketStatus(m, { enabled_clients: [12345] }),
      await ticketStatus(m, { enabled_clients: [{}] }),
      await ticketStatus(m, { enabled_clients: ['12345'] }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho20-enabled-organizations-keyed-map',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: { [ORGANIZATION]: { assign_membership_on_login: true } } }),
      await ticketStatus(m, { enabled_organizations: { [ORGANIZATION]: true } }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION, assign_membership_on_login: true }] }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho20-domain-verification-rails-false-values',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { domain_verification: 'off' } }),
      await ticketStatus(m, { enabled_features: { domain_verification: 'on' } }),
      await ticketStatus(m, { enabled_features: { domain_verification: false } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho20-provisioning-scopes-set-object',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: { 'get:users': true } } }),
      await ticketStatus(m, { provisioning_config: { scopes: { 'get:users': 'yes' } } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'] } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho20-token-lifetime-half-even',
    probe: async (m) => [
      await ticketStatus(m, lifetime(899.5)),
      await ticketStatus(m, lifetime(898.5)),
      await ticketStatus(m, lifetime(900)),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho20-connection-config-string-creator',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: 'held-out-idp' }),
      await ticketStatus(m, { connection_config: 42 }),
      await ticketStatus(m, { connection_config: { name: 'held-out-idp-2' } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho20-ttl-sec-clamped-to-maximum',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 432_001 }),
      await ticketStatus(m, { ttl_sec: -1 }),
      await ticketStatus(m, { ttl_sec: 432_000 }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho20-scope-accents-folded',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'update:event_délivéries')),
      await redeliver(m, await withScope(m, 'update:event_dlivries')),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho20-scope-postgres-array-literal',
    probe: async (m) => [
      await redeliver(m, await withScope(m, '{update:event_deliveries}')),
      await redeliver(m, await withScope(m, '{update:event_streams}')),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho20-ticket-scope-resource-qualified',
    probe: async (m) => [
      await ticketWith(m, `${m.audience}create:sso_access_tickets`),
      await ticketWith(m, 'https://other.example/create:sso_access_tickets'),
    ],
    conformant: [403, 403],
    faulted: [201, 403],
  },
  {
    id: 'ho20-vault-scope-spring-authority',
    probe: async (m) => [
      await readVault(m, await withScope(m, 'SCOPE_read:flows_vault_connections')),
      await readVault(m, await withScope(m, 'ROLE_read:flows_vault_connections')),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho20-vault-id-truncated-to-column',
    probe: async (m) => {
      const { longVault } = ids(m);
      return [await vaultAt(m, `${longVault}x`), await vaultAt(m, `${unknownLike(longVault)}x`), await vaultAt(m, longVault)];
    },
    conformant: [400, 400, 200],
    faulted: [200, 404, 200],
  },
  {
    id: 'ho20-event-id-format-suffix',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [await redeliverAt(m, stream, `${failedEvent}.json`), await redeliverAt(m, stream, `${failedEvent}.xml`)];
    },
    conformant: [400, 400],
    faulted: [202, 400],
  },
  {
    id: 'ho20-stream-id-nfkc-normalised',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const fullwidth = (letter: string) => String.fromCharCode(letter.charCodeAt(0) - 0x21 + 0xff01);
      const at = 4;
      return [
        await redeliverAt(m, stream, failedEvent),
        await redeliverAt(m, `${stream.slice(0, at)}${fullwidth(stream[at]!)}${stream.slice(at + 1)}`, failedEvent),
        await redeliverAt(m, `${stream.slice(0, at)}${fullwidth(stream[at] === 'W' ? 'X' : 'W')}${stream.slice(at + 1)}`, failedEvent),
      ];
    },
    conformant: [202, 400, 400],
    faulted: [202, 202, 404],
  },
  {
    id: 'ho20-event-found-by-hash-code',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [await redeliverAt(m, stream, hashTwin(failedEvent)), await redeliverAt(m, stream, unknownLike(failedEvent))];
    },
    conformant: [404, 404],
    faulted: [202, 404],
  },
  {
    id: 'ho20-profile-id-confusables-skeleton',
    probe: async (m) => {
      const profile = ids(m).profile;
      const at = (letter: string) => `${letter}${profile.slice(1)}`;
      return [
        status(await createTicket(m, {}, undefined, {}, ticketPathOf(m, at('ѕ')))),
        status(await createTicket(m, {}, undefined, {}, ticketPathOf(m, at('z')))),
      ];
    },
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho20-client-id-qs-brackets',
    probe: async (m) => {
      const { client_id, client_secret } = client(m, 'global');
      const rest: Array<[string, string]> = [
        ['grant_type', 'client_credentials'],
        ['client_secret', client_secret],
        ['audience', m.audience],
      ];
      return [
        await formStatus(m, [['client_id[]', client_id], ...rest]),
        await formStatus(m, [['client_id[]', client_id], ['client_id[]', 'other'], ...rest]),
        await formStatus(m, [['client_id', client_id], ...rest]),
      ];
    },
    conformant: [400, 400, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho20-secret-nfkc-compared',
    probe: async (m) => {
      const { client_secret } = client(m, 'global');
      const at = [...client_secret].findIndex((c) => /[A-Za-z]/.test(c));
      const letter = client_secret[at]!;
      const fullwidth = String.fromCharCode(letter.charCodeAt(0) - 0x21 + 0xff01);
      const other = letter === 'Q' ? 'R' : 'Q';
      return [
        await tokenStatus(m, { client_secret: `${client_secret.slice(0, at)}${fullwidth}${client_secret.slice(at + 1)}` }),
        await tokenStatus(m, { client_secret: `${client_secret.slice(0, at)}${other}${client_secret.slice(at + 1)}` }),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho20-audience-dot-segments-removed',
    probe: async (m) => [
      await tokenStatus(m, { audience: withPath(m.audience, (p) => `${p}./`) }),
      await tokenStatus(m, { audience: withPath(m.audience, (p) => `${p}../`) }),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho20-token-error-phoenix-envelope',
    probe: async (m) => {
      const answer = await tokenAnswer(m, { client_secret: 'wrong-secret' });
      return [answer.status, fieldsOf(answer).error, fieldsOf(answer).errors];
    },
    conformant: [401, 'invalid_client', undefined],
    faulted: [401, undefined, { detail: 'Unauthorized' }],
  },
  {
    id: 'ho20-expires-in-iso-duration',
    probe: async (m) => {
      const answer = await tokenAnswer(m, {});
      return [answer.status, fieldsOf(answer).expires_in];
    },
    conformant: [200, 86400],
    faulted: [200, 'PT24H'],
  },
  {
    id: 'ho20-vault-ready-omitempty',
    probe: async (m) => {
      const ready = await record(m, ids(m).vault);
      const notReady = await record(m, ids(m).notReadyVault);
      return [ready.ready, 'ready' in notReady, notReady.ready];
    },
    conformant: [true, true, false],
    faulted: [true, false, undefined],
  },
  {
    id: 'ho20-vault-app-id-ordinal',
    probe: async (m) => [(await record(m, ids(m).vault)).app_id, (await record(m, ids(m).longVault)).app_id],
    conformant: ['SLACK', 'STRIPE_CONNECTED_ACCOUNT_WITH_A_VERY_LONG_PROVIDER_NAME'],
    faulted: [2, 'STRIPE_CONNECTED_ACCOUNT_WITH_A_VERY_LONG_PROVIDER_NAME'],
  },
  {
    id: 'ho20-ticket-members-pascal-case',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      return [answer.status, Object.keys(fieldsOf(answer))];
    },
    conformant: [201, ['ticket']],
    faulted: [201, ['Ticket']],
  },
  {
    id: 'ho20-state-compared-by-enum-order',
    probe: async (m) => {
      const { stream, pendingEvent, deliveredEvent } = ids(m);
      return [await redeliverAt(m, stream, pendingEvent), await redeliverAt(m, stream, deliveredEvent)];
    },
    conformant: [409, 409],
    faulted: [202, 409],
  },
  {
    id: 'ho20-error-status-code-snake-case',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m), unknownLike(ids(m).vault));
      return [answer.status, fieldsOf(answer).statusCode, fieldsOf(answer).status_code];
    },
    conformant: [404, 404, undefined],
    faulted: [404, undefined, 404],
  },
  {
    id: 'ho20-stream-404-ecto-message',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const answer = await call(m, 'POST', redeliverPathOf(unknownLike(stream), failedEvent), { token: await globalToken(m) });
      return [answer.status, messageOf(answer)];
    },
    conformant: [404, 'The requested stream does not exist.'],
    faulted: [404, 'expected at least one result but got none in query'],
  },
  {
    id: 'ho20-fixed-window-counter',
    options: CLOCKED_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const windowMs = 2000;
      advance(m, windowMs - (m.clock.now() % windowMs) - 100);
      const before = await burst(m, 2, token);
      advance(m, 100);
      return [...before, ...(await burst(m, 2, token))];
    },
    conformant: [200, 200, 429, 429],
    faulted: [200, 200, 200, 200],
  },
  {
    id: 'ho20-same-millisecond-collapsed',
    options: CLOCKED_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      return burst(m, 4, token);
    },
    conformant: [200, 200, 429, 429],
    faulted: [200, 200, 200, 200],
  },
  {
    id: 'ho20-limit-quota-policy-syntax',
    options: TINY_BUCKET,
    probe: async (m) => [header(await read(m, await globalToken(m)), 'x-ratelimit-limit')],
    conformant: ['2'],
    faulted: ['2;w=2000'],
  },
  {
    id: 'ho20-headers-underscored-on-success',
    probe: async (m) => {
      const token = await globalToken(m);
      const ok = await read(m, token);
      const missing = await read(m, token, unknownLike(ids(m).vault));
      return [
        ok.status,
        header(ok, 'x-ratelimit-limit') !== undefined,
        header(ok, 'x_ratelimit_limit') !== undefined,
        missing.status,
        header(missing, 'x-ratelimit-limit') !== undefined,
      ];
    },
    conformant: [200, true, false, 404, true],
    faulted: [200, false, true, 404, true],
  },
];

heldOutRoundTests({
  name: 'the twentieth held-out round',
  prefix: 'ho20-',
  faults: heldOutRound20Faults,
  least: { faults: 30, contract: 18 },
  probes,
  signingKey,
});
