// The seventh round of held-out faults (mock/faults/held-out/round-7/): kept apart from the gate's
// catalogue and from the first six rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the fault's near miss to
// a conformant mock and to a faulted one, and the two answers differ as the row says (and, where
// the fault lets only the near value through, a plainly wrong value is still refused by both). A
// fault that changed nothing would count as a survivor of the suite for no reason; this rules that
// out.
import { heldOutRound7Faults } from '../faults/held-out/round-7/catalogue.ts';
import { claimsOf, signedAsIs as signed, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor } from './support/http.ts';
import {
  createTicket,
  domainOf,
  fieldsOf,
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
  ticketText,
  TINY_BUCKET,
  tokenAnswer,
  unknownLike,
  vaultPath,
  withHost,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-7');

const probes: Probe[] = [
  // Token verification
  {
    id: 'ho7-audience-host-trailing-dot-dropped',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const aud = claims.aud as string;
      return [
        await readVault(m, signed(m, { ...claims, aud: withHost(aud, (h) => `${h}.`) })),
        await readVault(m, signed(m, { ...claims, aud: withHost(aud, () => 'other.example.com') })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho7-issuer-userinfo-ignored',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const iss = claims.iss!;
      return [
        await readVault(m, signed(m, { ...claims, iss: withHost(iss, (h) => `someone@${h}`) })),
        await readVault(m, signed(m, { ...claims, iss: withHost(iss, (h) => `${h}@other.example`) })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho7-audience-percent-decoded',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const aud = claims.aud as string;
      return [
        await readVault(m, signed(m, { ...claims, aud: aud.replace('/api/v2/', '/api/v%32/') })),
        await readVault(m, signed(m, { ...claims, aud: aud.replace('/api/v2/', '/api/v%33/') })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho7-credential-cut-at-comma',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readAs(m, `Bearer ${token}, Bearer x`), await readAs(m, `Bearer ${withTamperedSignature(token)}, Bearer x`)];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho7-credential-from-proxy-authorization',
    probe: async (m) => {
      const token = await globalToken(m);
      const proxied = async (t: string) =>
        status(await call(m, 'GET', vaultPath(ids(m).vault), { headers: { 'proxy-authorization': `Bearer ${t}` } }));
      return [await proxied(token), await proxied(withTamperedSignature(token))];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho7-sub-suffix-case-folded',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signed(m, { ...claims, sub: `${claims.azp as string}@CLIENTS` })),
        await readVault(m, signed(m, { ...claims, sub: `${claims.azp as string}@users` })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho7-kid-trimmed',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [await readVault(m, signed(m, claims, { kid: ` ${m.keys.kid}` })), await readVault(m, signed(m, claims, { kid: ' other' }))];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho7-iat-in-milliseconds-scaled',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signed(m, { ...claims, iat: m.clock.now() })),
        await readVault(m, signed(m, { ...claims, iat: nowSeconds(m) + 3600 })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  // Authorization
  {
    id: 'ho7-scope-separators-folded',
    probe: async (m) => [await redeliverWithScope(m, 'update:event-deliveries'), await redeliverWithScope(m, 'update:event-streams')],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho7-scope-split-on-any-whitespace',
    probe: async (m) => [
      await redeliverWithScope(m, 'read:event_streams\tupdate:event_deliveries'),
      await redeliverWithScope(m, 'read:event_streams\u00a0update:event_deliveries'),
      await redeliverWithScope(m, 'read:event_streams\tread:event_deliveries'),
    ],
    conformant: [403, 403, 403],
    faulted: [202, 202, 403],
  },
  {
    id: 'ho7-scope-found-by-substring',
    probe: async (m) => [
      await redeliverWithScope(m, 'update:event_deliveries_history'),
      await redeliverWithScope(m, 'update:event_streams'),
    ],
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho7-global-verdict-cached-per-issuer',
    probe: async (m) => {
      const nonGlobal = await tokenFor(m, 'non-global');
      const before = await redeliver(m, nonGlobal);
      const global = await redeliver(m, await globalToken(m));
      return [before, global, await redeliver(m, nonGlobal)];
    },
    conformant: [401, 202, 401],
    faulted: [401, 202, 202],
  },
  {
    id: 'ho7-ticket-permitted-by-parent-update',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        status(await createTicket(m, {}, signed(m, { ...claims, scope: 'update:self_service_profiles' }))),
        status(await createTicket(m, {}, signed(m, { ...claims, scope: 'read:self_service_profiles' }))),
      ];
    },
    conformant: [403, 403],
    faulted: [201, 403],
  },
  // Requests
  {
    id: 'ho7-custom-domain-measured-without-port',
    probe: async (m) => [await ticketOn(m, `${domainOf(251)}:8443`), await ticketOn(m, domainOf(256))],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho7-stream-id-trailing-newline',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [await redeliver(m, token, `${stream}%0A`, failedEvent), await redeliver(m, token, `${stream}x`, failedEvent)];
    },
    conformant: [400, 400],
    faulted: [202, 400],
  },
  {
    id: 'ho7-backslash-read-as-slash',
    probe: async (m) => {
      const token = await globalToken(m);
      const { vault } = ids(m);
      return [
        status(await call(m, 'GET', `/api/v2/flows/vault%5Cconnections/${vault}`, { token })),
        status(await call(m, 'GET', `/api/v2/flows/vault-connections/${vault}`, { token })),
      ];
    },
    conformant: [404, 404],
    faulted: [200, 404],
  },
  {
    id: 'ho7-event-id-measured-encoded',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      return [await redeliver(m, token, stream, `%65${failedEvent.slice(1)}`), await redeliver(m, token, stream, failedEvent)];
    },
    conformant: [202, 202],
    faulted: [400, 202],
  },
  {
    id: 'ho7-vault-id-bounded-without-prefix',
    probe: async (m) => {
      const token = await globalToken(m);
      const idOf = (length: number) => `ac_${'a'.repeat(length - 3)}`;
      return [await readVault(m, token, idOf(31)), await readVault(m, token, idOf(33)), await readVault(m, token, idOf(34))];
    },
    conformant: [400, 400, 400],
    faulted: [404, 404, 400],
  },
  {
    id: 'ho7-ticket-json-read-leniently',
    probe: async (m) => [
      await ticketText(m, '{"ttl_sec": 60,}'),
      await ticketText(m, '{"ttl_sec": 0x3C}'),
      await ticketText(m, '{"ttl_sec": 60'),
    ],
    conformant: [400, 400, 400],
    faulted: [201, 201, 400],
  },
  // Token endpoint
  {
    id: 'ho7-token-body-secret-overrides-basic',
    probe: async (m) => {
      const { client_id, client_secret } = client(m, 'global');
      const basic = `Basic ${Buffer.from(`${client_id}:not-the-secret`).toString('base64')}`;
      const form = (secret: string) => `grant_type=client_credentials&client_secret=${secret}&audience=${encodeURIComponent(m.audience)}`;
      return [
        status(await formToken(m, form(client_secret), { authorization: basic })),
        (await formToken(m, form('also-not-the-secret'), { authorization: basic })).status >= 400,
      ];
    },
    conformant: [400, true],
    faulted: [200, true],
  },
  {
    id: 'ho7-token-secret-collated',
    probe: async (m) => {
      const { client_secret } = client(m, 'global');
      const at = client_secret.indexOf('e');
      const swapped = (letter: string) => `${client_secret.slice(0, at)}${letter}${client_secret.slice(at + 1)}`;
      return [status(await tokenAnswer(m, { client_secret: swapped('é') })), status(await tokenAnswer(m, { client_secret: swapped('x') }))];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho7-token-audience-trailing-dot-dropped',
    probe: async (m) => [
      status(await tokenAnswer(m, { audience: withHost(m.audience, (h) => `${h}.`) })),
      status(await tokenAnswer(m, { audience: withHost(m.audience, (h) => `${h}.org`) })),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho7-token-requested-scopes-split-on-commas',
    probe: async (m) => [
      status(await tokenAnswer(m, { scope: 'read:flows_vault_connections,update:event_deliveries' })),
      status(await tokenAnswer(m, { scope: 'read:flows_vault_connections,delete:users' })),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho7-token-answer-scope-as-list',
    probe: async (m) => {
      const answer = await tokenAnswer(m, {});
      return [answer.status, typeof fieldsOf(answer).access_token, Array.isArray(fieldsOf(answer).scope)];
    },
    conformant: [200, 'string', false],
    faulted: [200, 'string', true],
  },
  {
    id: 'ho7-jwks-modulus-with-sign-byte',
    probe: async (m) => {
      const { keys } = fieldsOf(await call(m, 'GET', '/.well-known/jwks.json')) as { keys: Array<{ n: string; kid: string }> };
      return keys.map((key) => [key.kid === m.keys.kid, Buffer.from(key.n, 'base64url')[0] === 0]);
    },
    conformant: [[true, false]],
    faulted: [[true, true]],
  },
  // Ticket body
  {
    id: 'ho7-organizations-checked-up-to-ten',
    probe: async (m) => {
      const good = Array.from({ length: 10 }, (_, i) => ({ organization_id: `org_${i}` }));
      const bad = { organization_id: 'org_x', show_as_button: 'yes' };
      return [
        await ticketStatus(m, { enabled_organizations: [...good, bad] }),
        await ticketStatus(m, { enabled_organizations: [bad, ...good] }),
      ];
    },
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho7-enabled-clients-filtered-by-boolean',
    probe: async (m) => {
      const id = client(m, 'global').client_id;
      return [
        await ticketStatus(m, { enabled_clients: [id, null] }),
        await ticketStatus(m, { enabled_clients: [id, ''] }),
        await ticketStatus(m, { enabled_clients: [id, 5] }),
      ];
    },
    conformant: [400, 201, 400],
    faulted: [201, 201, 400],
  },
  {
    id: 'ho7-ttl-sec-integer-within-tolerance',
    probe: async (m) => [await ticketText(m, '{"ttl_sec": 3600.0000000001}'), await ticketStatus(m, { ttl_sec: 3600.5 })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho7-token-lifetime-through-float32',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { token_lifetime: 1200.00001 } }),
      await ticketStatus(m, { provisioning_config: { token_lifetime: 1200.5 } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho7-provisioning-config-array-passes-typeof',
    probe: async (m) => [await ticketStatus(m, { provisioning_config: [] }), await ticketStatus(m, { provisioning_config: 'x' })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho7-connection-id-read-through-template',
    probe: async (m) => {
      const connection = m.fixtures.data.connections![0]!.id;
      return [
        await ticketStatus(m, { connection_id: [connection] }),
        await ticketStatus(m, { connection_id: {} }),
        await ticketStatus(m, { connection_id: [connection, connection] }),
        await ticketStatus(m, { connection_id: connection }),
      ];
    },
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho7-falsy-provisioning-flag-skipped',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { provisioning: 0 } }),
      await ticketStatus(m, { enabled_features: { provisioning: 'yes' } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho7-proto-member-hidden-by-assign',
    probe: async (m) => [await ticketText(m, '{"__proto__": {"ttl_sec": 1}}'), await ticketText(m, '{"proto": {}}')],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho7-organization-unknown-members-stripped',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: [{ organization_id: 'org_1', display_name: 'Acme' }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: 5 }] }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho7-verification-mode-lowercased-in-turkish',
    probe: async (m) => {
      const mode = (domain_verification: string) => ticketStatus(m, { domain_aliases_config: { domain_verification } });
      return [await mode('NONE'), await mode('REQU\u0130RED'), await mode('REQUIRED'), await mode('sometimes')];
    },
    conformant: [400, 400, 400, 400],
    faulted: [201, 201, 400, 400],
  },
  // Success answers
  {
    id: 'ho7-vault-cached-by-caller',
    probe: async (m) => {
      const token = await globalToken(m);
      const idOf = async (id: string, t = token) => fieldsOf(await read(m, t, id)).id;
      const { vault, plainVault } = ids(m);
      return [await idOf(vault), await idOf(plainVault), await idOf(plainVault, await tokenFor(m, 'without-redeliver-scope'))];
    },
    conformant: ['ac_NbWaizZTo4vfWnCwDq76Vj', 'ac_AkoqqjxmLJhPJThFBi7J1v', 'ac_AkoqqjxmLJhPJThFBi7J1v'],
    faulted: ['ac_NbWaizZTo4vfWnCwDq76Vj', 'ac_NbWaizZTo4vfWnCwDq76Vj', 'ac_AkoqqjxmLJhPJThFBi7J1v'],
  },
  {
    id: 'ho7-vault-fields-camel-cased',
    probe: async (m) => Object.keys(fieldsOf(await read(m, await globalToken(m), ids(m).plainVault))).sort(),
    conformant: ['app_id', 'created_at', 'fingerprint', 'id', 'name', 'ready', 'updated_at'],
    faulted: ['appId', 'createdAt', 'fingerprint', 'id', 'name', 'ready', 'updatedAt'],
  },
  {
    id: 'ho7-vault-created-at-cut-to-date',
    probe: async (m) => {
      const record = fieldsOf(await read(m, await globalToken(m)));
      return [record.created_at, record.updated_at];
    },
    conformant: ['2024-09-12T12:52:16.553Z', '2024-09-12T12:52:16.553Z'],
    faulted: ['2024-09-12', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho7-vault-timestamps-in-microseconds',
    probe: async (m) => fieldsOf(await read(m, await globalToken(m))).created_at,
    conformant: '2024-09-12T12:52:16.553Z',
    faulted: '2024-09-12T12:52:16.553000Z',
  },
  {
    id: 'ho7-vault-created-at-rounded-up',
    probe: async (m) => {
      const record = fieldsOf(await read(m, await globalToken(m)));
      return [record.created_at, Date.parse(record.created_at as string) <= Date.parse(record.updated_at as string)];
    },
    conformant: ['2024-09-12T12:52:16.553Z', true],
    faulted: ['2024-09-12T12:52:17.000Z', false],
  },
  {
    id: 'ho7-vault-app-id-lowercased',
    probe: async (m) => {
      const token = await globalToken(m);
      return [fieldsOf(await read(m, token)).app_id, fieldsOf(await read(m, token, ids(m).plainVault)).app_id];
    },
    conformant: ['SLACK', 'HTTP'],
    faulted: ['slack', 'http'],
  },
  {
    id: 'ho7-ticket-code-one-short',
    probe: async (m) => {
      const ticket = fieldsOf(await createTicket(m, {})).ticket as string;
      return new URL(ticket).searchParams.get('ticket')!.length;
    },
    conformant: 32,
    faulted: 31,
  },
  // State and errors
  {
    id: 'ho7-redelivered-event-left-retrying',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await redeliver(m, token), await redeliver(m, token)];
    },
    conformant: [202, 202],
    faulted: [202, 409],
  },
  {
    id: 'ho7-stream-locked-while-pending',
    probe: async (m) => {
      const token = await globalToken(m);
      const { otherStream, otherFailedEvent } = ids(m);
      return [await redeliver(m, token), await redeliver(m, token, otherStream, otherFailedEvent)];
    },
    conformant: [202, 202],
    faulted: [409, 202],
  },
  {
    id: 'ho7-403-generic-error-code',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const answer = await call(m, 'POST', redeliverPath(stream, failedEvent), { token: await tokenFor(m, 'without-redeliver-scope') });
      return [answer.status, fieldsOf(answer).errorCode, messageOf(answer)];
    },
    conformant: [403, 'insufficient_scope', 'Insufficient scope, expected any of: update:event_deliveries'],
    faulted: [403, 'forbidden', 'Insufficient scope, expected any of: update:event_deliveries'],
  },
  {
    id: 'ho7-stream-missing-message-names-id',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const missing = unknownLike(stream);
      const answer = await call(m, 'POST', redeliverPath(missing, failedEvent), { token: await globalToken(m) });
      return [answer.status, messageOf(answer) === 'The requested stream does not exist.', String(messageOf(answer)).includes(missing)];
    },
    conformant: [404, true, false],
    faulted: [404, false, true],
  },
  {
    id: 'ho7-error-code-null-when-absent',
    probe: async (m) => {
      const missing = await read(m, await globalToken(m), unknownLike(ids(m).vault));
      return [missing.status, 'errorCode' in fieldsOf(missing), fieldsOf(missing).errorCode ?? 'none'];
    },
    conformant: [404, false, 'none'],
    faulted: [404, true, 'none'],
  },
  // Rate limit
  {
    id: 'ho7-bucket-per-route',
    options: TINY_BUCKET,
    probe: async (m) => {
      const statuses = [];
      for (let i = 0; i < 2; i += 1) statuses.push(status(await call(m, 'GET', vaultPath(ids(m).vault))));
      const { stream, failedEvent } = ids(m);
      for (let i = 0; i < 3; i += 1) statuses.push(status(await call(m, 'POST', redeliverPath(stream, failedEvent))));
      return statuses;
    },
    conformant: [401, 401, 429, 429, 429],
    faulted: [401, 401, 401, 401, 429],
  },
  {
    id: 'ho7-writes-cost-two',
    options: TINY_BUCKET,
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const post = await call(m, 'POST', redeliverPath(stream, failedEvent));
      const get = await call(m, 'GET', vaultPath(ids(m).vault));
      return [post.status, post.headers['x-ratelimit-remaining'], get.status];
    },
    conformant: [401, '1', 401],
    faulted: [401, '0', 429],
  },
  {
    id: 'ho7-remaining-read-before-take',
    options: TINY_BUCKET,
    probe: async (m) => {
      const remaining = [];
      for (let i = 0; i < 3; i += 1) {
        const answer = await call(m, 'GET', vaultPath(ids(m).vault));
        remaining.push([answer.status, answer.headers['x-ratelimit-remaining']]);
      }
      return remaining;
    },
    conformant: [
      [401, '1'],
      [401, '0'],
      [429, '0'],
    ],
    faulted: [
      [401, '2'],
      [401, '1'],
      [429, '0'],
    ],
  },
  {
    id: 'ho7-reset-wait-divided-twice',
    options: TINY_BUCKET,
    probe: async (m) => {
      const answer = await call(m, 'GET', vaultPath(ids(m).vault));
      return Number(answer.headers['x-ratelimit-reset']) - nowSeconds(m) > 100;
    },
    conformant: true,
    faulted: false,
  },
];

heldOutRoundTests({
  name: 'the seventh held-out round',
  prefix: 'ho7-',
  faults: heldOutRound7Faults,
  least: { faults: 51, contract: 30 },
  probes,
  signingKey,
});
