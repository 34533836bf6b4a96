// The fourth round of held-out faults (mock/faults/held-out/round-4/): kept apart from the gate's
// catalogue and from the first three rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the fault's near miss to
// a conformant mock and to a faulted one, and the two answers differ as the row says (and, where
// the fault lets only the near value through, a clearly wrong value is still refused by both). A
// fault that changed nothing would count as a survivor of the suite for no reason; this rules that
// out.
import { decodeJwt } from 'jose';
import { observed } from '../../specs/index.ts';
import { heldOutRound4Faults } from '../faults/held-out/round-4/catalogue.ts';
import { ManualClock, type MockServer } from '../index.ts';
import { claimsOf, signedAsIs as signed, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor, tokenRequest, type Answer } from './support/http.ts';
import {
  advance,
  changedEarly,
  createTicket,
  fieldsOf,
  fixtureClientId,
  globalToken,
  hostOf,
  ids,
  MANUAL_CLOCK,
  nowSeconds,
  ORGANIZATION,
  probeKeyFile,
  read,
  readAs,
  readVault,
  redeliver,
  redeliverAnswer,
  redeliverPath,
  REPORTS_API,
  status,
  ticketPathOf,
  ticketStatus,
  TINY_BUCKET,
  tokenAnswer,
  unknownLike,
  vaultPath,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-4');

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

const profilePath = (profile: string) => `/api/v2/self-service-profiles/${profile}/sso-ticket`;

/** HTTP Basic credentials, written as given (already form-encoded where they need to be). */
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`, 'utf8').toString('base64')}`;

const errorCodeOf = (answer: Answer) => (answer.json as { errorCode?: unknown } | undefined)?.errorCode;
const formTicket = async (mock: MockServer, form: string) => createTicket(mock, form, undefined, FORM);
/** A form-encoded token request without client credentials (they go in a header or the query). */
const bareTokenForm = (mock: MockServer, extra: Record<string, string> = {}) =>
  new URLSearchParams({ grant_type: 'client_credentials', audience: mock.audience, ...extra }).toString();

const probes: Probe[] = [
  // Token verification
  {
    id: 'ho4-token-extra-segments-ignored',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readVault(m, `${token}.x`), await readVault(m, `${withTamperedSignature(token)}.x`)];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho4-signature-in-standard-base64',
    probe: async (m) => {
      const standard = (token: string) => {
        const [header, payload, signature] = token.split('.');
        return `${header}.${payload}.${Buffer.from(signature!, 'base64url').toString('base64')}`;
      };
      const token = await globalToken(m);
      return [await readVault(m, standard(token)), await readVault(m, standard(withTamperedSignature(token)))];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho4-signature-compared-by-its-start',
    probe: async (m) => {
      const token = await globalToken(m);
      const [header, payload] = token.split('.');
      return [
        await readVault(m, token.slice(0, -4)),
        await readVault(m, withTamperedSignature(token)),
        await readVault(m, `${header}.${payload}.`),
      ];
    },
    conformant: [401, 401, 401],
    faulted: [200, 401, 401],
  },
  {
    id: 'ho4-token-client-found-ignoring-case',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const as = (azp: string) => signed(m, { ...claims, azp, sub: `${azp}@clients` });
      const azp = String(claims.azp);
      return [await readVault(m, as(azp.toLowerCase())), await readVault(m, as(unknownLike(azp)))];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho4-bearer-token-in-quotes',
    probe: async (m) => [await readAs(m, `Bearer "${await globalToken(m)}"`), await readAs(m, 'Bearer "not-a-token"')],
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho4-kid-compared-loosely',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signed(m, claims, { kid: [m.keys.kid] })),
        await readVault(m, signed(m, claims, { kid: ['another-key'] })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  {
    id: 'ho4-iat-not-a-number-compared',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await readVault(m, signed(m, { ...claims, iat: 'yesterday' })),
        await readVault(m, signed(m, { ...claims, iat: String(nowSeconds(m) + 3600) })),
      ];
    },
    conformant: [401, 401],
    faulted: [200, 401],
  },
  // Ticket body
  {
    id: 'ho4-enabled-clients-object-items-unwrapped',
    probe: async (m) => [
      await ticketStatus(m, { enabled_clients: [{ client_id: fixtureClientId(m, 'global') }] }),
      await ticketStatus(m, { enabled_clients: [{ id: fixtureClientId(m, 'global') }] }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho4-enabled-organizations-index-object',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: { 0: { organization_id: ORGANIZATION } } }),
      await ticketStatus(m, { enabled_organizations: { first: { organization_id: ORGANIZATION } } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho4-assign-membership-check-copied',
    probe: async (m) => [
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION, assign_membership_on_login: 'yes' }] }),
      await ticketStatus(m, { enabled_organizations: [{ organization_id: ORGANIZATION, show_as_button: 'yes' }] }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho4-provisioning-flag-read-only-with-sso',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { sso: false, provisioning: 'yes' } }),
      await ticketStatus(m, { enabled_features: { sso: true, provisioning: 'yes' } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho4-feature-flag-object-unwrapped',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { sso: { enabled: true } } }),
      await ticketStatus(m, { enabled_features: { sso: { on: true } } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho4-token-lifetime-false-as-never',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime: false } }),
      await ticketStatus(m, { provisioning_config: { scopes: ['get:users'], token_lifetime: true } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho4-form-checkbox-on-as-true',
    probe: async (m) => [
      status(await formTicket(m, 'use_for_organization_discovery=on')),
      status(await formTicket(m, 'use_for_organization_discovery=maybe')),
      await ticketStatus(m, { use_for_organization_discovery: 'on' }),
    ],
    conformant: [400, 400, 400],
    faulted: [201, 400, 400],
  },
  {
    id: 'ho4-provisioning-scopes-flattened',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { scopes: [['get:users'], 'post:users'] } }),
      await ticketStatus(m, { provisioning_config: { scopes: [['read:everything']] } }),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho4-token-lifetime-minimum-in-minutes',
    probe: async (m) => {
      const lifetime = (token_lifetime: number) => ({ provisioning_config: { scopes: ['get:users'], token_lifetime } });
      return [await ticketStatus(m, lifetime(60)), await ticketStatus(m, lifetime(10)), await ticketStatus(m, lifetime(900))];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  // Authorization
  {
    id: 'ho4-scope-check-skipped-without-claim',
    probe: async (m) => {
      const { scope: _scope, ...claims } = await claimsOf(m);
      return [await redeliver(m, signed(m, claims)), await redeliver(m, signed(m, { ...claims, scope: '' }))];
    },
    conformant: [403, 403],
    faulted: [202, 403],
  },
  {
    id: 'ho4-redeliver-also-needs-stream-read',
    probe: async (m) => [
      await redeliver(m, await tokenFor(m, 'global', 'update:event_deliveries')),
      await redeliver(m, await tokenFor(m, 'global', 'update:event_deliveries read:event_streams')),
    ],
    conformant: [202, 202],
    faulted: [403, 202],
  },
  {
    id: 'ho4-global-rule-only-for-canonical-issuer',
    probe: async (m) => {
      const local = fieldsOf(await tokenAnswer(m, { audience: `${m.url}/api/v2/` }, 'non-global')).access_token as string;
      return [decodeJwt(local).iss === `${m.url}/`, await redeliver(m, local), await redeliver(m, await tokenFor(m, 'non-global'))];
    },
    conformant: [true, 401, 401],
    faulted: [true, 202, 401],
  },
  {
    id: 'ho4-scope-claim-list-read',
    probe: async (m) => {
      const claims = await claimsOf(m);
      return [
        await redeliver(m, signed(m, { ...claims, scope: ['update:event_deliveries'] })),
        await redeliver(m, signed(m, { ...claims, scope: ['read:event_streams'] })),
      ];
    },
    conformant: [401, 401],
    faulted: [202, 403],
  },
  {
    id: 'ho4-ticket-scope-copied-from-vault',
    probe: async (m) => [
      status(await createTicket(m, {}, await tokenFor(m, 'without-sso-ticket-scope'))),
      status(await createTicket(m, {}, await tokenFor(m, 'global', 'create:sso_access_tickets'))),
    ],
    conformant: [403, 201],
    faulted: [201, 403],
  },
  // Requests
  {
    id: 'ho4-base-path-case-insensitive',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        status(await call(m, 'GET', vaultPath(ids(m).vault).replace('/api/v2/', '/API/V2/'), { token })),
        status(await call(m, 'GET', vaultPath(ids(m).vault).replace('/api/v2/', '/API/V9/'), { token })),
      ];
    },
    conformant: [404, 404],
    faulted: [200, 404],
  },
  {
    id: 'ho4-base-path-version-optional',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        status(await call(m, 'GET', vaultPath(ids(m).vault).replace('/api/v2/', '/api/'), { token })),
        status(await call(m, 'GET', vaultPath(ids(m).vault).replace('/api/v2/', '/api/v1/'), { token })),
      ];
    },
    conformant: [404, 404],
    faulted: [200, 404],
  },
  {
    id: 'ho4-redeliver-bare-token-accepted',
    probe: async (m) => {
      const token = await globalToken(m);
      const as = (authorization: string) => ({ headers: { authorization } });
      return [
        status(await call(m, 'POST', redeliverPath(ids(m).stream, ids(m).failedEvent), as(token))),
        status(await call(m, 'POST', redeliverPath(ids(m).stream, ids(m).failedEvent), as(`Basic ${token}`))),
        await readAs(m, token),
      ];
    },
    conformant: [401, 401, 401],
    faulted: [202, 401, 401],
  },
  {
    id: 'ho4-vault-bearer-tab-separated',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await readAs(m, `Bearer\t${token}`),
        await readAs(m, `Bearer\t${withTamperedSignature(token)}`),
        status(await call(m, 'POST', ticketPathOf(m), { body: {}, headers: { authorization: `Bearer\t${token}` } })),
      ];
    },
    conformant: [401, 401, 401],
    faulted: [200, 401, 401],
  },
  {
    id: 'ho4-custom-domain-checked-under-sdk-name',
    probe: async (m) => [
      status(await createTicket(m, {}, undefined, { 'tenant-custom-domain': 'ab', 'auth0-custom-domain': 'login.acme.example' })),
      status(await createTicket(m, {}, undefined, { 'tenant-custom-domain': 'ab' })),
    ],
    conformant: [400, 400],
    faulted: [201, 400],
  },
  {
    id: 'ho4-vault-id-matrix-parameter-cut',
    probe: async (m) => {
      const token = await globalToken(m);
      return [await readVault(m, token, `${ids(m).vault};v=1`), await readVault(m, token, `${ids(m).vault}!`)];
    },
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho4-custom-domain-in-capitals-dropped',
    probe: async (m) => [
      hostOf(await createTicket(m, {}, undefined, { 'tenant-custom-domain': 'Login.Acme.Example' })) === 'login.acme.example',
      hostOf(await createTicket(m, {}, undefined, { 'tenant-custom-domain': 'login.acme.example' })) === 'login.acme.example',
    ],
    conformant: [true, true],
    faulted: [false, true],
  },
  // Token endpoint
  {
    id: 'ho4-token-made-for-body-client-id',
    probe: async (m) => {
      const global = client(m, 'global');
      const other = fixtureClientId(m, 'non-global');
      const request = (secret: string) =>
        call(m, 'POST', '/oauth/token', {
          body: bareTokenForm(m, { client_id: other }),
          headers: { ...FORM, authorization: basic(global.client_id, secret) },
        });
      const answer = await request(global.client_secret);
      const token = fieldsOf(answer).access_token;
      return [answer.status, typeof token === 'string' && decodeJwt(token).azp === other, status(await request('not-the-secret'))];
    },
    conformant: [400, false, 400],
    faulted: [200, true, 400],
  },
  {
    id: 'ho4-token-json-list-read-as-string',
    probe: async (m) => {
      const asList = (grant: string) => call(m, 'POST', '/oauth/token', { body: { ...tokenRequest(m, 'global'), grant_type: [grant] } });
      return [status(await asList('client_credentials')), status(await asList('password'))];
    },
    conformant: [400, 400],
    faulted: [200, 400],
  },
  {
    id: 'ho4-token-grant-checked-per-client',
    probe: async (m) => [
      status(await tokenAnswer(m, { audience: REPORTS_API })),
      status(await tokenAnswer(m, { audience: 'https://unknown-api.example.com/' })),
    ],
    conformant: [403, 403],
    faulted: [200, 403],
  },
  {
    id: 'ho4-token-basic-credentials-decoded-twice',
    probe: async (m) => {
      const { client_id: id, client_secret: secret } = client(m, 'global');
      const hex = (c: string) => c.charCodeAt(0).toString(16);
      const other = secret[0] === 'f' ? 'g' : 'f';
      const request = (written: string) =>
        call(m, 'POST', '/oauth/token', { body: bareTokenForm(m), headers: { ...FORM, authorization: basic(id, written) } });
      return [
        status(await request(`%25${hex(secret)}${secret.slice(1)}`)),
        status(await request(`%${hex(secret)}${secret.slice(1)}`)),
        status(await request(`%25${hex(other)}${secret.slice(1)}`)),
      ];
    },
    conformant: [401, 200, 401],
    faulted: [200, 200, 401],
  },
  {
    id: 'ho4-token-parameters-from-query',
    probe: async (m) => {
      const { client_id: id, client_secret: secret } = client(m, 'global');
      const request = (written: string) =>
        call(m, 'POST', `/oauth/token?client_secret=${encodeURIComponent(written)}`, {
          body: bareTokenForm(m, { client_id: id }),
          headers: FORM,
        });
      return [status(await request(secret)), status(await request('not-the-secret'))];
    },
    conformant: [400, 400],
    faulted: [200, 401],
  },
  {
    id: 'ho4-token-expires-in-counted-from-exp',
    options: () => ({ clock: new ManualClock(Date.UTC(2025, 0, 1) + 250) }),
    probe: async (m) => {
      const answer = fieldsOf(await tokenAnswer(m, {}));
      const claims = decodeJwt(answer.access_token as string);
      return [answer.expires_in, claims.exp! - claims.iat!];
    },
    conformant: [86400, 86400],
    faulted: [86399, 86400],
  },
  {
    id: 'ho4-token-basic-answer-without-token-type',
    probe: async (m) => {
      const { client_id: id, client_secret: secret } = client(m, 'global');
      const withBasic = await call(m, 'POST', '/oauth/token', {
        body: bareTokenForm(m),
        headers: { ...FORM, authorization: basic(id, secret) },
      });
      return [withBasic.status, fieldsOf(withBasic).token_type ?? null, fieldsOf(await tokenAnswer(m, {})).token_type];
    },
    conformant: [200, 'Bearer', 'Bearer'],
    faulted: [200, null, 'Bearer'],
  },
  // Success answers
  {
    id: 'ho4-vault-fields-parameter-honoured',
    probe: async (m) => {
      const token = await globalToken(m);
      const selected = await read(m, token, `${ids(m).vault}?fields=id,name`);
      return [selected.status, 'app_id' in fieldsOf(selected), 'app_id' in fieldsOf(await read(m, token))];
    },
    conformant: [200, true, true],
    faulted: [200, false, true],
  },
  {
    id: 'ho4-vault-environment-from-account-name',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        fieldsOf(await read(m, token)).environment,
        String(fieldsOf(await read(m, token, ids(m).longestVault)).environment).length <= 55,
        'environment' in fieldsOf(await read(m, token, ids(m).minimalVault)),
      ];
    },
    conformant: ['production', true, false],
    faulted: ['acme-workspace', false, false],
  },
  {
    id: 'ho4-vault-id-echoed-as-sent',
    probe: async (m) => {
      const token = await globalToken(m);
      const escaped = await read(m, token, ids(m).longestVault.replace('_', '%5F'));
      return [
        escaped.status,
        fieldsOf(escaped).id === ids(m).longestVault,
        fieldsOf(await read(m, token, ids(m).longestVault)).id === ids(m).longestVault,
      ];
    },
    conformant: [200, true, true],
    faulted: [200, false, true],
  },
  {
    id: 'ho4-vault-text-view-for-accept',
    probe: async (m) => {
      const token = await globalToken(m);
      const accepting = async (accept: string) =>
        (await call(m, 'GET', vaultPath(ids(m).vault), { token, headers: { accept } })).headers['content-type'];
      return [await accepting('application/json, text/plain, */*'), await accepting('application/json')];
    },
    conformant: [observed.content_type, observed.content_type],
    faulted: ['text/plain; charset=utf-8', observed.content_type],
  },
  {
    id: 'ho4-ticket-answered-in-request-type',
    probe: async (m) => {
      const form = await formTicket(m, 'ttl_sec=3600');
      return [form.status, form.headers['content-type'], (await createTicket(m, { ttl_sec: 3600 })).headers['content-type']];
    },
    conformant: [201, observed.content_type, observed.content_type],
    faulted: [201, 'application/x-www-form-urlencoded', observed.content_type],
  },
  {
    id: 'ho4-vault-fingerprint-in-capitals',
    probe: async (m) => /^[0-9a-f]{32}$/.test(String(fieldsOf(await read(m, await globalToken(m))).fingerprint)),
    conformant: true,
    faulted: false,
  },
  {
    id: 'ho4-redeliver-202-without-charset',
    probe: async (m) => {
      const token = await globalToken(m);
      const answer = await redeliverAnswer(m, token);
      return [answer.status, answer.text, answer.headers['content-type'], (await read(m, token)).headers['content-type']];
    },
    conformant: [202, '{}', observed.content_type, observed.content_type],
    faulted: [202, '{}', 'application/json', observed.content_type],
  },
  // State and errors
  {
    id: 'ho4-redeliver-ids-read-by-prefix',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await redeliver(m, token, ids(m).failedEvent, ids(m).stream),
        await redeliver(m, token, ids(m).failedEvent, ids(m).failedEvent),
      ];
    },
    conformant: [400, 400],
    faulted: [202, 400],
  },
  {
    id: 'ho4-event-matched-on-first-characters',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await redeliver(m, token, ids(m).stream, unknownLike(ids(m).failedEvent)),
        await redeliver(m, token, ids(m).stream, changedEarly(ids(m).failedEvent)),
      ];
    },
    conformant: [404, 404],
    faulted: [202, 404],
  },
  {
    id: 'ho4-redeliver-states-blocklisted',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await redeliver(m, token, ids(m).stream, ids(m).pendingEvent),
        await redeliver(m, token, ids(m).stream, ids(m).deliveredEvent),
      ];
    },
    conformant: [409, 409],
    faulted: [202, 409],
  },
  {
    id: 'ho4-profile-unchecked-for-form-bodies',
    probe: async (m) => {
      const token = await globalToken(m);
      const path = profilePath(unknownLike(ids(m).profile));
      return [
        status(await call(m, 'POST', path, { token, body: 'ttl_sec=3600', headers: FORM })),
        status(await call(m, 'POST', path, { token, body: { ttl_sec: 3600 } })),
      ];
    },
    conformant: [404, 404],
    faulted: [201, 404],
  },
  {
    id: 'ho4-taken-name-unchecked-beside-connection-id',
    probe: async (m) => [
      await ticketStatus(m, { connection_id: ids(m).connection, connection_config: { name: ids(m).takenName } }),
      await ticketStatus(m, { connection_config: { name: ids(m).takenName } }),
    ],
    conformant: [409, 409],
    faulted: [201, 409],
  },
  {
    id: 'ho4-ticket-path-checked-before-scope',
    probe: async (m) => {
      const token = await tokenFor(m, 'without-sso-ticket-scope');
      return [
        status(await call(m, 'POST', profilePath('not-a-profile'), { token, body: {} })),
        status(await call(m, 'POST', ticketPathOf(m), { token, body: {} })),
      ];
    },
    conformant: [403, 403],
    faulted: [400, 403],
  },
  {
    id: 'ho4-second-validation-error-crashes',
    probe: async (m) => [
      status(await createTicket(m, { ttl_sec: 432001 }, undefined, { 'tenant-custom-domain': 'ab' })),
      status(await createTicket(m, {}, undefined, { 'tenant-custom-domain': 'ab' })),
      await ticketStatus(m, { ttl_sec: 432001 }),
    ],
    conformant: [400, 400, 400],
    faulted: [500, 400, 400],
  },
  {
    id: 'ho4-form-body-errors-as-query-errors',
    probe: async (m) => [errorCodeOf(await formTicket(m, 'ttl_sec=432001')), errorCodeOf(await createTicket(m, { ttl_sec: 432001 }))],
    conformant: ['invalid_body', 'invalid_body'],
    faulted: ['invalid_query', 'invalid_body'],
  },
  // Rate limit
  {
    id: 'ho4-fallback-429-without-headers',
    options: () => ({ ...TINY_BUCKET, ...MANUAL_CLOCK() }),
    probe: async (m) => {
      const token = await globalToken(m);
      await read(m, token);
      await read(m, token);
      const unknown = await call(m, 'GET', '/api/v2/no-such-resource', { token });
      const operation = await read(m, token);
      return [unknown, operation].map((answer) => [answer.status, answer.headers['x-ratelimit-limit'] !== undefined]);
    },
    conformant: [
      [429, true],
      [429, true],
    ],
    faulted: [
      [429, false],
      [429, true],
    ],
  },
  {
    id: 'ho4-redelivery-replayed-before-limiter',
    options: () => ({ ...TINY_BUCKET, ...MANUAL_CLOCK() }),
    probe: async (m) => {
      const token = await globalToken(m);
      const first = await redeliver(m, token);
      await read(m, token);
      return [first, await redeliver(m, token), await redeliver(m, token, ids(m).otherStream, ids(m).otherStreamEvent)];
    },
    conformant: [202, 429, 429],
    faulted: [202, 202, 429],
  },
  {
    id: 'ho4-refused-request-takes-a-token',
    options: () => ({ rateLimit: { bucketSize: 2, refillPerSecond: 1 }, ...MANUAL_CLOCK() }),
    probe: async (m) => {
      const token = await globalToken(m);
      await read(m, token);
      await read(m, token);
      const refused = await read(m, token);
      advance(m, 1000);
      const reset = Number(refused.headers['x-ratelimit-reset']);
      return [refused.status, reset <= nowSeconds(m), await readVault(m, token)];
    },
    conformant: [429, true, 200],
    faulted: [429, true, 429],
  },
  {
    id: 'ho4-reset-from-last-refill',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      const token = await globalToken(m);
      await read(m, token);
      advance(m, 60_000);
      const later = await read(m, token);
      return [later.status, Number(later.headers['x-ratelimit-reset']) >= nowSeconds(m)];
    },
    conformant: [200, true],
    faulted: [200, false],
  },
];

heldOutRoundTests({
  name: 'the fourth held-out round',
  prefix: 'ho4-',
  faults: heldOutRound4Faults,
  least: { faults: 50, contract: 30 },
  probes,
  signingKey,
});
