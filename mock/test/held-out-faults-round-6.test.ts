// The sixth round of held-out faults (mock/faults/held-out/round-6/): kept apart from the gate's
// catalogue and from the first five rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the fault's near miss to
// a conformant mock and to a faulted one, and the two answers differ as the row says (and, where
// the fault lets only the near value through, a plainly wrong value is still refused by both). A
// fault that changed nothing would count as a survivor of the suite for no reason; this rules that
// out.
import { type JWTPayload } from 'jose';
import { heldOutRound6Faults } from '../faults/held-out/round-6/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, jwsOfText, signedAsIs as signed, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor } from './support/http.ts';
import {
  createTicket,
  DOMAIN_SUFFIX,
  fieldsOf,
  fixtureClientId,
  formToken,
  globalToken,
  ids,
  messageOf,
  nowSeconds,
  probeKeyFile,
  redeliverWithScope,
  read,
  readAs,
  readVault,
  redeliver,
  redeliverPath,
  status,
  ticketOn,
  ticketStatus,
  TINY_BUCKET,
  tokenAnswer,
  unknownLike,
  vaultPath,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-6');

/** A token of these claims whose signature begins with a zero byte (found by varying a jti). */
function withLeadingZeroSignature(mock: MockServer, claims: JWTPayload): [string, string, Buffer] {
  for (let i = 0; ; i += 1) {
    const [header, payload, signature] = signed(mock, { ...claims, jti: `probe-${i}` }).split('.') as [string, string, string];
    const bytes = Buffer.from(signature, 'base64url');
    if (bytes[0] === 0) return [header, payload, bytes];
  }
}

/** A host name of exactly `length` characters: `prefix`, then letters, then .example. */
const domainOf = (length: number, prefix = '') => `${prefix}${'a'.repeat(length - prefix.length - DOMAIN_SUFFIX.length)}${DOMAIN_SUFFIX}`;

const probes: Probe[] = [
  // Token verification
  {
    id: 'ho6-alg-taken-from-jwk',
    probe: async (m) => {
      const claims = JSON.stringify(await claimsOf(m));
      return [
        await readVault(m, jwsOfText({ typ: 'JWT', kid: m.keys.kid }, claims, m.keys.privateKey)),
        await readVault(m, jwsOfText({ alg: 'none', typ: 'JWT', kid: m.keys.kid }, claims, m.keys.privateKey)),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho6-audience-list-flattened',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signed(m, { ...claims, aud: [[claims.aud as string]] })),
        await readVault(m, signed(m, { ...claims, aud: [['https://other.example.com/api/v2/']] })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho6-expiry-from-iat-and-lifetime',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const now = nowSeconds(m);
      return [
        await readVault(m, signed(m, { ...claims, iat: now - 700, exp: now - 600 })),
        await readVault(m, signed(m, { ...claims, iat: now - 2 * 86_400, exp: now - 600 })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho6-issuer-path-normalised',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signed(m, { ...claims, iss: `${claims.iss!}./` })),
        await readVault(m, signed(m, { ...claims, iss: 'https://other.example.com/' })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho6-credential-percent-decoded',
    probe: async (m) => {
      const token = await globalToken(m);
      const dotsEncoded = (t: string) => `Bearer ${t.replace(/\./g, '%2E')}`;
      return [await readAs(m, dotsEncoded(token)), await readAs(m, dotsEncoded(withTamperedSignature(token)))];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho6-signature-left-padded',
    probe: async (m) => {
      const [header, payload, signature] = withLeadingZeroSignature(m, await claimsOf(m));
      return [
        await readVault(m, `${header}.${payload}.${signature.subarray(1).toString('base64url')}`),
        await readVault(m, `${header}.${payload}.${signature.subarray(0, -1).toString('base64url')}`),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  // Authorization
  {
    id: 'ho6-scope-tokens-split-on-colon',
    probe: async (m) => [
      await redeliverWithScope(m, 'read:event_deliveries update:event_streams'),
      await redeliverWithScope(m, 'read:event_deliveries'),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho6-scope-split-on-plus',
    probe: async (m) => [
      await redeliverWithScope(m, 'read:event_streams+update:event_deliveries'),
      await redeliverWithScope(m, 'read:event_streams+read:event_deliveries'),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho6-first-scope-missed-by-indexof',
    probe: async (m) => [
      await redeliver(m, await tokenFor(m, 'global', 'update:event_deliveries')),
      await redeliverWithScope(m, 'read:event_streams update:event_deliveries'),
    ],
    conformant: [202, 202],
    faulted: [403, 202],
  },
  {
    id: 'ho6-actor-claim-taken-for-caller',
    probe: async (m) => {
      const claims = await claimsOf(m, 'non-global');
      const actor = (name: string) => ({ sub: `${fixtureClientId(m, name)}@clients` });
      return [
        await redeliver(m, signed(m, { ...claims, act: actor('global') })),
        await redeliver(m, signed(m, { ...claims, act: actor('non-global') })),
      ];
    },
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho6-ticket-write-actions-grouped',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        status(await createTicket(m, {}, signed(m, { ...claims, scope: 'delete:sso_access_tickets' }))),
        status(await createTicket(m, {}, signed(m, { ...claims, scope: 'read:flows_vault_connections' }))),
      ];
    },
    conformant: [403, 403],
    faulted: [201, 403],
  },
  // Requests
  {
    id: 'ho6-custom-domain-measured-without-www',
    probe: async (m) => [await ticketOn(m, domainOf(256, 'www.')), await ticketOn(m, domainOf(256))],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho6-custom-domain-labels-held-to-63',
    probe: async (m) => [
      await ticketOn(m, domainOf(100)),
      await ticketOn(m, `${'b'.repeat(50)}.${domainOf(49)}`),
      await ticketOn(m, domainOf(256)),
    ],
    conformant: [201, 201, 400],
    faulted: [400, 201, 400],
  },
  {
    id: 'ho6-stream-id-read-by-unanchored-pattern',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [await redeliver(m, token, `${stream}x`, failedEvent), await redeliver(m, token, stream.slice(0, -1), failedEvent)];
    },
    conformant: [400, 400],
    faulted: [202, 400],
  },
  {
    id: 'ho6-vault-id-cut-at-encoded-hash',
    probe: async (m) => {
      const token = await globalToken(m);
      const { longestVault } = ids(m);
      return [await readVault(m, token, `${longestVault}%23x`), await readVault(m, token, `${longestVault}x`)];
    },
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho6-vault-id-from-query',
    probe: async (m) => {
      const token = await globalToken(m);
      const tooLong = `ac_${'a'.repeat(28)}`;
      return [
        status(await call(m, 'GET', `${vaultPath(tooLong)}?id=${ids(m).vault}`, { token })),
        status(await call(m, 'GET', vaultPath(tooLong), { token })),
      ];
    },
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho6-base-path-version-compared-as-number',
    probe: async (m) => {
      const token = await globalToken(m);
      const path = (version: string) => `/api/v${version}/flows/vault/connections/${ids(m).vault}`;
      return [
        status(await call(m, 'GET', path('2.0'), { token })),
        status(await call(m, 'GET', path('02'), { token })),
        status(await call(m, 'GET', path('3'), { token })),
      ];
    },
    conformant: [404, 404, 404],
    faulted: [200, 200, 404],
  },
  // Token endpoint
  {
    id: 'ho6-token-relative-audience-resolved',
    probe: async (m) => [status(await tokenAnswer(m, { audience: '/api/v2/' })), status(await tokenAnswer(m, { audience: '/api/v3/' }))],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho6-token-resource-read-as-audience',
    probe: async (m) => [
      status(await tokenAnswer(m, { audience: undefined, resource: m.audience })),
      status(await tokenAnswer(m, { audience: undefined })),
    ],
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho6-token-audience-judged-before-secret',
    probe: async (m) => [
      status(await tokenAnswer(m, { client_secret: 'not-the-secret', audience: 'https://nowhere.example.com/' })),
      status(await tokenAnswer(m, { client_secret: 'not-the-secret' })),
    ],
    conformant: [401, 401],
    faulted: [403, 401],
  },
  {
    id: 'ho6-token-form-split-on-semicolons',
    probe: async (m) => {
      const { client_id, client_secret } = client(m, 'global');
      const form = (secret: string) =>
        `grant_type=client_credentials&client_id=${client_id}&client_secret=${secret}&audience=${encodeURIComponent(m.audience)}`;
      return [status(await formToken(m, form(`${client_secret};x`))), status(await formToken(m, form(`${client_secret}x`)))];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho6-token-grant-switch-falls-through',
    probe: async (m) => [
      status(await tokenAnswer(m, { grant_type: 'password' })),
      status(await tokenAnswer(m, { grant_type: 'authorization_code' })),
    ],
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho6-token-ungranted-scopes-dropped',
    probe: async (m) => [
      status(await tokenAnswer(m, { scope: 'read:flows_vault_connections delete:users' })),
      status(await tokenAnswer(m, { scope: 'delete:users' })),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho6-token-basic-password-from-body',
    probe: async (m) => {
      const { client_id, client_secret } = client(m, 'global');
      const basic = (secret: string) => `Basic ${Buffer.from(`${client_id}:${secret}`).toString('base64')}`;
      const form = `grant_type=client_credentials&client_secret=${client_secret}&audience=${encodeURIComponent(m.audience)}`;
      return [
        status(await formToken(m, form, { authorization: basic('') })),
        status(await formToken(m, form, { authorization: basic(client_secret) })),
      ];
    },
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho6-token-expires-in-as-expiry-time',
    probe: async (m) => fieldsOf(await tokenAnswer(m, {})).expires_in === 86_400,
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho6-jwks-exported-from-private-key',
    probe: async (m) => {
      const { keys } = fieldsOf(await call(m, 'GET', '/.well-known/jwks.json')) as { keys: Array<Record<string, unknown>> };
      return keys.map((key) => ['d', 'p', 'q'].some((name) => name in key));
    },
    conformant: [false],
    faulted: [true],
  },
  // Ticket body
  {
    id: 'ho6-ttl-sec-maximum-across-dst',
    probe: async (m) => [await ticketStatus(m, { ttl_sec: 432_001 }), await ticketStatus(m, { ttl_sec: 435_601 })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho6-organization-discovery-left-untyped',
    probe: async (m) => [await ticketStatus(m, { use_for_organization_discovery: 'yes' }), await ticketStatus(m, { ttl_sec: 'x' })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho6-errors-below-first-level-filtered',
    probe: async (m) => [await ticketStatus(m, { enabled_features: { sso: 'yes' } }), await ticketStatus(m, { enabled_features: 'yes' })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho6-token-lifetime-read-with-number',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { token_lifetime: '1200' } }),
      await ticketStatus(m, { provisioning_config: { token_lifetime: 'soon' } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho6-feature-flags-checked-by-leaf-name',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { domain_verification: 'optional' } }),
      await ticketStatus(m, { enabled_features: { domain_verification: true } }),
      await ticketStatus(m, { enabled_features: { sso: 'yes' } }),
    ],
    conformant: [400, 201, 400],
    faulted: [201, 400, 400],
  },
  {
    id: 'ho6-null-aliases-config-passes-typeof',
    probe: async (m) => [await ticketStatus(m, { domain_aliases_config: null }), await ticketStatus(m, { domain_aliases_config: 'none' })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho6-provisioning-scopes-pattern-ungrouped',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: ['get:roles'] } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['read:users'] } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho6-domain-verification-defaulted',
    probe: async (m) => [
      await ticketStatus(m, { domain_aliases_config: {} }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'sometimes' } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho6-empty-provisioning-scopes-pass-every',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: [] } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['read:users'] } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho6-organizations-without-id-dropped',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: [{ show_as_button: true }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: 5 }] }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  // Success answers
  {
    id: 'ho6-vault-updated-at-through-locale',
    probe: async (m) => {
      const record = fieldsOf(await read(m, await globalToken(m)));
      return [record.updated_at, record.created_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['2024-09-12 12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho6-vault-record-serialised-twice',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m));
      return [answer.status, typeof answer.json];
    },
    conformant: [200, 'object'],
    faulted: [200, 'string'],
  },
  {
    id: 'ho6-vault-account-name-cut-to-column',
    probe: async (m) => {
      const token = await globalToken(m);
      const lengthOf = async (id: string) => (fieldsOf(await read(m, token, id)).account_name as string).length;
      return [await lengthOf(ids(m).longestVault), await lengthOf(ids(m).vault)];
    },
    conformant: [150, 14],
    faulted: [128, 14],
  },
  {
    id: 'ho6-vault-leap-day-rolled-over',
    probe: async (m) => {
      const token = await globalToken(m);
      const leap = fieldsOf(await read(m, token, ids(m).longestVault));
      return [leap.updated_at, leap.created_at, fieldsOf(await read(m, token)).refreshed_at];
    },
    conformant: ['2024-02-29T00:00:00.000Z', '2023-01-31T23:59:59.999Z', '2024-10-01T08:30:00.000Z'],
    faulted: ['2024-03-01T00:00:00.000Z', '2023-01-31T23:59:59.999Z', '2024-10-01T08:30:00.000Z'],
  },
  {
    id: 'ho6-vault-fingerprint-as-base64',
    probe: async (m) => /^[0-9a-f]{32}$/.test(fieldsOf(await read(m, await globalToken(m))).fingerprint as string),
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho6-ticket-code-base64url',
    probe: async (m) => {
      const token = await globalToken(m);
      const codes: string[] = [];
      for (let i = 0; i < 20; i += 1) {
        const ticket = fieldsOf(await createTicket(m, {}, token)).ticket as string;
        codes.push(new URL(ticket).searchParams.get('ticket')!);
      }
      return [codes.some((code) => /[-_]/.test(code)), codes.every((code) => code.length === 32)];
    },
    conformant: [false, true],
    faulted: [true, true],
  },
  {
    id: 'ho6-ticket-answered-200',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      return [answer.status, typeof fieldsOf(answer).ticket];
    },
    conformant: [201, 'string'],
    faulted: [200, 'string'],
  },
  {
    id: 'ho6-redeliver-202-empty-list',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const answer = await call(m, 'POST', redeliverPath(stream, failedEvent), { token: await globalToken(m) });
      return [answer.status, answer.json];
    },
    conformant: [202, {}],
    faulted: [202, []],
  },
  // State and errors
  {
    id: 'ho6-unknown-event-dereferenced',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [await redeliver(m, token, stream, unknownLike(failedEvent)), await redeliver(m, token, unknownLike(stream), failedEvent)];
    },
    conformant: [404, 404],
    faulted: [500, 404],
  },
  {
    id: 'ho6-state-from-recorded-attempts',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, deliveredEvent, pendingEvent } = ids(m);
      return [await redeliver(m, token, stream, deliveredEvent), await redeliver(m, token, stream, pendingEvent)];
    },
    conformant: [409, 409],
    faulted: [202, 409],
  },
  {
    id: 'ho6-error-bodies-carry-stack',
    probe: async (m) => {
      const missing = await read(m, await globalToken(m), unknownLike(ids(m).vault));
      const anonymous = await call(m, 'GET', vaultPath(ids(m).vault));
      return [missing.status, 'stack' in fieldsOf(missing), anonymous.status, 'stack' in fieldsOf(anonymous)];
    },
    conformant: [404, false, 401, false],
    faulted: [404, true, 401, true],
  },
  {
    id: 'ho6-403-scopes-as-json-list',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const answer = await call(m, 'POST', redeliverPath(stream, failedEvent), { token: await tokenFor(m, 'without-redeliver-scope') });
      return [answer.status, messageOf(answer)];
    },
    conformant: [403, 'Insufficient scope, expected any of: update:event_deliveries'],
    faulted: [403, 'Insufficient scope, expected any of: ["update:event_deliveries"]'],
  },
  {
    id: 'ho6-vault-unknown-answered-null',
    probe: async (m) => {
      const token = await globalToken(m);
      const unknown = await read(m, token, unknownLike(ids(m).vault));
      return [unknown.status, unknown.text === 'null', await readVault(m, token, 'ac_x')];
    },
    conformant: [404, false, 400],
    faulted: [200, true, 400],
  },
  // Rate limit
  {
    id: 'ho6-429-in-draft-ratelimit-header',
    options: TINY_BUCKET,
    probe: async (m) => {
      const answers = [];
      for (let i = 0; i < 3; i += 1) answers.push(await call(m, 'GET', vaultPath(ids(m).vault)));
      return answers.map((a) => [a.status, 'x-ratelimit-limit' in a.headers, 'x-ratelimit-reset' in a.headers, 'ratelimit' in a.headers]);
    },
    conformant: [
      [401, true, true, false],
      [401, true, true, false],
      [429, true, true, false],
    ],
    faulted: [
      [401, true, true, false],
      [401, true, true, false],
      [429, false, false, true],
    ],
  },
  {
    id: 'ho6-reset-on-monotonic-clock',
    probe: async (m) => {
      const answer = await call(m, 'GET', vaultPath(ids(m).vault));
      return Number(answer.headers['x-ratelimit-reset']) >= nowSeconds(m);
    },
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho6-errors-refund-their-token',
    options: TINY_BUCKET,
    probe: async (m) => {
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push(status(await call(m, 'GET', vaultPath(ids(m).vault))));
      return statuses;
    },
    conformant: [401, 401, 429, 429],
    faulted: [401, 401, 401, 401],
  },
  {
    id: 'ho6-429-message-from-library-default',
    options: TINY_BUCKET,
    probe: async (m) => {
      const answers = [];
      for (let i = 0; i < 3; i += 1) answers.push(await call(m, 'GET', vaultPath(ids(m).vault)));
      const refused = answers[2]!;
      return [refused.status, messageOf(refused), fieldsOf(refused).errorCode];
    },
    conformant: [429, 'Global limit has been reached', 'too_many_requests'],
    faulted: [429, 'Too many requests, please try again later.', 'too_many_requests'],
  },
  {
    id: 'ho6-limit-in-bucket-units',
    options: TINY_BUCKET,
    probe: async (m) => (await call(m, 'GET', vaultPath(ids(m).vault))).headers['x-ratelimit-limit'],
    conformant: '2',
    faulted: '2000',
  },
];

heldOutRoundTests({
  name: 'the sixth held-out round',
  prefix: 'ho6-',
  faults: heldOutRound6Faults,
  least: { faults: 54, contract: 34 },
  probes,
  signingKey,
});
