// The forty-second round of held-out faults (mock/faults/held-out/round-42/): kept apart from the
// gate's catalogue and from the earlier rounds, each row naming a clause of the registry at its own
// level, and each fault shown to do what its bug line says. The round's faults show only after an
// earlier request, so each probe sends the near value before and after the request that sets the
// fault off, to a conformant mock and to a faulted one: the answers differ only after it, as the row
// says, while a plainly wrong value (or the other half of the rule) is answered alike by both.
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { observed } from '../../specs/index.ts';
import { heldOutRound42Faults } from '../faults/held-out/round-42/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs, withTamperedSignature } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call, tokenFor } from './support/http.ts';
import {
  CLOCKED_BUCKET,
  MANUAL_CLOCK,
  PARTNER_DOMAIN,
  REPORTS_API,
  advance,
  anonymousRead,
  bucketOf,
  createTicket,
  fieldsOf,
  fixtureClientId,
  globalToken,
  ids,
  messageOf,
  nowSeconds,
  probeKeyFile,
  read,
  readVault,
  redeliver,
  redeliverAnswer,
  status,
  ticketHost,
  ticketStatus,
  tokenAnswer,
  tokenStatus,
  unknownLike,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-42');
const REMAINING = 'x-ratelimit-remaining';
const RESET = 'x-ratelimit-reset';
const EXPIRED = observed.errors.expired_token!.message!;
const MISSING = observed.errors.missing_authentication!.message!;
const BAD_SIGNATURE = observed.errors.invalid_signature!.message!;
const EVENT_NOT_FOUND = 'The requested event does not exist.';
const STREAM_NOT_FOUND = observed.errors.stream_not_found!.message!;
const VAULT_NOT_FOUND = observed.errors.vault_connection_not_found!.message!;
const SCOPE_PREFIX = observed.errors.insufficient_scope!.prefix!;

/** The global client's claims, expired an hour ago by the mock's clock. */
const expiredToken = async (m: MockServer) => {
  const now = nowSeconds(m);
  return signedAsIs(m, { ...(await claimsOf(m)), iat: now - 7200, exp: now - 3600 });
};
const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
const PRIVATE_KEY_JWT = createPrivateKey(readFileSync(new URL('../fixtures/private-key-jwt-client.key.pem', import.meta.url), 'utf8'));
/** A valid client assertion of the private-key-jwt client, with a jti of its own. */
const assertionOf = (m: MockServer) => {
  const id = fixtureClientId(m, 'private-key-jwt');
  const now = nowSeconds(m);
  const claims = { iss: id, sub: id, aud: m.issuer, iat: now, exp: now + 60, jti: randomUUID() };
  const input = `${b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${sign('sha256', Buffer.from(input), PRIVATE_KEY_JWT).toString('base64url')}`;
};
/** A JSON token request authenticated by this client assertion. */
const withAssertion = async (m: MockServer, assertion: string) =>
  status(
    await call(m, 'POST', '/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        audience: m.audience,
        client_assertion_type: observed.tokens.client_assertion.type,
        client_assertion: assertion,
      },
    }),
  );
/** A vault read's status and X-RateLimit-Remaining. */
const remainingAfterRead = async (m: MockServer, token: string) => Number((await read(m, token)).headers[REMAINING]);
/** A read's status, and for a 429 whether its X-RateLimit-Reset is still to come. */
const readAndReset = async (m: MockServer, token: string) => {
  const answer = await read(m, token);
  return answer.status === 429 ? [429, Number(answer.headers[RESET]) >= nowSeconds(m)] : [answer.status];
};

const verificationProbes: Probe[] = [
  {
    id: 'ho42-go-sync-map-caller-by-azp',
    probe: async (m) => {
      const tampered = withTamperedSignature(await globalToken(m));
      return [
        await redeliver(m, tampered),
        await redeliver(m, await globalToken(m)),
        await redeliver(m, tampered),
        await readVault(m, withTamperedSignature(await tokenFor(m, 'non-global'))),
        await redeliver(m, await expiredToken(m)),
      ];
    },
    conformant: [401, 202, 401, 401, 401],
    faulted: [401, 202, 202, 401, 401],
  },
  {
    id: 'ho42-keyfunc-unknown-kid-last-key',
    probe: async (m) => {
      const claims = await claimsOf(m);
      const unknownKid = signedAsIs(m, claims, { kid: 'rotated-away' });
      return [
        await readVault(m, unknownKid),
        await readVault(m, await globalToken(m)),
        await readVault(m, unknownKid),
        await readVault(m, withTamperedSignature(unknownKid)),
        await readVault(m, signedAsIs(m, claims, { kid: undefined })),
      ];
    },
    conformant: [401, 200, 401, 401, 401],
    faulted: [401, 200, 200, 401, 401],
  },
  {
    id: 'ho42-spring-entry-point-last-exception',
    options: MANUAL_CLOCK,
    probe: async (m) => [
      messageOf(await anonymousRead(m)),
      messageOf(await read(m, await expiredToken(m))),
      messageOf(await anonymousRead(m)),
      messageOf(await read(m, withTamperedSignature(await globalToken(m)))),
    ],
    conformant: [MISSING, EXPIRED, MISSING, BAD_SIGNATURE],
    faulted: [MISSING, EXPIRED, EXPIRED, BAD_SIGNATURE],
  },
  {
    id: 'ho42-go-sync-pool-scope-set-uncleared',
    probe: async (m) => {
      const narrow = await withScope(m, 'read:event_streams read:event_deliveries');
      return [await redeliver(m, narrow), await redeliver(m, await globalToken(m)), await redeliver(m, narrow)];
    },
    conformant: [403, 202, 403],
    faulted: [403, 202, 202],
  },
  {
    id: 'ho42-aspnet-problem-details-memoised-by-status',
    probe: async (m) => [
      messageOf(await read(m, await tokenFor(m, 'without-vault-scope'))),
      messageOf(await createTicket(m, {}, await tokenFor(m, 'without-sso-ticket-scope'))),
    ],
    conformant: [`${SCOPE_PREFIX}read:flows_vault_connections`, `${SCOPE_PREFIX}create:sso_access_tickets`],
    faulted: [`${SCOPE_PREFIX}read:flows_vault_connections`, `${SCOPE_PREFIX}read:flows_vault_connections`],
  },
];

const stateProbes: Probe[] = [
  {
    id: 'ho42-go-sync-map-missing-event-keyed-by-stream',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent, otherStream, otherFailedEvent } = ids(m);
      return [
        await redeliver(m, token),
        await redeliver(m, token, stream, unknownLike(failedEvent)),
        await redeliver(m, token),
        await redeliver(m, token, otherStream, otherFailedEvent),
      ];
    },
    conformant: [202, 404, 202, 202],
    faulted: [202, 404, 404, 202],
  },
  {
    id: 'ho42-redis-missing-stream-key-cut',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent, deliveredEvent, otherStream, otherFailedEvent } = ids(m);
      return [
        await redeliver(m, token),
        await redeliver(m, token, unknownLike(stream), failedEvent),
        await redeliver(m, token),
        await redeliver(m, token, stream, deliveredEvent),
        await redeliver(m, token, otherStream, otherFailedEvent),
      ];
    },
    conformant: [202, 404, 202, 409, 202],
    faulted: [202, 404, 404, 404, 202],
  },
  {
    id: 'ho42-caffeine-vault-misses-lowercased',
    probe: async (m) => {
      const token = await globalToken(m);
      const { vault, plainVault } = ids(m);
      return [
        await readVault(m, token),
        await readVault(m, token, vault.toLowerCase()),
        await readVault(m, token),
        await readVault(m, token, plainVault),
      ];
    },
    conformant: [200, 404, 200, 200],
    faulted: [200, 404, 404, 200],
  },
  {
    id: 'ho42-go-once-value-redeliver-404-body',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent, vault } = ids(m);
      return [
        messageOf(await redeliverAnswer(m, token, stream, unknownLike(failedEvent))),
        messageOf(await redeliverAnswer(m, token, unknownLike(stream), failedEvent)),
        messageOf(await read(m, token, unknownLike(vault))),
      ];
    },
    conformant: [EVENT_NOT_FOUND, STREAM_NOT_FOUND, VAULT_NOT_FOUND],
    faulted: [EVENT_NOT_FOUND, EVENT_NOT_FOUND, VAULT_NOT_FOUND],
  },
];

const ticketProbes: Probe[] = [
  {
    id: 'ho42-nestjs-validation-memo-keyed-by-body',
    probe: async (m) => {
      const short = { 'tenant-custom-domain': 'ab' };
      return [
        status(await createTicket(m, { ttl_sec: 3600 }, undefined, short)),
        status(await createTicket(m, { ttl_sec: 3600 })),
        status(await createTicket(m, { ttl_sec: 3600 }, undefined, short)),
        status(await createTicket(m, { ttl_sec: 60 }, undefined, short)),
      ];
    },
    conformant: [400, 201, 400, 400],
    faulted: [400, 201, 201, 400],
  },
  {
    id: 'ho42-express-defaults-object-assign-target',
    probe: async (m) => [
      await ticketStatus(m, {}),
      await ticketStatus(m, { connection_config: { name: ids(m).takenName } }),
      await ticketStatus(m, {}),
      await ticketStatus(m, { connection_config: { name: 'acme-new-sso' } }),
      await ticketStatus(m, {}),
    ],
    conformant: [201, 409, 201, 201, 201],
    faulted: [201, 409, 409, 201, 201],
  },
  {
    id: 'ho42-express-custom-domain-module-variable',
    probe: async (m) => {
      const tenant = await ticketHost(m, {});
      return [
        await ticketHost(m, { 'tenant-custom-domain': PARTNER_DOMAIN }),
        (await ticketHost(m, {})) === tenant,
        await ticketHost(m, { 'tenant-custom-domain': 'login.other.example' }),
      ];
    },
    conformant: [PARTNER_DOMAIN, true, 'login.other.example'],
    faulted: [PARTNER_DOMAIN, false, 'login.other.example'],
  },
];

const tokenProbes: Probe[] = [
  {
    id: 'ho42-lru-token-per-client-audience',
    probe: async (m) => [
      fieldsOf(await tokenAnswer(m, { scope: 'read:event_streams' })).scope,
      String(fieldsOf(await tokenAnswer(m, {})).scope).includes('update:event_deliveries'),
      status(await tokenAnswer(m, { client_secret: 'not-the-secret' })),
      String(fieldsOf(await tokenAnswer(m, {}, 'non-global')).scope).includes('update:event_deliveries'),
    ],
    conformant: ['read:event_streams', true, 401, true],
    faulted: ['read:event_streams', false, 401, true],
  },
  {
    id: 'ho42-grant-handler-memoised-per-client',
    probe: async (m) => [
      await tokenStatus(m, { grant_type: 'password' }),
      await tokenStatus(m, {}),
      await tokenStatus(m, { grant_type: 'password' }),
      status(await tokenAnswer(m, { grant_type: 'password' }, 'non-global')),
    ],
    conformant: [400, 200, 400, 400],
    faulted: [400, 200, 200, 400],
  },
  {
    id: 'ho42-grant-lookup-memoised-per-client',
    probe: async (m) => {
      const withoutSlash = m.audience.slice(0, -1);
      return [
        await tokenStatus(m, { audience: REPORTS_API }),
        await tokenStatus(m, { audience: withoutSlash }),
        await tokenStatus(m, {}),
        await tokenStatus(m, { audience: REPORTS_API }),
        await tokenStatus(m, { audience: withoutSlash }),
        await tokenStatus(m, { audience: REPORTS_API, client_secret: 'not-the-secret' }),
      ];
    },
    conformant: [403, 403, 200, 403, 403, 401],
    faulted: [403, 403, 200, 200, 200, 401],
  },
  {
    id: 'ho42-redis-last-jti-per-client',
    probe: async (m) => {
      const first = assertionOf(m);
      return [
        await withAssertion(m, first),
        await withAssertion(m, first),
        await withAssertion(m, assertionOf(m)),
        await withAssertion(m, first),
      ];
    },
    conformant: [200, 401, 200, 401],
    faulted: [200, 401, 200, 200],
  },
];

const rateLimitProbes: Probe[] = [
  {
    id: 'ho42-kong-service-limiter-counts-token-route',
    options: bucketOf(10),
    probe: async (m) => {
      const token = await globalToken(m);
      const first = await remainingAfterRead(m, token);
      const tokenStatusBetween = status(await tokenAnswer(m, {}));
      const second = await remainingAfterRead(m, token);
      const third = await remainingAfterRead(m, token);
      return [tokenStatusBetween, first - second, second - third];
    },
    conformant: [200, 1, 1],
    faulted: [200, 2, 1],
  },
  {
    id: 'ho42-redis-lua-bucket-refusal-drops-refill',
    options: CLOCKED_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [await redeliver(m, token), await redeliver(m, token), await redeliver(m, token)];
      for (const wait of [600, 600, 1000]) {
        advance(m, wait);
        answers.push(await redeliver(m, token));
      }
      return answers;
    },
    conformant: [202, 202, 429, 429, 202, 202],
    faulted: [202, 202, 429, 429, 429, 202],
  },
  {
    id: 'ho42-nestjs-429-rendered-once',
    options: CLOCKED_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [await readAndReset(m, token), await readAndReset(m, token), await readAndReset(m, token)];
      advance(m, 10_000);
      answers.push(await readAndReset(m, token), await readAndReset(m, token), await readAndReset(m, token));
      return answers;
    },
    conformant: [[200], [200], [429, true], [200], [200], [429, true]],
    faulted: [[200], [200], [429, true], [200], [200], [429, false]],
  },
];

heldOutRoundTests({
  name: 'the forty-second held-out round',
  prefix: 'ho42-',
  faults: heldOutRound42Faults,
  least: { faults: 19, contract: 11 },
  probes: [...verificationProbes, ...stateProbes, ...ticketProbes, ...tokenProbes, ...rateLimitProbes],
  signingKey,
});
