// The twenty-first round of held-out faults (mock/faults/held-out/round-21/): kept apart from the
// gate's catalogue and from the first twenty rounds, each row naming a clause of the registry at
// its own level, and each fault shown to do what its bug line says: a probe sends the fault's near
// miss to a conformant mock and to a faulted one, and the two answers differ as the row says (and,
// where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { generateKeyPairSync } from 'node:crypto';
import { heldOutRound21Faults } from '../faults/held-out/round-21/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, jws, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client } from './support/http.ts';
import {
  ORGANIZATION,
  TINY_BUCKET,
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

const signingKey = probeKeyFile('held-out-faults-round-21');
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
/** Statuses and one header of `n` vault reads with one token and these headers. */
const burst = async (m: MockServer, n: number, headers: Record<string, string> = {}, name = 'x-ratelimit-remaining') => {
  const token = await globalToken(m);
  const answers = [];
  for (let i = 0; i < n; i++) {
    const answer = await call(m, 'GET', vaultPath(ids(m).vault), { token, headers });
    answers.push([answer.status, header(answer, name)]);
  }
  return answers;
};
/** A key pair the tenant never published. */
const strangerKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const grantForm = (m: MockServer, grantTypes: string[]): Array<[string, string]> => {
  const { client_id, client_secret } = client(m, 'global');
  return [
    ...grantTypes.map((grant): [string, string] => ['grant_type', grant]),
    ['client_id', client_id],
    ['client_secret', client_secret],
    ['audience', m.audience],
  ];
};

const probes: Probe[] = [
  {
    id: 'ho21-crit-extension-ignored',
    probe: async (m) => [
      await redeliverSigned(m, { crit: ['urn:example:trace'], 'urn:example:trace': 'abc' }),
      await redeliverSigned(m, { crit: ['urn:example:trace'] }),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho21-iss-lua-find-unanchored',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iss: `https://proxy.example/?from=${String(c.iss)}` })),
      await redeliverWith(m, (c) => ({ ...c, iss: 'https://proxy.example/' })),
    ],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho21-embedded-jwk-trusted',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const jwk = strangerKey.publicKey.export({ format: 'jwk' });
      return [
        await redeliver(m, jws({ alg: 'RS256', typ: 'JWT', kid: m.keys.kid, jwk }, claims, strangerKey.privateKey)),
        await redeliver(m, jws({ alg: 'RS256', typ: 'JWT', kid: m.keys.kid }, claims, strangerKey.privateKey)),
      ];
    },
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho21-nbf-null-decode-if-present',
    probe: async (m) => [await redeliverWith(m, (c) => ({ ...c, nbf: null })), await redeliverWith(m, (c) => ({ ...c, nbf: 'soon' }))],
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho21-ttl-sec-int32-wrapped',
    probe: async (m) => [
      await ticketStatus(m, { ttl_sec: 2 ** 32 + 3600 }),
      await ticketStatus(m, { ttl_sec: 2 ** 32 - 1 }),
      await ticketStatus(m, { ttl_sec: 3600 }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho21-token-lifetime-zero-proto-default',
    probe: async (m) => [await ticketStatus(m, lifetime(0)), await ticketStatus(m, lifetime(1)), await ticketStatus(m, lifetime(900))],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho21-enabled-clients-tuple-items',
    probe: async (m) => {
      const { client_id } = client(m, 'global');
      return [
        await ticketStatus(m, { enabled_clients: [client_id, 7] }),
        await ticketStatus(m, { enabled_clients: [7, client_id] }),
        await ticketStatus(m, { enabled_clients: [client_id] }),
      ];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho21-organization-id-unicode-alnum',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: [{ organization_id: `${ORGANIZATION.slice(0, -1)}é` }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: `${ORGANIZATION.slice(0, -1)}-` }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION }] }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho21-domain-verification-graphql-enum',
    probe: async (m) => [
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'OPTIONAL' } }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'MANDATORY' } }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'optional' } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho21-scope-perl-awk-split',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'read:event_streams\tupdate:event_deliveries')),
      await redeliver(m, await withScope(m, 'read:event_streams\tupdate:event_streams')),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho21-scope-graphql-enum-name',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'update_event_deliveries')),
      await redeliver(m, await withScope(m, 'update_event_streams')),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho21-ticket-scope-fnmatch',
    probe: async (m) => [await ticketWith(m, 'create:sso_*'), await ticketWith(m, 'read:sso_*')],
    conformant: [403, 403],
    faulted: [201, 403],
  },
  {
    id: 'ho21-vault-scope-format-chars-stripped',
    probe: async (m) => [
      await readVault(m, await withScope(m, '\u200Bread:flows_vault_connections')),
      await readVault(m, await withScope(m, '\u200Bread:flows_vault_connection')),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho21-vault-id-odata-key-syntax',
    probe: async (m) => {
      const { vault } = ids(m);
      return [await vaultAt(m, `('${vault}')`), await vaultAt(m, `('${unknownLike(vault)}')`), await vaultAt(m, vault)];
    },
    conformant: [400, 400, 200],
    faulted: [200, 404, 200],
  },
  {
    id: 'ho21-event-id-dollar-newline',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [await redeliverAt(m, stream, `${failedEvent}\nx`), await redeliverAt(m, stream, `${failedEvent}\n`)];
    },
    conformant: [400, 400],
    faulted: [400, 202],
  },
  {
    id: 'ho21-stream-id-nul-terminated',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [await redeliverAt(m, `${unknownLike(stream)}\0x`, failedEvent), await redeliverAt(m, `${stream}\0x`, failedEvent)];
    },
    conformant: [400, 400],
    faulted: [404, 202],
  },
  {
    id: 'ho21-profile-id-regex-lookup',
    probe: async (m) => {
      const profile = ids(m).profile;
      const at = (letter: string) => `${profile.slice(0, 6)}${letter}${profile.slice(7)}`;
      return [
        status(await createTicket(m, {}, undefined, {}, ticketPathOf(m, at('.')))),
        status(await createTicket(m, {}, undefined, {}, ticketPathOf(m, at(profile[6] === 'z' ? 'y' : 'z')))),
      ];
    },
    conformant: [400, 404],
    faulted: [201, 404],
  },
  {
    id: 'ho21-grant-type-last-duplicate-wins',
    probe: async (m) => [
      await formStatus(m, grantForm(m, ['password', 'client_credentials'])),
      await formStatus(m, grantForm(m, ['client_credentials', 'password'])),
      await formStatus(m, grantForm(m, ['client_credentials'])),
    ],
    conformant: [400, 400, 200],
    faulted: [200, 400, 200],
  },
  {
    id: 'ho21-audience-path-case-folded',
    probe: async (m) => [
      await tokenStatus(m, { audience: withPath(m.audience, (p) => p.toUpperCase()) }),
      await tokenStatus(m, { audience: withPath(m.audience, (p) => p.replace('v2', 'v3')) }),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho21-expires-in-int64-string',
    probe: async (m) => {
      const answer = await tokenAnswer(m, {});
      return [answer.status, fieldsOf(answer).expires_in];
    },
    conformant: [200, 86400],
    faulted: [200, '86400'],
  },
  {
    id: 'ho21-jwks-modulus-sign-byte',
    probe: async (m) => {
      const answer = await call(m, 'GET', '/.well-known/jwks.json');
      const [key] = fieldsOf(answer).keys as Array<{ n: string; e: string }>;
      const n = Buffer.from(key!.n, 'base64url');
      return [answer.status, n.length, n[0] === 0, key!.e];
    },
    conformant: [200, 256, false, 'AQAB'],
    faulted: [200, 257, true, 'AQAB'],
  },
  {
    id: 'ho21-token-error-odata-envelope',
    probe: async (m) => {
      const answer = await tokenAnswer(m, { client_secret: 'wrong-secret' });
      const error = fieldsOf(answer).error;
      return [answer.status, typeof error === 'string' ? error : (error as { code: string }).code, typeof error];
    },
    conformant: [401, 'invalid_client', 'string'],
    faulted: [401, 'invalid_client', 'object'],
  },
  {
    id: 'ho21-vault-created-at-swift-reference-date',
    probe: async (m) => {
      const fields = await record(m, ids(m).vault);
      return [typeof fields.created_at, typeof fields.updated_at];
    },
    conformant: ['string', 'string'],
    faulted: ['number', 'string'],
  },
  {
    id: 'ho21-vault-environment-erlang-charlist',
    probe: async (m) => {
      const fields = await record(m, ids(m).vault);
      return [Array.isArray(fields.environment), typeof fields.name];
    },
    conformant: [false, 'string'],
    faulted: [true, 'string'],
  },
  {
    id: 'ho21-ticket-graphql-data-envelope',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      return [answer.status, Object.keys(fieldsOf(answer))];
    },
    conformant: [201, ['ticket']],
    faulted: [201, ['data']],
  },
  {
    id: 'ho21-unknown-stream-default-fallback',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [await redeliverAt(m, unknownLike(stream), unknownLike(failedEvent)), await redeliverAt(m, unknownLike(stream), failedEvent)];
    },
    conformant: [404, 404],
    faulted: [404, 202],
  },
  {
    id: 'ho21-error-octet-stream',
    probe: async (m) => {
      const token = await globalToken(m);
      const ok = await read(m, token);
      const missing = await read(m, token, unknownLike(ids(m).vault));
      return [ok.status, header(ok, 'content-type')!.split(';')[0], missing.status, header(missing, 'content-type')!.split(';')[0]];
    },
    conformant: [200, 'application/json', 404, 'application/json'],
    faulted: [200, 'application/json', 404, 'application/octet-stream'],
  },
  {
    id: 'ho21-403-scope-redacted-by-logger',
    probe: async (m) => {
      const answer = await call(m, 'POST', redeliverPathOf(ids(m).stream, ids(m).failedEvent), {
        token: await withScope(m, 'read:event_streams'),
      });
      return [answer.status, messageOf(answer).includes('update:event_deliveries')];
    },
    conformant: [403, true],
    faulted: [403, false],
  },
  {
    id: 'ho21-idempotency-key-not-counted',
    options: TINY_BUCKET,
    probe: async (m) => {
      const keyed = [];
      for (let i = 0; i < 4; i++) keyed.push((await burst(m, 1, { 'idempotency-key': `key-${i}` }))[0]![0]);
      return keyed;
    },
    conformant: [200, 200, 429, 429],
    faulted: [200, 200, 200, 200],
  },
  {
    id: 'ho21-remaining-negative-on-429',
    options: TINY_BUCKET,
    probe: async (m) => burst(m, 4),
    conformant: [
      [200, '1'],
      [200, '0'],
      [429, '0'],
      [429, '0'],
    ],
    faulted: [
      [200, '1'],
      [200, '0'],
      [429, '-1'],
      [429, '-2'],
    ],
  },
  {
    id: 'ho21-reset-erlang-timestamp',
    probe: async (m) => {
      const reset = header(await read(m, await globalToken(m)), 'x-ratelimit-reset')!;
      return [/^\d+$/.test(reset), /^\{\d+,\d+,0\}$/.test(reset)];
    },
    conformant: [true, false],
    faulted: [false, true],
  },
  {
    id: 'ho21-limit-folded-by-cdn',
    options: TINY_BUCKET,
    probe: async (m) => [header(await read(m, await globalToken(m)), 'x-ratelimit-limit')],
    conformant: ['2'],
    faulted: ['2, 2'],
  },
];

heldOutRoundTests({
  name: 'the twenty-first held-out round',
  prefix: 'ho21-',
  faults: heldOutRound21Faults,
  least: { faults: 30, contract: 18 },
  probes,
  signingKey,
});
