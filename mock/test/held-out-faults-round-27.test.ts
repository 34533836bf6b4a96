// The twenty-seventh round of held-out faults (mock/faults/held-out/round-27/): kept apart from the
// gate's catalogue and from the first twenty-six rounds, each row naming a clause of the registry
// at its own level, and each fault shown to do what its bug line says: a probe sends the fault's
// near miss to a conformant mock and to a faulted one, and the two answers differ as the row says
// (and, where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { cards } from '../../specs/cards/index.ts';
import { heldOutRound27Faults } from '../faults/held-out/round-27/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, client } from './support/http.ts';
import {
  FORM,
  ORGANIZATION,
  TINY_BUCKET,
  anonymousRead,
  createTicket,
  fieldsOf,
  formToken,
  globalToken,
  ids,
  messageOf,
  probeKeyFile,
  read,
  readAs,
  readVault,
  record,
  redeliver,
  status,
  ticketStatus,
  tokenAnswer,
  unknownLike,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-27');
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>) => Record<string, unknown>, header = {}) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) }), header));
const redeliverRaw = async (m: MockServer, stream: string, event: string, headers: Record<string, string> = {}, token?: string) =>
  call(m, 'POST', `/api/v2/event-streams/${stream}/redeliver/${event}`, { token: token ?? (await globalToken(m)), headers });
const VAULT_SCOPE = cards.vault.scope.value;
const TICKET_SCOPE = cards['sso-ticket'].scope.value;
const REDELIVER_SCOPE = cards.redeliver.scope.value;
/** A form token request of the global client with these parameters changed (undefined leaves one out). */
const globalForm = (m: MockServer, overrides: Record<string, string | undefined> = {}) => {
  const { client_id, client_secret } = client(m, 'global');
  const fields: Record<string, string | undefined> = {
    grant_type: 'client_credentials',
    client_id,
    client_secret,
    audience: m.audience,
    ...overrides,
  };
  const kept = Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return new URLSearchParams(kept).toString();
};
const outcome = (answer: { status: number }) => (answer.status === 200 ? 'token' : 'refused');
/** The token with its header segment re-encoded from `edit` of its header, written with spaces. */
const reheadered = (token: string, edit: (header: Record<string, unknown>) => Record<string, unknown> = (h) => h) => {
  const [head, ...rest] = token.split('.');
  const header = edit(JSON.parse(Buffer.from(head!, 'base64url').toString('utf8')) as Record<string, unknown>);
  const spaced = JSON.stringify(header).replace(/":/g, '": ').replace(/,"/g, ', "');
  return [Buffer.from(spaced).toString('base64url'), ...rest].join('.');
};
/** The id with its first ASCII letter written in its fullwidth form. */
const fullwidthOnce = (id: string) => id.replace(/[A-Za-z]/, (letter) => String.fromCharCode(letter.charCodeAt(0) + 0xfee0));
const withScopeClaim = async (m: MockServer, scope: string) => signedAsIs(m, { ...(await claimsOf(m)), scope });
const organization = (member: Record<string, unknown>) => ({ enabled_organizations: [{ organization_id: ORGANIZATION, ...member }] });
const tinyBucketAnswers = async (m: MockServer) => {
  const token = await globalToken(m);
  const answers = [];
  for (let i = 0; i < 3; i += 1) answers.push(await read(m, token));
  return answers;
};

const probes: Probe[] = [
  {
    id: 'ho27-header-graphql-bridge-reserialised',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await redeliver(m, reheadered(token)),
        await redeliver(
          m,
          reheadered(token, (h) => ({ ...h, kid: unknownLike(String(h.kid)) })),
        ),
        await redeliver(m, token),
      ];
    },
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho27-iss-fastly-url-query-cleared',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iss: `${String(c.iss)}?` })),
      await redeliverWith(m, (c) => ({ ...c, iss: 'https://other.example/?' })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho27-iss-lambda-authorizer-https-forced',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iss: String(c.iss).replace(/^https:/, 'http:') })),
      await redeliverWith(m, (c) => ({ ...c, iss: 'http://other.example/' })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho27-kid-elixir-nfkc',
    probe: async (m) => [
      await redeliverWith(m, (c) => c, { kid: fullwidthOnce(m.keys.kid) }),
      await redeliverWith(m, (c) => c, { kid: unknownLike(m.keys.kid) }),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho27-alg-zig-nul-terminated',
    probe: async (m) => [
      await redeliverWith(m, (c) => c, { alg: 'RS256\u0000x' }),
      await redeliverWith(m, (c) => c, { alg: 'RS384' }),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho27-show-as-button-clojure-edn',
    probe: async (m) => [
      await ticketStatus(m, organization({ show_as_button: 'false' })),
      await ticketStatus(m, organization({ show_as_button: 'hidden' })),
      await ticketStatus(m, organization({ show_as_button: false })),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho27-enabled-features-thrift-set',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: ['sso', 'provisioning'] }),
      await ticketStatus(m, { enabled_features: ['everything'] }),
      await ticketStatus(m, { enabled_features: { sso: true, provisioning: true } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho27-provisioning-feature-cobol-flag',
    probe: async (m) => [
      await ticketStatus(m, { enabled_features: { provisioning: 1 } }),
      await ticketStatus(m, { enabled_features: { provisioning: 2 } }),
      await ticketStatus(m, { enabled_features: { provisioning: true } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho27-org-discovery-r-as-logical',
    probe: async (m) => [
      await ticketStatus(m, { use_for_organization_discovery: 'TRUE' }),
      await ticketStatus(m, { use_for_organization_discovery: 'yes' }),
      await ticketStatus(m, { use_for_organization_discovery: true }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho27-token-lifetime-jackson-duration',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { token_lifetime: 'PT1H' } }),
      await ticketStatus(m, { provisioning_config: { token_lifetime: 'an hour' } }),
      await ticketStatus(m, { provisioning_config: { token_lifetime: 3600 } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho27-jwt-keyword-flask-jwt',
    probe: async (m) => {
      const token = await globalToken(m);
      return [
        await readAs(m, `JWT ${token}`),
        await readAs(m, `Basic ${Buffer.from('a:b').toString('base64')}`),
        await readAs(m, `Bearer ${token}`),
      ];
    },
    conformant: [401, 401, 200],
    faulted: [200, 401, 200],
  },
  {
    id: 'ho27-scope-elasticsearch-fuzzy',
    probe: async (m) => {
      const swapped = `${REDELIVER_SCOPE.slice(0, -2)}${REDELIVER_SCOPE.slice(-1)}${REDELIVER_SCOPE.slice(-2, -1)}`;
      return [
        await redeliver(m, await withScopeClaim(m, swapped)),
        await redeliver(m, await withScopeClaim(m, 'delete:users')),
        await redeliver(m, await withScopeClaim(m, REDELIVER_SCOPE)),
      ];
    },
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho27-vault-scope-apigw-urldecode',
    probe: async (m) => [
      await readVault(m, await withScopeClaim(m, VAULT_SCOPE.replace(':', '%3A'))),
      await readVault(m, await withScopeClaim(m, 'read%3Ausers')),
      await readVault(m, await withScopeClaim(m, VAULT_SCOPE)),
    ],
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho27-ticket-scope-openresty-plus-split',
    probe: async (m) => {
      const ticketWith = async (scope: string) => status(await createTicket(m, {}, await withScopeClaim(m, scope)));
      return [await ticketWith(`read:users+${TICKET_SCOPE}`), await ticketWith('read:users+delete:users'), await ticketWith(TICKET_SCOPE)];
    },
    conformant: [403, 403, 201],
    faulted: [201, 403, 201],
  },
  {
    id: 'ho27-stream-id-tomcat-path-parameter',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [
        status(await redeliverRaw(m, `${stream};v=1`, failedEvent)),
        (await redeliverRaw(m, `${unknownLike(stream)};v=1`, failedEvent)).status >= 400,
        status(await redeliverRaw(m, stream, failedEvent)),
      ];
    },
    conformant: [400, true, 202],
    faulted: [202, true, 202],
  },
  {
    id: 'ho27-event-id-dynamodb-sort-key-prefix',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      return [
        status(await redeliverRaw(m, stream, encodeURIComponent(`EVENT#${failedEvent}`))),
        status(await redeliverRaw(m, stream, encodeURIComponent(`EVENT#${unknownLike(failedEvent)}`))),
        status(await redeliverRaw(m, stream, failedEvent)),
      ];
    },
    conformant: [400, 400, 202],
    faulted: [202, 400, 202],
  },
  {
    id: 'ho27-vault-id-servant-json-capture',
    probe: async (m) => {
      const token = await globalToken(m);
      const { vault } = ids(m);
      const near = await read(m, token, `"${vault}"`);
      return [near.status, fieldsOf(near).id, (await read(m, token, `"${unknownLike(vault)}"`)).status >= 400, await readVault(m, token)];
    },
    conformant: [400, undefined, true, 200],
    faulted: [200, 'ac_NbWaizZTo4vfWnCwDq76Vj', true, 200],
  },
  {
    id: 'ho27-vault-404-openresty-reason',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m), unknownLike(ids(m).vault));
      return [answer.status, messageOf(answer), fieldsOf(answer).statusCode];
    },
    conformant: [404, 'Connection not found', 404],
    faulted: [404, 'Not Found', 404],
  },
  {
    id: 'ho27-grant-type-ring-merged-params',
    probe: async (m) => {
      const withoutGrant = globalForm(m, { grant_type: undefined });
      const post = (query: string) => call(m, 'POST', `/oauth/token${query}`, { body: withoutGrant, headers: { 'content-type': FORM } });
      return [
        status(await post('?grant_type=client_credentials')),
        status(await post('?grant_type=password')),
        status(await formToken(m, globalForm(m))),
      ];
    },
    conformant: [400, 400, 200],
    faulted: [200, 400, 200],
  },
  {
    id: 'ho27-audience-worker-empty-port',
    probe: async (m) => {
      const host = new URL(m.audience).host;
      return [
        status(await formToken(m, globalForm(m, { audience: m.audience.replace(host, `${host}:`) }))),
        status(await formToken(m, globalForm(m, { audience: m.audience.replace(host, `${new URL(m.audience).hostname}:8443`) }))),
        status(await formToken(m, globalForm(m))),
      ];
    },
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho27-client-id-axum-subject-suffix',
    probe: async (m) => {
      const id = client(m, 'global').client_id;
      return [
        outcome(await formToken(m, globalForm(m, { client_id: `${id}@clients` }))),
        outcome(await formToken(m, globalForm(m, { client_id: `${unknownLike(id)}@clients` }))),
        outcome(await formToken(m, globalForm(m))),
      ];
    },
    conformant: ['refused', 'refused', 'token'],
    faulted: ['token', 'refused', 'token'],
  },
  {
    id: 'ho27-token-error-protobuf-enum-name',
    probe: async (m) => {
      const answer = await formToken(m, globalForm(m, { client_secret: 'not-the-secret' }));
      return [answer.status, fieldsOf(answer).error, typeof fieldsOf(answer).error_description];
    },
    conformant: [401, 'invalid_client', 'string'],
    faulted: [401, 'INVALID_CLIENT', 'string'],
  },
  {
    id: 'ho27-token-answer-protobuf-camel-names',
    probe: async (m) => {
      const answer = await tokenAnswer(m, {});
      const fields = fieldsOf(answer);
      return [answer.status, typeof fields.access_token, typeof fields.accessToken, typeof fields.expires_in, typeof fields.expiresIn];
    },
    conformant: [200, 'string', 'undefined', 'number', 'undefined'],
    faulted: [200, 'undefined', 'string', 'undefined', 'number'],
  },
  {
    id: 'ho27-granted-scope-dynamodb-string-set',
    probe: async (m) => {
      const answer = await tokenAnswer(m, { scope: `${REDELIVER_SCOPE} ${VAULT_SCOPE}` });
      return [answer.status, Array.isArray(fieldsOf(answer).scope), typeof fieldsOf(answer).access_token];
    },
    conformant: [200, false, 'string'],
    faulted: [200, true, 'string'],
  },
  {
    id: 'ho27-created-at-mongo-extended-json',
    probe: async (m) => {
      const fields = await record(m);
      return [typeof fields.created_at, fields.updated_at];
    },
    conformant: ['string', '2024-09-12T12:52:16.553Z'],
    faulted: ['object', '2024-09-12T12:52:16.553Z'],
  },
  {
    id: 'ho27-refreshed-at-gleam-unix-seconds',
    probe: async (m) => {
      const fields = await record(m);
      return [typeof fields.refreshed_at, typeof fields.created_at];
    },
    conformant: ['string', 'string'],
    faulted: ['number', 'string'],
  },
  {
    id: 'ho27-ticket-fastly-text-plain',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      return [answer.status, answer.headers['content-type']];
    },
    conformant: [201, 'application/json; charset=utf-8'],
    faulted: [201, 'text/plain; charset=utf-8'],
  },
  {
    id: 'ho27-ticket-url-apim-url-encoded',
    probe: async (m) => {
      const answer = await createTicket(m, {});
      return [
        answer.status,
        String(fieldsOf(answer).ticket).startsWith('https://'),
        String(fieldsOf(answer).ticket).startsWith('https%3A%2F%2F'),
      ];
    },
    conformant: [201, true, false],
    faulted: [201, false, true],
  },
  {
    id: 'ho27-vault-odata-context',
    probe: async (m) => {
      const fields = await record(m);
      return ['@odata.context' in fields, fields.id];
    },
    conformant: [false, 'ac_NbWaizZTo4vfWnCwDq76Vj'],
    faulted: [true, 'ac_NbWaizZTo4vfWnCwDq76Vj'],
  },
  {
    id: 'ho27-redeliver-delivered-avro-enum',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, pendingEvent, deliveredEvent } = ids(m);
      return [await redeliver(m, token, stream, deliveredEvent), await redeliver(m, token, stream, pendingEvent)];
    },
    conformant: [409, 409],
    faulted: [202, 409],
  },
  {
    id: 'ho27-global-envoy-header-trusted',
    probe: async (m) => {
      const { stream, failedEvent } = ids(m);
      const nonGlobal = signedAsIs(m, { ...(await claimsOf(m, 'non-global')) });
      return [
        status(await redeliverRaw(m, stream, failedEvent, { 'x-client-global': 'true' }, nonGlobal)),
        status(await redeliverRaw(m, stream, failedEvent, {}, nonGlobal)),
        status(await redeliverRaw(m, stream, failedEvent, { 'x-client-global': 'true' })),
      ];
    },
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho27-errors-graphql-errors-list',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m), unknownLike(ids(m).vault));
      return [answer.status, Object.keys(fieldsOf(answer)).includes('errors'), typeof fieldsOf(answer).message];
    },
    conformant: [404, false, 'string'],
    faulted: [404, true, 'undefined'],
  },
  {
    id: 'ho27-401-apim-validate-jwt-message',
    probe: async (m) => {
      const answer = await anonymousRead(m);
      return [answer.status, messageOf(answer) === 'Unauthorized. Access token is missing or invalid.', fieldsOf(answer).statusCode];
    },
    conformant: [401, false, 401],
    faulted: [401, true, 401],
  },
  {
    id: 'ho27-429-api-gateway-throttle-body',
    options: TINY_BUCKET,
    probe: async (m) => {
      const answers = await tinyBucketAnswers(m);
      return [answers.map(status), Object.keys(fieldsOf(answers[2]!)).sort()];
    },
    conformant: [
      [200, 200, 429],
      ['error', 'errorCode', 'message', 'statusCode'],
    ],
    faulted: [[200, 200, 429], ['message']],
  },
  {
    id: 'ho27-429-envoy-headers-appended',
    options: TINY_BUCKET,
    probe: async (m) => {
      const answers = await tinyBucketAnswers(m);
      return [answers.map(status), answers[0]!.headers['x-ratelimit-limit'], answers[2]!.headers['x-ratelimit-limit']];
    },
    conformant: [[200, 200, 429], '2', '2'],
    faulted: [[200, 200, 429], '2', '2, 2'],
  },
  {
    id: 'ho27-ratelimit-reset-openresty-fraction',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m));
      const reset = answer.headers['x-ratelimit-reset'] ?? '';
      return [answer.status, /^\d+$/.test(reset), answer.headers['x-ratelimit-limit'] !== undefined];
    },
    conformant: [200, true, true],
    faulted: [200, false, true],
  },
];

heldOutRoundTests({
  name: 'the twenty-seventh held-out round',
  prefix: 'ho27-',
  faults: heldOutRound27Faults,
  least: { faults: 36, contract: 20 },
  probes,
  signingKey,
});
