// The thirty-third held-out round (mock/faults/held-out/round-33/): kept apart from the gate's
// catalogue and from the earlier rounds, each row naming a clause of the registry at its own level,
// and each fault shown to do what its bug line says: a probe sends the fault's near miss to a
// conformant mock and to a faulted one, and the two answers differ as the row says (and, where the
// fault lets only the near value through, a plainly wrong value is still refused by both). A fault
// that changed nothing would count as a survivor of the suite for no reason; this rules that out.
import { sign, generateKeyPairSync, KeyObject } from 'node:crypto';
import { decodeJwt } from 'jose';
import { heldOutRound33Faults } from '../faults/held-out/round-33/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, hs256WithPublicKey, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import { call } from './support/http.ts';
import {
  fieldsOf,
  fixtureClientId,
  globalToken,
  ids,
  probeKeyFile,
  read,
  record,
  redeliver,
  redeliverAnswer,
  status,
  ticketStatus,
  tokenAnswer,
  unknownLike,
  vaultPath,
  withScope,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-33');

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** The global client's claims signed RS384 (or another RSA digest) with `key` under the mock's kid. */
async function rsaSigned(m: MockServer, alg: string, digest: string, key: KeyObject | Parameters<typeof KeyObject.from>[0]) {
  const input = `${encode({ alg, typ: 'JWT', kid: m.keys.kid })}.${encode(await claimsOf(m))}`;
  const keyObject = key instanceof KeyObject ? key : KeyObject.from(key);
  return `${input}.${sign(digest, Buffer.from(input), keyObject).toString('base64url')}`;
}
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>) => Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) })));

const probes: Probe[] = [
  {
    id: 'ho33-alg-jsonwebtoken-rsa-default-algorithms',
    probe: async (m) => {
      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      return [
        await redeliver(m, await rsaSigned(m, 'RS384', 'sha384', m.keys.privateKey)),
        await redeliver(m, await rsaSigned(m, 'RS512', 'sha512', m.keys.privateKey)),
        await redeliver(m, await rsaSigned(m, 'RS384', 'sha384', other)),
        await redeliver(m, await hs256WithPublicKey(m, await globalToken(m))),
        await redeliver(m, await globalToken(m)),
      ];
    },
    conformant: [401, 401, 401, 401, 202],
    faulted: [202, 202, 401, 401, 202],
  },
  {
    id: 'ho33-iss-nextjs-url-origin',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, iss: `${String(c.iss)}api/v2/` })),
      await redeliverWith(m, (c) => ({ ...c, iss: 'https://other.example.com/' })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho33-token-lifetime-joi-number-unsafe',
    probe: async (m) => [
      await ticketStatus(m, { provisioning_config: { token_lifetime: 2 ** 53 + 2 } }),
      await ticketStatus(m, { provisioning_config: { token_lifetime: 9007199254740991 } }),
      await ticketStatus(m, { provisioning_config: { token_lifetime: '3600' } }),
    ],
    conformant: [201, 201, 400],
    faulted: [400, 201, 400],
  },
  {
    id: 'ho33-enabled-clients-joi-empty-string',
    probe: async (m) => [
      await ticketStatus(m, { enabled_clients: [''] }),
      await ticketStatus(m, { enabled_clients: [5] }),
      await ticketStatus(m, { enabled_clients: [fixtureClientId(m, 'global')] }),
    ],
    conformant: [201, 400, 201],
    faulted: [400, 400, 201],
  },
  {
    id: 'ho33-redeliver-nest-reflector-class-scopes',
    probe: async (m) => [
      await redeliver(m, await withScope(m, 'read:event_streams')),
      await redeliver(m, await withScope(m, 'read:event_deliveries')),
      await redeliver(m, await withScope(m, 'update:event_deliveries')),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho33-vault-id-object-prototype-key',
    probe: async (m) => {
      const token = await globalToken(m);
      const inherited = await read(m, token, 'constructor');
      return [
        inherited.status,
        inherited.text === '',
        status(await read(m, token, 'constructors')),
        status(await read(m, token, unknownLike(ids(m).vault))),
        status(await read(m, token)),
      ];
    },
    conformant: [400, false, 400, 404, 200],
    faulted: [200, true, 400, 404, 200],
  },
  {
    id: 'ho33-stream-id-validator-islength-selector',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, failedEvent } = ids(m);
      const selected = await redeliverAnswer(m, token, encodeURIComponent(`${stream}\uFE0F`), failedEvent);
      return [
        selected.status,
        fieldsOf(selected).errorCode,
        await redeliver(m, token, `${stream}x`, failedEvent),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: [400, 'invalid_uri', 400, 202],
    faulted: [404, undefined, 400, 202],
  },
  {
    id: 'ho33-audience-whatwg-missing-slashes',
    probe: async (m) => [
      status(await tokenAnswer(m, { audience: m.audience.replace('https://', 'https:') })),
      status(await tokenAnswer(m, { audience: 'https:other.example.com/api/v2/' })),
      status(await tokenAnswer(m, {})),
    ],
    conformant: [403, 403, 200],
    faulted: [200, 403, 200],
  },
  {
    id: 'ho33-token-fast-jwt-expires-in-milliseconds',
    probe: async (m) => {
      const answer = await tokenAnswer(m, {});
      const claims = decodeJwt(fieldsOf(answer).access_token as string);
      return [claims.exp! - claims.iat!, fieldsOf(answer).expires_in];
    },
    conformant: [86400, 86400],
    faulted: [86, 86400],
  },
  {
    id: 'ho33-fingerprint-drizzle-bigint-hex',
    probe: async (m) => [(await record(m, ids(m).longVault)).fingerprint, (await record(m)).fingerprint],
    conformant: ['0f1e2d3c4b5a69788796a5b4c3d2e1f0', '6d8cd5d8165fd55597d6ab7e02a78bf3'],
    faulted: ['f1e2d3c4b5a69788796a5b4c3d2e1f0', '6d8cd5d8165fd55597d6ab7e02a78bf3'],
  },
  {
    id: 'ho33-redeliver-prisma-p2025-not-found',
    probe: async (m) => {
      const token = await globalToken(m);
      const { stream, deliveredEvent, pendingEvent, failedEvent } = ids(m);
      return [
        await redeliver(m, token, stream, deliveredEvent),
        await redeliver(m, token, stream, pendingEvent),
        await redeliver(m, token, unknownLike(stream), failedEvent),
        await redeliver(m, token, stream, failedEvent),
      ];
    },
    conformant: [409, 409, 404, 202],
    faulted: [404, 404, 404, 202],
  },
  {
    id: 'ho33-reset-rate-limiter-flexible-iso-date',
    probe: async (m) => {
      const answer = await read(m, await globalToken(m));
      const refused = await call(m, 'GET', vaultPath(ids(m).vault));
      return [
        answer.status,
        /^\d+$/.test(answer.headers['x-ratelimit-reset'] ?? ''),
        refused.status,
        /^\d+$/.test(refused.headers['x-ratelimit-reset'] ?? ''),
      ];
    },
    conformant: [200, true, 401, true],
    faulted: [200, false, 401, false],
  },
];

heldOutRoundTests({
  name: 'the thirty-third held-out round',
  prefix: 'ho33-',
  faults: heldOutRound33Faults,
  least: { faults: 12, contract: 7 },
  probes,
  signingKey,
});
