// The thirty-fifth round of held-out faults (mock/faults/held-out/round-35/): kept apart from the
// gate's catalogue and from the first thirty-four rounds, each row naming a clause of the registry
// at its own level, and each fault shown to do what its bug line says: a probe sends the fault's
// near miss to a conformant mock and to a faulted one, and the two answers differ as the row says
// (and, where the fault lets only the near value through, a plainly wrong value is still refused by
// both). A fault that changed nothing would count as a survivor of the suite for no reason; this
// rules that out.
import { cards } from '../../specs/cards/index.ts';
import { heldOutRound35Faults } from '../faults/held-out/round-35/catalogue.ts';
import type { MockServer } from '../index.ts';
import { claimsOf, signedAsIs } from './support/forged-tokens.ts';
import { heldOutRoundTests, type Probe } from './support/held-out-round.ts';
import {
  TINY_BUCKET,
  fieldsOf,
  fixtureClientId,
  globalToken,
  ids,
  probeKeyFile,
  read,
  redeliver,
  status,
  ticketStatus,
  ticketText,
} from './support/probe-kit.ts';

const signingKey = probeKeyFile('held-out-faults-round-35');
const REDELIVER_SCOPE = cards.redeliver.scope.value;
const NAME_IDENTIFIER = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/nameidentifier';
/** A redelivery with the global client's claims changed by `edit`, signed with the mock's key. */
const redeliverWith = async (m: MockServer, edit: (claims: Record<string, unknown>) => Record<string, unknown>) =>
  redeliver(m, signedAsIs(m, edit({ ...(await claimsOf(m)) })));
const withScopeClaim = async (m: MockServer, scope: string) => signedAsIs(m, { ...(await claimsOf(m)), scope });
const provisioning = (scopes: unknown) => ({ provisioning_config: { scopes } });

const probes: Probe[] = [
  {
    id: 'ho35-aud-aspnet-valid-audiences-issuer',
    probe: async (m) => [
      await redeliverWith(m, (c) => ({ ...c, aud: c.iss })),
      await redeliverWith(m, (c) => ({ ...c, aud: `${String(c.iss)}api/v1/` })),
      await redeliverWith(m, (c) => c),
    ],
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho35-sub-aspnet-mapped-nameidentifier',
    probe: async (m) => {
      const other = `${fixtureClientId(m, 'non-global')}@clients`;
      return [
        await redeliverWith(m, (c) => ({ [NAME_IDENTIFIER]: `${String(c.azp)}@clients`, ...c, sub: other })),
        await redeliverWith(m, (c) => ({ ...c, sub: other })),
        await redeliverWith(m, (c) => c),
      ];
    },
    conformant: [401, 401, 202],
    faulted: [202, 401, 202],
  },
  {
    id: 'ho35-ttl-jackson-leading-zeros',
    probe: async (m) => [
      await ticketText(m, '{"ttl_sec": 03600}'),
      await ticketText(m, '{"ttl_sec": 0x10}'),
      await ticketText(m, '{"ttl_sec": 3600}'),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho35-body-jackson-trailing-tokens',
    probe: async (m) => [
      await ticketText(m, '{"ttl_sec": 3600} {"ttl_sec": -1}'),
      await ticketText(m, '{"ttl_sec": 3600} trailing'),
      await ticketText(m, '{"ttl_sec": 3600,'),
      await ticketText(m, '{"ttl_sec": 3600}'),
    ],
    conformant: [400, 400, 400, 201],
    faulted: [201, 201, 400, 201],
  },
  {
    id: 'ho35-provisioning-scopes-jackson-unknown-enum-null',
    probe: async (m) => [
      await ticketStatus(m, provisioning(['get:users', 'get:widgets'])),
      await ticketStatus(m, provisioning(['get:widgets'])),
      await ticketStatus(m, provisioning(['get:users'])),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho35-token-lifetime-jackson-empty-string-null',
    probe: async (m) => {
      const lifetime = (token_lifetime: unknown) => ({ provisioning_config: { scopes: ['get:users'], token_lifetime } });
      return [await ticketStatus(m, lifetime('')), await ticketStatus(m, lifetime('3600')), await ticketStatus(m, lifetime(null))];
    },
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho35-connection-name-dotnet-unicode-digit',
    probe: async (m) => [
      await ticketStatus(m, { connection_config: { name: 'conn-\u0663' } }),
      await ticketStatus(m, { connection_config: { name: 'conn_3' } }),
      await ticketStatus(m, { connection_config: { name: 'conn-4' } }),
    ],
    conformant: [400, 400, 201],
    faulted: [201, 400, 201],
  },
  {
    id: 'ho35-redeliver-micronaut-secured-any-of',
    probe: async (m) => [
      await redeliver(m, await withScopeClaim(m, 'read:event_streams')),
      await redeliver(m, await withScopeClaim(m, 'read:flows_vault_connections')),
      await redeliver(m, await withScopeClaim(m, REDELIVER_SCOPE)),
    ],
    conformant: [403, 403, 202],
    faulted: [202, 403, 202],
  },
  {
    id: 'ho35-vault-id-spring-semicolon-content',
    probe: async (m) => {
      const token = await globalToken(m);
      const vault = ids(m).vault;
      return [
        status(await read(m, token, `${vault};jsessionid=0A1B2C3D`)),
        status(await read(m, token, `${vault}:jsessionid=0A1B2C3D`)),
        status(await read(m, token, vault)),
      ];
    },
    conformant: [400, 400, 200],
    faulted: [200, 400, 200],
  },
  {
    id: 'ho35-vault-record-stj-reference-preserve',
    probe: async (m) => {
      const fields = fieldsOf(await read(m, await globalToken(m)));
      return ['$id' in fields, fields.id === ids(m).vault];
    },
    conformant: [false, true],
    faulted: [true, true],
  },
  {
    id: 'ho35-429-aspnet-rejection-status-503',
    options: TINY_BUCKET,
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [await read(m, token), await read(m, token), await read(m, token)];
      return answers.map((a) => [a.status, 'x-ratelimit-limit' in a.headers]);
    },
    conformant: [
      [200, true],
      [200, true],
      [429, true],
    ],
    faulted: [
      [200, true],
      [200, true],
      [503, true],
    ],
  },
  {
    id: 'ho35-limit-aspnetcoreratelimit-period',
    options: { rateLimit: { bucketSize: 5, refillPerSecond: 0.001 } },
    probe: async (m) => {
      const token = await globalToken(m);
      const answers = [await read(m, token), await read(m, token)];
      return answers.map((a) => [a.headers['x-ratelimit-limit'], a.headers['x-ratelimit-remaining']]);
    },
    conformant: [
      ['5', '4'],
      ['5', '3'],
    ],
    faulted: [
      ['1s', '4'],
      ['1s', '3'],
    ],
  },
];

heldOutRoundTests({
  name: 'the thirty-fifth held-out round',
  prefix: 'ho35-',
  faults: heldOutRound35Faults,
  least: { faults: 12, contract: 5 },
  probes,
  signingKey,
});
