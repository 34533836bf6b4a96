// The forty-third round of held-out faults (mock/faults/held-out/round-43/): kept apart from the
// gate's catalogue and from the earlier rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says: a probe sends the near value, beside the
// unusual but legal form of another part that lets it through, to a conformant mock and to a
// faulted one, and the two answers differ as the row says, while the same value in the common form
// (or the other half of the rule) is answered alike by both.
import { decodeJwt } from 'jose';
import { heldOutRound43Faults } from '../faults/held-out/round-43/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client, tokenFor, tokenRequest, type Answer } from './support/http.ts';
import {
  FORM,
  JSON_TYPE,
  MANUAL_CLOCK,
  ORGANIZATION,
  REPORTS_API,
  TINY_BUCKET,
  createTicket,
  fieldsOf,
  formToken,
  globalToken,
  hostOf,
  ids,
  nowSeconds,
  probeKeyFile,
  readAs,
  readVault,
  redeliver,
  redeliverPath,
  status,
  ticketOn,
  ticketPath,
  ticketStatus,
  ticketText,
  tokenAnswer,
  tokenStatus,
  unknownLike,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-43');
const REDELIVER_SCOPE = 'update:event_deliveries';
const LIMIT = 'x-ratelimit-limit';
const PROBLEM_ACCEPT = 'application/problem+json, application/json;q=0.9';
const HTML_ACCEPT = 'text/html,application/json;q=0.9';

/** The id with its last character percent-encoded: the same URI (RFC 3986 6.2.2.2). */
const lastEncoded = (id: string) =>
  `${id.slice(0, -1)}%${id
    .charCodeAt(id.length - 1)
    .toString(16)
    .toUpperCase()}`;
/** A redelivery with this Authorization value, as written. */
const redeliverAs = async (m: MockServer, authorization: string, stream = ids(m).stream, event = ids(m).failedEvent) =>
  status(await call(m, 'POST', redeliverPath(stream, event), { headers: { authorization } }));
/** A redelivery with the global client's token, to this path and query as written. */
const redeliverAt = async (m: MockServer, path: string) => status(await call(m, 'POST', path, { token: await globalToken(m) }));
/** A vault read with this token and method. */
const vaultBy = async (m: MockServer, method: string, id: string) => call(m, method, vaultPath(id), { token: await globalToken(m) });
/** An answer's status, content type and errorCode (null where its body has none). */
const errorView = (answer: Answer) => [
  answer.status,
  answer.headers['content-type'],
  (answer.json as { errorCode?: string } | undefined)?.errorCode ?? null,
];
/** An answer's status, content type, and whether its body is a JSON object. */
const typeAndShape = (answer: Answer) => [
  answer.status,
  answer.headers['content-type'],
  answer.json !== null && typeof answer.json === 'object',
];
/** A token answer's status and its token's audience (null without a token). */
const audienceOf = (answer: Answer) => {
  const token = (answer.json as { access_token?: string } | undefined)?.access_token;
  return [answer.status, token === undefined ? null : decodeJwt(token).aud];
};
/** A token answer's status and the scope it reports (null without one). */
const scopeOf = (answer: Answer) => [answer.status, (answer.json as { scope?: string } | undefined)?.scope ?? null];
const basicOf = (m: MockServer) => {
  const { client_id, client_secret } = client(m, 'global');
  return `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString('base64')}`;
};
/** Whether every one of ten tickets made with this body has 32 alphanumerics for its code. */
const codesAlphanumeric = async (m: MockServer, body: unknown) => {
  const codes: string[] = [];
  for (let i = 0; i < 10; i += 1) codes.push(new URL(fieldsOf(await createTicket(m, body)).ticket as string).searchParams.get('ticket')!);
  return [codes.every((code) => code.length === 32), codes.every((code) => /^[A-Za-z0-9]{32}$/.test(code))];
};

const tokenProbes: Probe[] = [
  {
    id: 'ho43-nest-at-jwt-strategy-ignores-expiration',
    options: MANUAL_CLOCK,
    probe: async (m) => {
      const now = nowSeconds(m);
      const claims = await claimsOf(m);
      const expired = { ...claims, iat: now - 7200, exp: now - 3600 };
      return [
        await redeliver(m, signedAsIs(m, expired, { typ: 'at+jwt' })),
        await redeliver(m, signedAsIs(m, expired)),
        await redeliver(m, signedAsIs(m, expired, { typ: undefined })),
        await readVault(m, signedAsIs(m, claims, { typ: 'at+jwt' })),
      ];
    },
    conformant: [401, 401, 401, 200],
    faulted: [202, 401, 401, 200],
  },
  {
    id: 'ho43-kong-uppercase-scheme-anonymous-skips-issuer',
    probe: async (m) => {
      const foreign = signedAsIs(m, { ...(await claimsOf(m)), iss: 'https://other-tenant.example.com/' });
      return [
        await readAs(m, `BEARER ${foreign}`),
        await readAs(m, `Bearer ${foreign}`),
        await readAs(m, `BEARER ${withTamperedSignature(foreign)}`),
        await readAs(m, `BEARER ${await globalToken(m)}`),
      ];
    },
    conformant: [401, 401, 401, 200],
    faulted: [200, 401, 401, 200],
  },
  {
    id: 'ho43-nest-global-guard-split-double-space',
    probe: async (m) => {
      const nonGlobal = await tokenFor(m, 'non-global');
      const { otherStream, otherFailedEvent } = ids(m);
      return [
        await redeliverAs(m, `Bearer  ${nonGlobal}`),
        await redeliverAs(m, `Bearer ${nonGlobal}`),
        await redeliverAs(m, `Bearer  ${await globalToken(m)}`, otherStream, otherFailedEvent),
      ];
    },
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho43-istio-deny-regex-misses-encoded-id',
    probe: async (m) => {
      const withoutScope = await withScope(m, 'read:event_streams read:event_deliveries');
      const { stream, failedEvent, otherStream, otherFailedEvent } = ids(m);
      return [
        await redeliver(m, withoutScope, stream, lastEncoded(failedEvent)),
        await redeliver(m, withoutScope, stream, failedEvent),
        await redeliver(m, await withScope(m, REDELIVER_SCOPE), otherStream, lastEncoded(otherFailedEvent)),
      ];
    },
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
];

const requestProbes: Probe[] = [
  {
    id: 'ho43-kin-openapi-bom-body-passed-unvalidated',
    probe: async (m) => [
      await ticketText(m, '\uFEFF{"ttl_sec": 500000}'),
      await ticketText(m, '{"ttl_sec": 500000}'),
      await ticketText(m, '\uFEFF{"ttl_sec": "3600"}'),
      await ticketText(m, '\uFEFF{"ttl_sec": 3600.5}'),
      await ticketText(m, '\uFEFF{"ttl_sec": 3600}'),
    ],
    conformant: [400, 400, 400, 400, 201],
    faulted: [201, 400, 400, 400, 201],
  },
  {
    id: 'ho43-kong-pattern-misses-pretty-printed-member',
    probe: async (m) => [
      await ticketText(m, '{\n  "provisioning_config" : {\n    "token_lifetime" : 600\n  }\n}'),
      await ticketText(m, '{"provisioning_config":{"token_lifetime":600}}'),
      await ticketText(m, '{"provisioning_config" : {"token_lifetime" : 900}}'),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho43-express-form-route-skips-header-schema',
    probe: async (m) => {
      const form = (domain: string) => createTicket(m, 'ttl_sec=3600', undefined, { 'content-type': FORM, 'tenant-custom-domain': domain });
      const good = await form('login.partner.example');
      return [status(await form('ab')), status(await form('a'.repeat(256))), await ticketOn(m, 'ab'), status(good), hostOf(good)];
    },
    conformant: [400, 400, 400, 201, 'login.partner.example'],
    faulted: [201, 201, 400, 201, 'login.partner.example'],
  },
  {
    id: 'ho43-pydantic-before-validator-listifies-clients',
    probe: async (m) => {
      const organizations = [{ organization_id: ORGANIZATION }];
      return [
        await ticketStatus(m, { enabled_clients: 'abc', enabled_organizations: organizations }),
        await ticketStatus(m, { enabled_clients: 'abc' }),
        await ticketStatus(m, { enabled_clients: 42, enabled_organizations: organizations }),
        await ticketStatus(m, { enabled_clients: ['abc'], enabled_organizations: organizations }),
      ];
    },
    conformant: [400, 400, 400, 201],
    faulted: [201, 400, 400, 201],
  },
  {
    id: 'ho43-laravel-merge-if-missing-query-shadows-route',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const short = redeliverPath(stream, failedEvent.slice(0, 25));
      return [
        await redeliverAt(m, `${short}?event_id=${failedEvent}`),
        await redeliverAt(m, short),
        await redeliverAt(m, `${short}?event_id=${failedEvent.slice(0, 24)}`),
        await redeliverAt(m, `${redeliverPath(stream, failedEvent)}?event_id=${failedEvent}`),
      ];
    },
    conformant: [400, 400, 400, 202],
    faulted: [404, 400, 400, 202],
  },
  {
    id: 'ho43-gin-head-route-skips-uri-binding',
    probe: async (m) => {
      const { vault } = ids(m);
      const long = `${vault}${'x'.repeat(31 - vault.length)}`;
      return [
        status(await vaultBy(m, 'HEAD', long)),
        status(await vaultBy(m, 'GET', long)),
        status(await vaultBy(m, 'HEAD', vault)),
        status(await vaultBy(m, 'HEAD', unknownLike(vault))),
      ];
    },
    conformant: [400, 400, 200, 404],
    faulted: [404, 400, 200, 404],
  },
];

const endpointProbes: Probe[] = [
  {
    id: 'ho43-spring-grant-filter-on-slashed-path-only',
    probe: async (m) => {
      const reports = tokenRequest(m, 'global', { audience: REPORTS_API });
      return [
        audienceOf(await call(m, 'POST', '/oauth/token', { body: reports })),
        audienceOf(await call(m, 'POST', '/oauth/token/', { body: reports })),
        audienceOf(await call(m, 'POST', '/oauth/token', { body: tokenRequest(m, 'global') })),
      ];
    },
    conformant: [
      [403, null],
      [403, null],
      [200, 'https://tenant.example.com/api/v2/'],
    ],
    faulted: [
      [200, REPORTS_API],
      [403, null],
      [200, 'https://tenant.example.com/api/v2/'],
    ],
  },
  {
    id: 'ho43-fastapi-json-token-model-requires-client-id',
    probe: async (m) => {
      const fields = { grant_type: 'client_credentials', audience: m.audience };
      const basic = { authorization: basicOf(m) };
      return [
        status(await call(m, 'POST', '/oauth/token', { body: fields, headers: basic })),
        status(await call(m, 'POST', '/oauth/token', { body: tokenRequest(m, 'global') })),
        status(await formToken(m, new URLSearchParams(fields).toString(), basic)),
      ];
    },
    conformant: [200, 200, 200],
    faulted: [400, 200, 200],
  },
  {
    id: 'ho43-go-scope-loop-breaks-on-empty-element',
    probe: async (m) => [
      scopeOf(await tokenAnswer(m, { scope: 'read:event_streams  read:users' })),
      scopeOf(await tokenAnswer(m, { scope: ' read:users' })),
      scopeOf(await tokenAnswer(m, { scope: 'read:event_streams read:users' })),
      scopeOf(await tokenAnswer(m, { scope: `read:event_streams  ${REDELIVER_SCOPE}` })),
    ],
    conformant: [
      [403, null],
      [403, null],
      [403, null],
      [200, `read:event_streams ${REDELIVER_SCOPE}`],
    ],
    faulted: [
      [200, 'read:event_streams read:users'],
      [200, 'read:users'],
      [403, null],
      [200, `read:event_streams ${REDELIVER_SCOPE}`],
    ],
  },
  {
    id: 'ho43-aspnet-json-enum-grant-type-case',
    probe: async (m) => [
      await tokenStatus(m, { grant_type: 'Client_Credentials' }),
      await tokenStatus(m, { grant_type: 'CLIENT_CREDENTIALS' }),
      status(await formToken(m, new URLSearchParams(tokenRequest(m, 'global', { grant_type: 'Client_Credentials' })).toString())),
      await tokenStatus(m, { grant_type: 'password' }),
    ],
    conformant: [400, 400, 400, 400],
    faulted: [200, 200, 400, 400],
  },
  {
    id: 'ho43-api-gateway-template-exact-content-type',
    probe: async (m) => {
      const plain = new URLSearchParams(tokenRequest(m, 'global')).toString();
      const repeated = `${plain}&grant_type=password`;
      const charset = { 'content-type': `${FORM}; charset=UTF-8` };
      return [
        status(await formToken(m, repeated, charset)),
        status(await formToken(m, repeated)),
        status(await formToken(m, plain, charset)),
      ];
    },
    conformant: [400, 400, 200],
    faulted: [200, 400, 200],
  },
];

const answerProbes: Probe[] = [
  {
    id: 'ho43-nest-create-connection-branch-skips-profile',
    probe: async (m) => {
      const unknown = ticketPath(unknownLike(ids(m).profile));
      return [
        status(await createTicket(m, { connection_config: { name: 'brand-new-sso' } }, undefined, {}, unknown)),
        status(await createTicket(m, {}, undefined, {}, unknown)),
        status(await createTicket(m, { connection_id: ids(m).connection }, undefined, {}, unknown)),
        status(await createTicket(m, { connection_config: { name: 'another-new-sso' } })),
      ];
    },
    conformant: [404, 404, 404, 201],
    faulted: [201, 404, 404, 201],
  },
  {
    id: 'ho43-spring-problem-detail-for-accept',
    probe: async (m) => {
      const token = await withScope(m, 'read:users');
      const readWith = async (headers: Record<string, string>) =>
        errorView(await call(m, 'GET', vaultPath(ids(m).vault), { token, headers }));
      return [await readWith({ accept: PROBLEM_ACCEPT }), await readWith({ accept: JSON_TYPE }), await readWith({})];
    },
    conformant: [
      [403, 'application/json; charset=utf-8', 'insufficient_scope'],
      [403, 'application/json; charset=utf-8', 'insufficient_scope'],
      [403, 'application/json; charset=utf-8', 'insufficient_scope'],
    ],
    faulted: [
      [403, 'application/problem+json', null],
      [403, 'application/json; charset=utf-8', 'insufficient_scope'],
      [403, 'application/json; charset=utf-8', 'insufficient_scope'],
    ],
  },
  {
    id: 'ho43-spring-whitelabel-401-for-html-accept',
    probe: async (m) => {
      const tampered = withTamperedSignature(await globalToken(m));
      const readWith = async (token: string, accept: string) =>
        typeAndShape(await call(m, 'GET', vaultPath(ids(m).vault), { token, headers: { accept } }));
      return [
        await readWith(tampered, HTML_ACCEPT),
        await readWith(tampered, JSON_TYPE),
        await readWith(await withScope(m, 'read:users'), HTML_ACCEPT),
      ];
    },
    conformant: [
      [401, 'application/json; charset=utf-8', true],
      [401, 'application/json; charset=utf-8', true],
      [403, 'application/json; charset=utf-8', true],
    ],
    faulted: [
      [401, 'text/html;charset=UTF-8', false],
      [401, 'application/json; charset=utf-8', true],
      [403, 'application/json; charset=utf-8', true],
    ],
  },
  {
    id: 'ho43-rails-timed-ticket-urlsafe-code',
    probe: async (m) => [...(await codesAlphanumeric(m, { ttl_sec: 3600 })), ...(await codesAlphanumeric(m, { ttl_sec: 0 }))],
    conformant: [true, true, true, true],
    faulted: [true, false, true, true],
  },
  {
    id: 'ho43-kong-route-methods-leave-head-unlimited',
    options: TINY_BUCKET,
    probe: async (m) => {
      const seen: unknown[] = [];
      for (let i = 0; i < 2; i += 1) {
        const head = await vaultBy(m, 'HEAD', ids(m).vault);
        seen.push(head.status, head.headers[LIMIT] !== undefined);
      }
      seen.push(status(await vaultBy(m, 'GET', ids(m).vault)));
      return seen;
    },
    conformant: [200, true, 200, true, 429],
    faulted: [200, false, 200, false, 200],
  },
];

heldOutRoundTests({
  name: 'the forty-third held-out round',
  prefix: 'ho43-',
  faults: heldOutRound43Faults,
  least: { faults: 20, contract: 11 },
  probes: [...tokenProbes, ...requestProbes, ...endpointProbes, ...answerProbes],
  signingKey,
});
