// The second round of held-out faults (mock/faults/held-out/round-2/): kept apart from the gate's
// catalogue and from the first round, each row naming a clause of the registry at its own level,
// and each fault shown to do what its bug line says: a probe sends the fault's near miss to a
// conformant mock and to a faulted one, and the two answers differ as the row says (and, where the
// fault lets only the near value through, a clearly wrong value is still refused by both). A fault
// that changed nothing would count as a survivor of the suite for no reason; this rules that out.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, decodeJwt, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { heldOutRound2Faults } from '../faults/held-out/round-2/catalogue.ts';
import { type MockServer } from '../index.ts';
import { claimsOf, jws, signedAsIs as signed } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, tokenFor, tokenRequest, type Answer } from './support/http.ts';
import {
  advance,
  createTicket,
  fieldsOf,
  fixtureClientId,
  globalToken,
  ids,
  MANUAL_CLOCK,
  nowSeconds,
  ORGANIZATION,
  probeKeyFile,
  read,
  readVault,
  redeliver,
  redeliverAnswer,
  redeliverPath,
  status,
  ticketStatus,
  TINY_BUCKET,
  tokenAnswer,
  unknownLike,
  vaultPath,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-2');

/** A connection name no fixture uses. */
const NEW_CONNECTION = 'new-partner-sso';

const messageOf = (answer: Answer) => (answer.json as { message?: string } | undefined)?.message ?? '';

/** The answers to three vault reads in a row (the third on an empty TINY_BUCKET). */
async function threeReads(mock: MockServer): Promise<Answer[]> {
  const token = await globalToken(mock);
  const answers: Answer[] = [];
  for (let i = 0; i < 3; i += 1) answers.push(await read(mock, token));
  return answers;
}

/** Serves a JWKS at a loopback URL for the length of `use`. */
async function servingJwks<T>(jwks: unknown, use: (url: string) => Promise<T>): Promise<T> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const probes: Probe[] = [
  // Token verification
  {
    id: 'ho2-token-key-fetched-from-jku',
    probe: async (m) => {
      const attacker = await generateKeyPair('RS256', { extractable: true });
      const jwk = { ...(await exportJWK(attacker.publicKey)), kid: 'attacker', alg: 'RS256', use: 'sig' };
      const claims = await claimsOf(m);
      return servingJwks({ keys: [jwk] }, async (url) => [
        await readVault(m, jws({ alg: 'RS256', typ: 'JWT', kid: 'attacker', jku: url }, claims, attacker.privateKey)),
        await readVault(m, jws({ alg: 'RS256', typ: 'JWT', kid: 'attacker' }, claims, attacker.privateKey)),
      ]);
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho2-kid-ignored-with-one-key',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const foreign = await generateKeyPair('RS256');
      return [
        await readVault(m, jws({ alg: 'RS256', typ: 'JWT' }, claims, m.keys.privateKey)),
        await readVault(m, jws({ alg: 'RS256', typ: 'JWT', kid: 'not-a-published-kid' }, claims, m.keys.privateKey)),
        await readVault(m, jws({ alg: 'RS256', typ: 'JWT' }, claims, foreign.privateKey)),
      ];
    },
    conformant: [401, 401, 401],
    faulted: [200, 200, 401],
  },
  {
    id: 'ho2-redeliver-bearer-first-word',
    probe: async (m) => {
      const headers = { authorization: `Bearer ${await globalToken(m)} x` };
      return [
        status(await call(m, 'POST', redeliverPath(ids(m).stream, ids(m).failedEvent), { headers })),
        status(await call(m, 'GET', vaultPath(ids(m).vault), { headers })),
      ];
    },
    conformant: [401, 401],
    faulted: [202, 401],
  },
  {
    id: 'ho2-verified-tokens-cached-past-expiry',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      const claims = await claimsOf(m);
      const shortLived = signed(m, { ...claims, iat: nowSeconds(m), exp: nowSeconds(m) + 60 });
      const whileValid = await readVault(m, shortLived);
      advance(m, 120_000);
      const expiredSeen = await readVault(m, shortLived);
      const expiredUnseen = await readVault(m, signed(m, { ...claims, iat: nowSeconds(m) - 180, exp: nowSeconds(m) - 60 }));
      return [whileValid, expiredSeen, expiredUnseen];
    },
    conformant: [200, 401, 401],
    faulted: [200, 200, 401],
  },
  {
    id: 'ho2-expiry-leeway-subtracted',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signed(m, { ...claims, iat: nowSeconds(m) - 3600, exp: nowSeconds(m) + 10 })),
        await readVault(m, signed(m, { ...claims, iat: nowSeconds(m) - 3600, exp: nowSeconds(m) + 120 })),
      ];
    },
    conformant: [200, 200],
    faulted: [401, 200],
  },
  {
    id: 'ho2-issuer-default-port-dropped',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signed(m, { ...claims, iss: m.issuer.replace(/\/$/, ':443/') })),
        await readVault(m, signed(m, { ...claims, iss: m.issuer.replace(/\/$/, ':8443/') })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho2-ticket-nbf-ignored-when-iat-present',
    probe: async (m) => {
      const token = signed(m, { ...(await claimsOf(m)), iat: nowSeconds(m), nbf: nowSeconds(m) + 3600 });
      return [status(await createTicket(m, {}, token)), await readVault(m, token)];
    },
    conformant: [401, 401],
    faulted: [201, 401],
  },
  {
    id: 'ho2-client-named-by-sub-without-azp',
    probe: async (m) => {
      const { azp: _azp, ...claims } = await claimsOf(m);
      return [await readVault(m, signed(m, claims)), await readVault(m, signed(m, { ...claims, azp: fixtureClientId(m, 'non-global') }))];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  // Ticket body
  {
    id: 'ho2-enabled-organizations-first-item-only',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION }, 'org'] }),
      await ticketStatus(m, { enabled_organizations: ['org', { organization_id: ORGANIZATION }] }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho2-assign-membership-as-text',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION, assign_membership_on_login: 'false' }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION, assign_membership_on_login: 'no' }] }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho2-show-as-button-null-as-false',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION, show_as_button: null }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION, show_as_button: 'no' }] }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho2-domain-verification-flag-as-bit',
    probe: async (m) => [
      await ticketStatus(m, { connection_id: ids(m).connection, enabled_features: { domain_verification: 1 } }),
      await ticketStatus(m, { connection_id: ids(m).connection, enabled_features: { domain_verification: 2 } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho2-token-lifetime-typed-number',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime: 900.5 } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime: '900' } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho2-ttl-sec-range-unchecked-with-connection-id',
    probe: async (m) => [
      await ticketStatus(m, { connection_id: ids(m).connection, ttl_sec: 432001 }),
      await ticketStatus(m, { ttl_sec: 432001 }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho2-organization-discovery-checked-only-with-domain-aliases',
    probe: async (m) => [
      await ticketStatus(m, { use_for_organization_discovery: 'yes' }),
      await ticketStatus(m, { domain_aliases_config: { domain_verification: 'none' }, use_for_organization_discovery: 'yes' }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho2-connection-config-list-of-one-unwrapped',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: [{ name: NEW_CONNECTION }] }),
      await ticketStatus(m, { connection_config: NEW_CONNECTION }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho2-domain-aliases-config-array-skipped',
    probe: async (m) => [await ticketStatus(m, { domain_aliases_config: [] }), await ticketStatus(m, { domain_aliases_config: 'none' })],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho2-new-connection-requires-enabled-clients',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: { name: NEW_CONNECTION } }),
      await ticketStatus(m, { connection_config: { name: NEW_CONNECTION }, enabled_clients: [fixtureClientId(m, 'global')] }),
      await ticketStatus(m, {}),
    ],
    conformant: [201, 201, 201],
    faulted: [400, 201, 201],
  },
  {
    id: 'ho2-json-string-body-parsed-again',
    probe: async (m) => {
      const json = { 'content-type': 'application/json' };
      return [
        status(await createTicket(m, JSON.stringify(JSON.stringify({ ttl_sec: 3600 })), undefined, json)),
        status(await createTicket(m, JSON.stringify('ttl_sec=3600'), undefined, json)),
      ];
    },
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho2-token-lifetime-null-refused',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime: null } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime: 900 } }),
    ],
    conformant: [201, 201],
    faulted: [400, 201],
  },
  {
    id: 'ho2-connection-name-loose-hyphens',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: { name: `${NEW_CONNECTION}-` } }),
      await ticketStatus(m, { connection_config: { name: `-${NEW_CONNECTION}` } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  // Authorization
  {
    id: 'ho2-redeliver-repeat-answered-before-authorization',
    probe: async (m) => {
      const nonGlobal = await tokenFor(m, 'non-global');
      return [
        await redeliver(m, await globalToken(m)),
        await redeliver(m, nonGlobal),
        await redeliver(m, nonGlobal, ids(m).otherStream, ids(m).otherStreamFailedEvent),
      ];
    },
    conformant: [202, 401, 401],
    faulted: [202, 202, 401],
  },
  {
    id: 'ho2-scopes-remembered-per-client',
    probe: async (m) => {
      await readVault(m, await globalToken(m));
      await readVault(m, await tokenFor(m, 'without-redeliver-scope'));
      return [
        await redeliver(m, await tokenFor(m, 'global', 'read:flows_vault_connections')),
        await redeliver(m, await tokenFor(m, 'without-redeliver-scope')),
      ];
    },
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho2-redeliver-scope-glob',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await redeliver(m, signed(m, { ...claims, scope: 'update:*' })),
        await redeliver(m, signed(m, { ...claims, scope: '*:event_deliveries' })),
        await redeliver(m, signed(m, { ...claims, scope: 'read:*' })),
      ];
    },
    conformant: [403, 403, 403],
    faulted: [202, 202, 403],
  },
  {
    id: 'ho2-redeliver-403-hidden-as-404',
    probe: async (m) => [
      await redeliver(m, await tokenFor(m, 'without-redeliver-scope')),
      await readVault(m, await tokenFor(m, 'without-vault-scope')),
    ],
    conformant: [403, 403],
    faulted: [404, 403],
  },
  {
    id: 'ho2-vault-cache-before-scope-check',
    probe: async (m) => {
      await readVault(m, await globalToken(m));
      const withoutScope = await tokenFor(m, 'without-vault-scope');
      return [await readVault(m, withoutScope), await readVault(m, withoutScope, ids(m).minimalVault)];
    },
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho2-redeliver-global-rule-after-lookup',
    probe: async (m) => {
      const nonGlobal = await tokenFor(m, 'non-global');
      return [await redeliver(m, nonGlobal, unknownLike(ids(m).stream)), await redeliver(m, nonGlobal)];
    },
    conformant: [401, 401],
    faulted: [404, 401],
  },
  // Requests and ids
  {
    id: 'ho2-event-id-length-counted-as-sent',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await redeliver(m, token, ids(m).stream, ids(m).failedEvent.replace('_', '%5F')),
        await redeliver(m, token, ids(m).stream, ids(m).failedEvent),
      ];
    },
    conformant: [202, 202],
    faulted: [400, 202],
  },
  {
    id: 'ho2-event-id-shape-unchecked',
    probe: async (m) => redeliver(m, await globalToken(m), ids(m).stream, ids(m).otherStream),
    conformant: 400,
    faulted: 404,
  },
  {
    id: 'ho2-unknown-stream-and-event-told-event-missing',
    probe: async (m) => {
      const token = await globalToken(m);
      const stream = unknownLike(ids(m).stream);
      return [
        messageOf(await redeliverAnswer(m, token, stream, unknownLike(ids(m).failedEvent))),
        messageOf(await redeliverAnswer(m, token, stream, ids(m).failedEvent)),
      ];
    },
    conformant: ['The requested stream does not exist.', 'The requested stream does not exist.'],
    faulted: ['The requested event does not exist.', 'The requested stream does not exist.'],
  },
  {
    id: 'ho2-vault-post-with-method-override',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        status(await call(m, 'POST', vaultPath(ids(m).vault), { token, headers: { 'x-http-method-override': 'GET' } })),
        status(await call(m, 'POST', vaultPath(ids(m).vault), { token })),
      ];
    },
    conformant: [405, 405],
    faulted: [200, 405],
  },
  {
    id: 'ho2-custom-domain-checked-only-with-body-fields',
    probe: async (m) => [
      status(await createTicket(m, {}, undefined, { 'tenant-custom-domain': 'ab' })),
      status(await createTicket(m, { ttl_sec: 3600 }, undefined, { 'tenant-custom-domain': 'ab' })),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  // Token endpoint
  {
    id: 'ho2-token-audience-default-port-dropped',
    probe: async (m) => [
      status(await tokenAnswer(m, { audience: m.audience.replace(/^(https:\/\/[^/]+)/, '$1:443') })),
      status(await tokenAnswer(m, { audience: m.audience.replace(/^(https:\/\/[^/]+)/, '$1:8443') })),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho2-token-grant-type-defaulted',
    probe: async (m) => [status(await tokenAnswer(m, { grant_type: undefined })), status(await tokenAnswer(m, { grant_type: 'password' }))],
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho2-token-secret-skipped-for-key-only-client',
    probe: async (m) => [
      status(
        await call(m, 'POST', '/oauth/token', {
          body: {
            grant_type: 'client_credentials',
            client_id: fixtureClientId(m, 'private-key-jwt'),
            client_secret: 'any-secret-at-all',
            audience: m.audience,
          },
        }),
      ),
      status(await tokenAnswer(m, { client_secret: 'any-secret-at-all' })),
    ],
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho2-token-client-id-in-subject-form',
    probe: async (m) => [
      status(await tokenAnswer(m, { client_id: `${fixtureClientId(m, 'global')}@clients` })),
      status(await tokenAnswer(m, { client_id: `${fixtureClientId(m, 'global')}@users` })),
    ],
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho2-token-unknown-parameter-refused',
    probe: async (m) => [status(await tokenAnswer(m, { request_id: 'r-1' })), status(await tokenAnswer(m, {}))],
    conformant: [200, 200],
    faulted: [400, 200],
  },
  {
    id: 'ho2-token-served-on-get',
    probe: async (m) => [
      status(await call(m, 'GET', `/oauth/token?${new URLSearchParams(tokenRequest(m, 'global')).toString()}`)),
      status(await call(m, 'GET', `/oauth/token?${new URLSearchParams(tokenRequest(m, 'global', { client_secret: 'wrong' })).toString()}`)),
    ],
    conformant: [405, 405],
    faulted: [200, 401],
  },
  {
    id: 'ho2-token-answer-without-scope',
    probe: async (m) => [
      'scope' in fieldsOf(await tokenAnswer(m, {})),
      'scope' in fieldsOf(await tokenAnswer(m, { scope: 'read:flows_vault_connections' })),
    ],
    conformant: [true, true],
    faulted: [false, true],
  },
  {
    id: 'ho2-token-exp-lifetime-in-milliseconds',
    probe: async (m) => {
      const { iat, exp } = decodeJwt(await globalToken(m));
      return [exp! - iat!, fieldsOf(await tokenAnswer(m, {})).expires_in];
    },
    conformant: [86400, 86400],
    faulted: [86400000, 86400],
  },
  {
    id: 'ho2-token-gty-with-underscore',
    probe: async (m) => decodeJwt(await globalToken(m)).gty,
    conformant: 'client-credentials',
    faulted: 'client_credentials',
  },
  {
    id: 'ho2-jwks-key-marked-for-encryption',
    probe: async (m) => {
      const token = await globalToken(m);
      const jwks = (await call(m, 'GET', '/.well-known/jwks.json')).json as Parameters<typeof createLocalJWKSet>[0];
      return jwtVerify(token, createLocalJWKSet(jwks)).then(
        () => 'verified',
        () => 'no key',
      );
    },
    conformant: 'verified',
    faulted: 'no key',
  },
  // Success answers
  {
    id: 'ho2-vault-record-written-into-shared-object',
    probe: async (m) => {
      const token = await globalToken(m);
      await read(m, token, ids(m).vault);
      const minimal = fieldsOf(await read(m, token, ids(m).minimalVault));
      return [minimal.id === ids(m).minimalVault, 'environment' in minimal, 'account_name' in minimal];
    },
    conformant: [true, false, false],
    faulted: [true, true, true],
  },
  {
    id: 'ho2-vault-record-id-without-type-prefix',
    probe: async (m) => fieldsOf(await read(m, await globalToken(m))).id === ids(m).vault,
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho2-vault-app-id-empty-for-generic-provider',
    probe: async (m) => {
      const token = await globalToken(m);
      return [fieldsOf(await read(m, token, ids(m).minimalVault)).app_id, fieldsOf(await read(m, token, ids(m).vault)).app_id];
    },
    conformant: ['HTTP', 'SLACK'],
    faulted: ['', 'SLACK'],
  },
  {
    id: 'ho2-vault-refreshed-at-without-zero-seconds',
    probe: async (m) => {
      const token = await globalToken(m);
      return [fieldsOf(await read(m, token, ids(m).vault)).refreshed_at, fieldsOf(await read(m, token, ids(m).longestVault)).refreshed_at];
    },
    conformant: ['2024-10-01T08:30:00.000Z', '2024-02-29T00:00:00.001Z'],
    faulted: ['2024-10-01T08:30Z', '2024-02-29T00:00:00.001Z'],
  },
  {
    id: 'ho2-ticket-answer-in-envelope',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      return [answer.status, typeof fieldsOf(answer).ticket];
    },
    conformant: [201, 'string'],
    faulted: [201, 'undefined'],
  },
  {
    id: 'ho2-ticket-host-from-host-header',
    probe: async (m) => {
      const hostOf = (answer: Answer) => new URL(fieldsOf(answer).ticket as string).host;
      return [
        hostOf(await createTicket(m, {})) === m.tenantDomain,
        hostOf(await createTicket(m, {}, undefined, { 'tenant-custom-domain': 'login.acme.example' })),
      ];
    },
    conformant: [true, 'login.acme.example'],
    faulted: [false, 'login.acme.example'],
  },
  {
    id: 'ho2-redeliver-202-describes-the-job',
    probe: async (m) => {
      const answer = await redeliverAnswer(m, await globalToken(m));
      return [answer.status, Object.keys(fieldsOf(answer)).length];
    },
    conformant: [202, 0],
    faulted: [202, 3],
  },
  // Rate limit and error answers
  {
    id: 'ho2-writes-never-refused-by-limiter',
    options: TINY_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      await read(m, token);
      await read(m, token);
      return [await redeliver(m, token), await readVault(m, token)];
    },
    conformant: [429, 429],
    faulted: [202, 429],
  },
  {
    id: 'ho2-rate-limit-headers-hyphenated',
    options: TINY_BUCKET,
    probe: async (m) => {
      const third = (await threeReads(m))[2]!;
      return [third.status, 'x-ratelimit-limit' in third.headers, 'x-rate-limit-limit' in third.headers];
    },
    conformant: [429, true, false],
    faulted: [429, false, true],
  },
  {
    id: 'ho2-bucket-keeps-its-last-token',
    // A clock that stands still: a bucket refilled even a little in the meantime would hold more than its last token.
    options: () => ({ ...TINY_BUCKET, ...MANUAL_CLOCK() }),
    probe: async (m) => {
      const [first, second] = await threeReads(m);
      return [first!.headers['x-ratelimit-remaining'], second!.status, second!.headers['x-ratelimit-remaining']];
    },
    conformant: ['1', 200, '0'],
    faulted: ['1', 429, '1'],
  },
  {
    id: 'ho2-429-in-token-endpoint-shape',
    options: TINY_BUCKET,
    probe: async (m) => {
      const third = (await threeReads(m))[2]!;
      return [third.status, messageOf(third), fieldsOf(third).error];
    },
    conformant: [429, 'Global limit has been reached', 'Too Many Requests'],
    faulted: [429, '', 'too_many_requests'],
  },
  {
    id: 'ho2-409-body-from-400-template',
    probe: async (m) => {
      const answer = await redeliverAnswer(m, await globalToken(m), ids(m).stream, ids(m).deliveredEvent);
      return [answer.status, fieldsOf(answer).statusCode, fieldsOf(answer).error];
    },
    conformant: [409, 409, 'Conflict'],
    faulted: [409, 400, 'Bad Request'],
  },
];

heldOutRoundTests({
  name: 'the second held-out round',
  prefix: 'ho2-',
  faults: heldOutRound2Faults,
  least: { faults: 45, contract: 30 },
  probes,
  signingKey,
});
