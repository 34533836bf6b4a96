// The fault catalogue: its entries are well formed and cover every contract clause a black-box
// test can check, and, for a table of representative faults, the faulted mock really does what the
// fault's description says while the conformant mock does not. The proof that the suite catches
// each fault is `npm run mutation`; this file proves the faults themselves.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeJwt } from 'jose';
import { afterAll, describe, expect, test } from 'vitest';
import { basePath, closedLimit, clauses, hasClause, limit, observed, parseClauseTag, tokenPath } from '../../specs/index.ts';
import { readFirstCatches } from '../../cli/first-catches.ts';
import { MockConfigError } from '../config-error.ts';
import { faultCatalogue, faultFamilies, faultIds } from '../faults/catalogue.ts';
import { createMockServer, type MockServer, type MockServerOptions } from '../index.ts';
import { hs256WithPublicKey, resigned, withTamperedSignature, withUnknownKid } from './support/forged-tokens.ts';
import { call, client, tokenFor, tokenRequest, type CallOptions } from './support/http.ts';
import { mockForTest, sharedMock } from './support/mock.ts';
import { fixtureIds as ids, redeliverPath, ticketPath, vaultPath } from './support/paths.ts';

// One signing key for every mock of this file: generating an RSA key per mock would dominate.
const keyDir = mkdtempSync(join(tmpdir(), 'fault-catalogue-key-'));
const signingKey = join(keyDir, 'signing-key.pem');
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

describe('the catalogue', () => {
  test('every fault has a unique kebab-case id, a clause of the registry and a description', () => {
    expect(new Set(faultIds).size).toBe(faultIds.length);
    for (const fault of faultCatalogue) {
      expect(fault.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(hasClause(fault.clause), `${fault.id} names clause ${fault.clause}`).toBe(true);
      expect(fault.description).toMatch(/^\S.*\.$/);
    }
  });

  test('every fault has a first-catch record naming a test of its clause, and every record a fault of the catalogue', () => {
    // The gate runs a fault's recorded first catch first (cli/first-catches.ts): a fault without
    // one still runs, through all of its clause's tests, only slower. `npm run mutation -- --faults
    // <ids> --record-first-catches` records new faults.
    const records = readFirstCatches();
    expect(faultIds.filter((id) => records[id] === undefined)).toEqual([]);
    expect(Object.keys(records).filter((id) => !faultIds.includes(id))).toEqual([]);
    for (const fault of faultCatalogue) expect(parseClauseTag(records[fault.id]!)?.id, fault.id).toBe(fault.clause);
  });

  test('every black-box-testable contract clause has at least one fault', () => {
    const broken = new Set(faultCatalogue.map((f) => f.clause));
    const testable = clauses.filter((c) => c.level === 'contract' && c.testable).map((c) => c.id);
    expect(testable.filter((id) => !broken.has(id))).toEqual([]);
  });

  test('no fault breaks a clause that no black-box test can check', () => {
    const untestable = new Set(clauses.filter((c) => !c.testable).map((c) => c.id));
    expect(faultCatalogue.filter((f) => untestable.has(f.clause)).map((f) => f.id)).toEqual([]);
  });

  test('every testable contract clause of specs/ has a fault', () => {
    // Derived from the registry, not pinned: a clause added to specs/ without a fault fails here.
    const broken = new Set(faultCatalogue.map((f) => f.clause));
    const gating = clauses.filter((c) => c.level === 'contract' && c.testable).map((c) => c.id);
    expect(gating.length).toBeGreaterThan(0);
    expect(gating.filter((id) => !broken.has(id))).toEqual([]);
  });

  test('every family file is listed once in the catalogue, and exports its family alone', async () => {
    const folder = new URL('../faults/', import.meta.url);
    const infrastructure = new Set(['catalogue.ts', 'fault.ts', 'install.ts']);
    const files = readdirSync(fileURLToPath(folder)).filter((f) => f.endsWith('.ts') && !infrastructure.has(f));
    for (const file of files) {
      const exported = Object.values((await import(new URL(file, folder).href)) as Record<string, unknown>);
      expect(exported, `${file} exports one family`).toHaveLength(1);
      expect(
        faultFamilies.filter((family) => family === exported[0]),
        `${file} is listed once`,
      ).toHaveLength(1);
      expect((exported[0] as unknown[]).length, `${file} has faults`).toBeGreaterThan(0);
    }
    expect(faultFamilies).toHaveLength(files.length);
  });

  test('an unknown fault id is refused', async () => {
    await expect(createMockServer({ faults: ['accepts-everything'], signingKey })).rejects.toThrow(MockConfigError);
  });

  test('every fault installs on a mock that then answers', async () => {
    for (const id of faultIds) {
      const mock = await createMockServer({ faults: [id], signingKey });
      try {
        expect((await call(mock, 'GET', '/.well-known/jwks.json')).status, id).toBe(200);
      } finally {
        await mock.close();
      }
    }
    // One mock per fault, one after another: the time grows with the catalogue.
  }, 120_000);
});

// --- What the faults do, over HTTP ----------------------------------------------------------------

interface Row {
  fault: string;
  /** Present tense: what the faulted mock does. */
  does: string;
  options?: MockServerOptions;
  /** A request (or a few) and what is read off the answer; the same on both mocks. */
  probe(mock: MockServer): Promise<unknown>;
  faulted: unknown;
  conformant: unknown;
}

const ttl = closedLimit('sso-ticket.body.ttl_sec.range');
const domain = closedLimit('sso-ticket.header.custom-domain.length');
const host = (length: number) => `${'a'.repeat(length - 4)}.com`;
const REDELIVER_SCOPE = observed.operations.redeliver.scope.value;
const TINY_BUCKET = { bucketSize: 1, refillPerSecond: 0.001 };

const status = async (mock: MockServer, method: string, path: string, options: CallOptions = {}) =>
  (await call(mock, method, path, options)).status;
const asGlobal = async (mock: MockServer) => ({ token: await tokenFor(mock, 'global') });
const redeliverAs = async (mock: MockServer, options: CallOptions, id: string = ids.stream, eventId: string = ids.failedEvent) =>
  status(mock, 'POST', redeliverPath(id, eventId), options);
const ticketWith = async (mock: MockServer, body: unknown, headers: Record<string, string> = {}) =>
  status(mock, 'POST', ticketPath(ids.profile), { ...(await asGlobal(mock)), body, headers });
const vaultRecord = async (mock: MockServer, id: string) =>
  (await call(mock, 'GET', vaultPath(id), await asGlobal(mock))).json as Record<string, unknown>;
const forged = (make: (mock: MockServer, token: string) => Promise<string>) => async (mock: MockServer) =>
  redeliverAs(mock, { token: await make(mock, await tokenFor(mock, 'global')) });
const otherCase = (text: string) => [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
const twoRequests = async (mock: MockServer) => {
  const first = await call(mock, 'GET', vaultPath(ids.vaultFull), await asGlobal(mock));
  const second = await call(mock, 'GET', vaultPath(ids.vaultFull), await asGlobal(mock));
  return [first, second];
};

const rows: Row[] = [
  // Redelivery
  {
    fault: 'method-not-allowed-without-allow',
    does: 'answers another method 405 without an Allow header',
    probe: async (m) =>
      (await call(m, 'GET', redeliverPath(ids.stream, ids.failedEvent), await asGlobal(m))).headers.allow === undefined ? 'none' : 'allow',
    faulted: 'none',
    conformant: 'allow',
  },
  {
    fault: 'redeliver-204-instead-of-202',
    does: 'answers a redelivery 204',
    probe: (m) => asGlobal(m).then((o) => redeliverAs(m, o)),
    faulted: 204,
    conformant: 202,
  },
  {
    fault: 'redeliver-accepts-27-char-stream-id',
    does: 'accepts an existing stream id with a character added',
    probe: (m) => asGlobal(m).then((o) => redeliverAs(m, o, `${ids.stream}x`)),
    faulted: 202,
    conformant: 400,
  },
  {
    fault: 'accepts-25-char-stream-id',
    does: 'accepts an existing stream id without its last character',
    probe: (m) => asGlobal(m).then((o) => redeliverAs(m, o, ids.stream.slice(0, -1))),
    faulted: 202,
    conformant: 400,
  },
  {
    fault: 'redeliver-accepts-27-char-event-id',
    does: 'accepts an existing event id with a character added',
    probe: (m) => asGlobal(m).then((o) => redeliverAs(m, o, ids.stream, `${ids.failedEvent}x`)),
    faulted: 202,
    conformant: 400,
  },
  {
    fault: 'accepts-25-char-event-id',
    does: 'accepts an existing event id without its last character',
    probe: (m) => asGlobal(m).then((o) => redeliverAs(m, o, ids.stream, ids.failedEvent.slice(0, -1))),
    faulted: 202,
    conformant: 400,
  },
  {
    fault: '202-for-missing-stream',
    does: 'accepts a redelivery under an unknown stream',
    probe: (m) => asGlobal(m).then((o) => redeliverAs(m, o, 'est_AQXiyfL3iDNFp5RV9YTEMw')),
    faulted: 202,
    conformant: 404,
  },
  {
    fault: '202-for-missing-event',
    does: 'accepts a redelivery of an unknown event',
    probe: (m) => asGlobal(m).then((o) => redeliverAs(m, o, ids.stream, 'evt_wx3cBnTHxX2mVaYMaBVtL9')),
    faulted: 202,
    conformant: 404,
  },
  {
    fault: 'event-found-in-any-stream',
    does: 'accepts a redelivery of an event of another stream',
    probe: (m) => asGlobal(m).then((o) => redeliverAs(m, o, ids.stream, ids.otherStreamEvent)),
    faulted: 202,
    conformant: 404,
  },
  {
    fault: 'events-memoised-from-the-first-stream-read',
    does: "refuses a redelivery of another stream's failed event once the first stream's events were read",
    probe: (m) => asGlobal(m).then(async (o) => [await redeliverAs(m, o), await redeliverAs(m, o, ids.otherStream, ids.otherStreamEvent)]),
    faulted: [202, 404],
    conformant: [202, 202],
  },
  {
    fault: '202-for-non-redeliverable-event',
    does: 'accepts a redelivery of a delivered event',
    probe: (m) => asGlobal(m).then((o) => redeliverAs(m, o, ids.stream, ids.deliveredEvent)),
    faulted: 202,
    conformant: 409,
  },
  // Credentials
  {
    fault: 'ignores-signature',
    does: 'accepts a token with a tampered signature',
    probe: forged(async (_m, t) => withTamperedSignature(t)),
    faulted: 202,
    conformant: 401,
  },
  {
    fault: 'accepts-hs256-with-public-key',
    does: 'accepts an HS256 token keyed with the public key',
    probe: forged(hs256WithPublicKey),
    faulted: 202,
    conformant: 401,
  },
  {
    fault: 'accepts-unknown-kid',
    does: 'accepts a foreign-signed token under an unknown kid',
    probe: forged(async (_m, t) => withUnknownKid(t)),
    faulted: 202,
    conformant: 401,
  },
  {
    fault: 'accepts-expired-token',
    does: 'accepts an expired token',
    probe: forged((m, t) => resigned(m, t, (c, now) => ({ ...c, iat: now - 7200, exp: now - 3600 }))),
    faulted: 202,
    conformant: 401,
  },
  {
    fault: 'accepts-not-yet-valid-token',
    does: 'accepts a token that is not yet valid',
    probe: forged((m, t) => resigned(m, t, (c, now) => ({ ...c, iat: now + 3600, nbf: now + 3600, exp: now + 7200 }))),
    faulted: 202,
    conformant: 401,
  },
  {
    fault: 'accepts-wrong-audience',
    does: 'accepts a token for another audience',
    probe: forged((m, t) => resigned(m, t, (c) => ({ ...c, aud: 'https://another-api.example.com/' }))),
    faulted: 202,
    conformant: 401,
  },
  {
    fault: 'accepts-wrong-issuer',
    does: 'accepts a token from another issuer',
    probe: forged((m, t) => resigned(m, t, (c) => ({ ...c, iss: 'https://issuer.example.com/' }))),
    faulted: 202,
    conformant: 401,
  },
  {
    fault: 'accepts-wrong-issuer',
    does: 'still refuses an expired token',
    probe: forged((m, t) => resigned(m, t, (c, now) => ({ ...c, iss: 'https://issuer.example.com/', exp: now - 3600 }))),
    faulted: 401,
    conformant: 401,
  },
  {
    fault: 'exp-with-five-minute-leeway',
    does: 'accepts a token that expired two minutes ago',
    probe: forged((m, t) => resigned(m, t, (c, now) => ({ ...c, iat: now - 3720, exp: now - 120 }))),
    faulted: 202,
    conformant: 401,
  },
  {
    fault: 'exp-with-five-minute-leeway',
    does: 'still refuses a token that expired an hour ago',
    probe: forged((m, t) => resigned(m, t, (c, now) => ({ ...c, iat: now - 7200, exp: now - 3600 }))),
    faulted: 401,
    conformant: 401,
  },
  {
    fault: 'vault-accepts-any-bearer-token',
    does: 'accepts "Bearer not-a-jwt" at the vault read',
    probe: (m) => status(m, 'GET', vaultPath(ids.vaultFull), { headers: { authorization: 'Bearer not-a-jwt' } }),
    faulted: 200,
    conformant: 401,
  },
  {
    fault: 'vault-accepts-any-bearer-token',
    does: 'still refuses a request without a credential',
    probe: (m) => status(m, 'GET', vaultPath(ids.vaultFull)),
    faulted: 401,
    conformant: 401,
  },
  {
    fault: 'ticket-accepts-any-auth-scheme',
    does: 'accepts a token sent as Basic at ticket creation',
    probe: async (m) =>
      status(m, 'POST', ticketPath(ids.profile), { headers: { authorization: `Basic ${await tokenFor(m, 'global')}` }, body: {} }),
    faulted: 201,
    conformant: 401,
  },
  {
    fault: 'token-endpoint-without-trailing-slash',
    does: 'answers /oauth/token/ with 404',
    probe: (m) => status(m, 'POST', '/oauth/token/', { body: {} }),
    faulted: 404,
    conformant: 400,
  },
  {
    fault: 'token-secret-case-insensitive',
    does: "issues a token for the client's secret in the other letter case",
    probe: (m) =>
      status(m, 'POST', tokenPath, { body: tokenRequest(m, 'global', { client_secret: otherCase(client(m, 'global').client_secret) }) }),
    faulted: 200,
    conformant: 401,
  },
  {
    fault: 'token-secret-as-ascii-bytes',
    does: "issues a token for the client's secret with its first character 256 above itself (the same low byte)",
    probe: (m) => {
      const secret = client(m, 'global').client_secret;
      const folded = `${String.fromCharCode(secret.charCodeAt(0) + 0x100)}${secret.slice(1)}`;
      return status(m, 'POST', tokenPath, { body: tokenRequest(m, 'global', { client_secret: folded }) });
    },
    faulted: 200,
    conformant: 401,
  },
  {
    fault: 'token-empty-scope-splits-to-none',
    does: 'issues a token carrying no scopes for scope=',
    probe: async (m) => {
      const answer = await call(m, 'POST', tokenPath, { body: tokenRequest(m, 'global', { scope: '' }) });
      return (answer.json as { scope?: string }).scope === '';
    },
    faulted: true,
    conformant: false,
  },
  {
    fault: 'token-text-plain-read-as-json',
    does: 'issues a token for a JSON request labelled text/plain',
    probe: (m) =>
      status(m, 'POST', tokenPath, { body: JSON.stringify(tokenRequest(m, 'global')), headers: { 'content-type': 'text/plain' } }),
    faulted: 200,
    conformant: 400,
  },
  {
    fault: 'token-lifetime-3600',
    does: 'issues tokens for an hour',
    probe: async (m) => {
      const { exp, iat } = decodeJwt(await tokenFor(m, 'global'));
      return exp! - iat!;
    },
    faulted: 3600,
    conformant: observed.tokens.expires_in,
  },
  {
    fault: 'token-scope-claim-drops-first-scope',
    does: 'leaves the first granted scope out of the claim and still authorizes by the grant',
    probe: async (m) => {
      const token = await tokenFor(m, 'global');
      return [String(decodeJwt(token).scope).split(' ').includes(REDELIVER_SCOPE), await redeliverAs(m, { token })];
    },
    faulted: [false, 202],
    conformant: [true, 202],
  },
  // Scopes and clients
  {
    fault: 'redeliver-ignores-scope',
    does: 'redelivers for a token without the scope',
    probe: async (m) => redeliverAs(m, { token: await tokenFor(m, 'without-redeliver-scope') }),
    faulted: 202,
    conformant: 403,
  },
  {
    fault: '401-instead-of-403',
    does: 'answers a missing scope 401',
    probe: async (m) => redeliverAs(m, { token: await tokenFor(m, 'without-redeliver-scope') }),
    faulted: 401,
    conformant: 403,
  },
  {
    fault: 'accepts-non-global-client',
    does: 'redelivers for a client that is not global',
    probe: async (m) => redeliverAs(m, { token: await tokenFor(m, 'non-global') }),
    faulted: 202,
    conformant: 401,
  },
  {
    fault: 'global-verdict-kept-from-ticket-session',
    does: 'redelivers for a client that is not global once that client has been given a ticket with the same token',
    probe: async (m) => {
      const token = await tokenFor(m, 'non-global');
      await status(m, 'POST', ticketPath(ids.profile), { token, body: {} });
      return redeliverAs(m, { token });
    },
    faulted: 202,
    conformant: 401,
  },
  {
    fault: '403-for-non-global',
    does: 'answers a client that is not global 403',
    probe: async (m) => redeliverAs(m, { token: await tokenFor(m, 'non-global') }),
    faulted: 403,
    conformant: 401,
  },
  {
    fault: 'validates-path-before-authenticating',
    does: 'answers a malformed id without a token 400',
    probe: (m) => redeliverAs(m, {}, 'x', 'y'),
    faulted: 400,
    conformant: 401,
  },
  // Ticket creation
  {
    fault: 'accepts-ttl-sec-one-over-maximum',
    does: 'accepts ttl_sec one over the maximum',
    probe: (m) => ticketWith(m, { ttl_sec: ttl.max + 1 }),
    faulted: 201,
    conformant: 400,
  },
  {
    fault: 'accepts-ttl-sec-one-over-maximum',
    does: 'still refuses ttl_sec two over the maximum',
    probe: (m) => ticketWith(m, { ttl_sec: ttl.max + 2 }),
    faulted: 400,
    conformant: 400,
  },
  {
    fault: 'ttl-sec-whole-days-skip-range',
    does: 'accepts ttl_sec of the first whole day past the maximum',
    probe: (m) => ticketWith(m, { ttl_sec: (Math.floor(ttl.max / 86400) + 1) * 86400 }),
    faulted: 201,
    conformant: 400,
  },
  {
    fault: 'ttl-sec-whole-days-skip-range',
    does: 'still refuses ttl_sec one over the maximum',
    probe: (m) => ticketWith(m, { ttl_sec: ttl.max + 1 }),
    faulted: 400,
    conformant: 400,
  },
  {
    fault: 'ttl-sec-attribute-value-unmarshalled',
    does: 'accepts ttl_sec {"N": "3600"}',
    probe: (m) => ticketWith(m, { ttl_sec: { N: '3600' } }),
    faulted: 201,
    conformant: 400,
  },
  {
    fault: 'ttl-sec-attribute-value-unmarshalled',
    does: 'still refuses ttl_sec {"S": "3600"}',
    probe: (m) => ticketWith(m, { ttl_sec: { S: '3600' } }),
    faulted: 400,
    conformant: 400,
  },
  {
    fault: 'ticket-bracketed-member-names-nested',
    does: 'accepts a member named provisioning_config[token_lifetime]',
    probe: (m) => ticketWith(m, { 'provisioning_config[token_lifetime]': 3600 }),
    faulted: 201,
    conformant: 400,
  },
  {
    fault: 'metadata-empty-values-not-counted',
    does: 'accepts connection_config.metadata of 10 values and one ""',
    probe: (m) =>
      ticketWith(m, {
        connection_config: {
          name: 'fault-catalogue-metadata',
          metadata: { ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`key${i}`, 'value'])), key10: '' },
        },
      }),
    faulted: 201,
    conformant: 400,
  },
  {
    fault: 'pending-domains-length-after-nfc',
    does: 'accepts a pending domain of 256 code points, the last two e and a combining accent',
    probe: (m) => ticketWith(m, { domain_aliases_config: { domain_verification: 'none', pending_domains: [`${'a'.repeat(254)}e\u0301`] } }),
    faulted: 201,
    conformant: 400,
  },
  {
    fault: 'accepts-negative-ttl-sec',
    does: 'accepts ttl_sec -1',
    probe: (m) => ticketWith(m, { ttl_sec: ttl.min - 1 }),
    faulted: 201,
    conformant: 400,
  },
  {
    fault: 'accepts-fractional-ttl-sec',
    does: 'accepts ttl_sec 1.5',
    probe: (m) => ticketWith(m, { ttl_sec: 1.5 }),
    faulted: 201,
    conformant: 400,
  },
  {
    fault: 'refuses-ttl-sec-at-maximum',
    does: 'refuses ttl_sec at the maximum',
    probe: (m) => ticketWith(m, { ttl_sec: ttl.max }),
    faulted: 400,
    conformant: 201,
  },
  {
    fault: 'refuses-ttl-sec-zero',
    does: 'refuses ttl_sec 0',
    probe: (m) => ticketWith(m, { ttl_sec: ttl.min }),
    faulted: 400,
    conformant: 201,
  },
  {
    fault: 'ticket-ignores-ttl-sec-type',
    does: 'accepts ttl_sec "3600"',
    probe: (m) => ticketWith(m, { ttl_sec: '3600' }),
    faulted: 201,
    conformant: 400,
  },
  {
    fault: 'ticket-ignores-enabled-features-sso-type',
    does: 'accepts enabled_features.sso "yes"',
    probe: (m) => ticketWith(m, { enabled_features: { sso: 'yes' } }),
    faulted: 201,
    conformant: 400,
  },
  {
    fault: 'ticket-ignores-enabled-features-sso-type',
    does: 'still refuses an unknown property in enabled_features',
    probe: (m) => ticketWith(m, { enabled_features: { sso: true, other: true } }),
    faulted: 400,
    conformant: 400,
  },
  { fault: 'ticket-refuses-empty-body', does: 'refuses {}', probe: (m) => ticketWith(m, {}), faulted: 400, conformant: 201 },
  {
    fault: 'ticket-requires-enabled-features-with-connection-id',
    does: 'refuses connection_id alone',
    probe: (m) => ticketWith(m, { connection_id: 'con_6kG6vTEQLMczF3qe' }),
    faulted: 400,
    conformant: 201,
  },
  {
    fault: 'accepts-2-char-custom-domain',
    does: 'accepts a 2-character custom domain',
    probe: (m) => ticketWith(m, {}, { 'tenant-custom-domain': 'ab' }),
    faulted: 201,
    conformant: 400,
  },
  {
    fault: 'accepts-256-char-custom-domain',
    does: 'accepts a 256-character custom domain',
    probe: (m) => ticketWith(m, {}, { 'tenant-custom-domain': host(domain.max + 1) }),
    faulted: 201,
    conformant: 400,
  },
  {
    fault: 'refuses-255-char-custom-domain',
    does: 'refuses a 255-character custom domain',
    probe: (m) => ticketWith(m, {}, { 'tenant-custom-domain': host(domain.max) }),
    faulted: 400,
    conformant: 201,
  },
  {
    fault: 'ticket-code-instead-of-url',
    does: 'answers a ticket that is not a URL',
    probe: async (m) =>
      URL.canParse(
        String(((await call(m, 'POST', ticketPath(ids.profile), { ...(await asGlobal(m)), body: {} })).json as { ticket: string }).ticket),
      ),
    faulted: false,
    conformant: true,
  },
  // Vault read
  {
    fault: 'vault-accepts-31-char-connection-id',
    does: 'finds the longest connection with a character added',
    probe: async (m) => status(m, 'GET', vaultPath(`${ids.vaultLongest}x`), await asGlobal(m)),
    faulted: 200,
    conformant: 400,
  },
  {
    fault: 'refuses-30-char-vault-id',
    does: 'refuses the existing connection whose id has the maximum length',
    probe: async (m) => status(m, 'GET', vaultPath(ids.vaultLongest), await asGlobal(m)),
    faulted: 400,
    conformant: 200,
  },
  {
    fault: 'version-channel-stable-aliased',
    does: 'serves the vault read under /api/stable, a release channel of its gateway',
    probe: async (m) => status(m, 'GET', vaultPath(ids.vaultFull).replace(basePath, '/api/stable'), await asGlobal(m)),
    faulted: 200,
    conformant: 404,
  },
  {
    fault: 'stream-id-pipe-list-last',
    does: 'redelivers under the stream id twice joined by "|", read as a list',
    probe: async (m) => redeliverAs(m, await asGlobal(m), `${ids.stream}%7C${ids.stream}`),
    faulted: 202,
    conformant: 400,
  },
  {
    fault: 'vault-not-under-base-path',
    does: 'answers 404 at /api/v2',
    probe: async (m) => status(m, 'GET', vaultPath(ids.vaultFull), await asGlobal(m)),
    faulted: 404,
    conformant: 200,
  },
  {
    fault: 'vault-answers-first-record-read',
    does: 'answers a later read with the first record',
    probe: async (m) => {
      await vaultRecord(m, ids.vaultFull);
      return (await vaultRecord(m, ids.vaultMinimal)).id;
    },
    faulted: ids.vaultFull,
    conformant: ids.vaultMinimal,
  },
  {
    fault: 'vault-record-id-padded',
    does: 'pads the record id past the maximum',
    probe: async (m) => String((await vaultRecord(m, ids.vaultFull)).id).length > limit('vault.record.id').max!,
    faulted: true,
    conformant: false,
  },
  {
    fault: 'vault-record-updated-at-without-zone',
    does: 'sends updated_at without a time zone',
    probe: async (m) => (await vaultRecord(m, ids.vaultFull)).updated_at,
    faulted: '2024-09-12 12:52:16.553',
    conformant: '2024-09-12T12:52:16.553Z',
  },
  {
    fault: 'vault-record-environment-null-when-unset',
    does: 'sends environment null for a connection without one',
    probe: async (m) => (await vaultRecord(m, ids.vaultMinimal)).environment,
    faulted: null,
    conformant: undefined,
  },
  {
    fault: 'vault-content-type-text-plain',
    does: 'labels the record text/plain',
    probe: async (m) => (await call(m, 'GET', vaultPath(ids.vaultFull), await asGlobal(m))).headers['content-type'],
    faulted: 'text/plain; charset=utf-8',
    conformant: observed.content_type,
  },
  {
    fault: 'ticket-content-type-parameter-without-equals',
    does: 'labels the ticket with a parameter written with a colon',
    probe: async (m) => (await call(m, 'POST', ticketPath(ids.profile), { ...(await asGlobal(m)), body: {} })).headers['content-type'],
    faulted: 'application/json; charset: utf-8',
    conformant: observed.content_type,
  },
  // Rate limit and error bodies
  {
    fault: '429-without-x-ratelimit-reset',
    does: 'sends a 429 without X-RateLimit-Reset',
    options: { rateLimit: TINY_BUCKET },
    probe: async (m) => {
      const [, second] = await twoRequests(m);
      return [second!.status, 'x-ratelimit-reset' in second!.headers];
    },
    faulted: [429, false],
    conformant: [429, true],
  },
  {
    fault: 'remaining-goes-negative',
    does: 'reports Remaining -1 once the bucket is empty',
    options: { rateLimit: TINY_BUCKET },
    probe: async (m) => (await twoRequests(m)).map((a) => a.headers['x-ratelimit-remaining']),
    faulted: ['-1', '-1'],
    conformant: ['0', '0'],
  },
  {
    fault: 'tenant-limiter-found-by-host-as-sent',
    does: 'serves a request whose Host has a capital letter once the bucket is spent',
    options: { rateLimit: TINY_BUCKET },
    probe: async (m) => {
      const [, second] = await twoRequests(m);
      const other = await call(m, 'GET', vaultPath(ids.vaultFull), { ...(await asGlobal(m)), headers: { host: 'LOCALHOST' } });
      return [second!.status, other.status];
    },
    faulted: [429, 200],
    conformant: [429, 429],
  },
  {
    fault: 'remaining-less-the-reserve',
    does: 'reports Remaining a fifth of the Limit short of what is left',
    options: { rateLimit: { bucketSize: 10, refillPerSecond: 0.001 } },
    probe: async (m) => (await call(m, 'GET', vaultPath(ids.vaultFull), await asGlobal(m))).headers['x-ratelimit-remaining'],
    faulted: '7',
    conformant: '9',
  },
  {
    fault: 'reset-in-milliseconds',
    does: 'sends Reset in milliseconds',
    probe: async (m) => Number((await call(m, 'GET', vaultPath(ids.vaultFull), await asGlobal(m))).headers['x-ratelimit-reset']) > 1e11,
    faulted: true,
    conformant: false,
  },
  {
    fault: 'error-body-without-status-code',
    does: 'leaves statusCode out of error bodies',
    probe: async (m) => 'statusCode' in ((await call(m, 'GET', vaultPath(ids.vaultFull))).json as object),
    faulted: false,
    conformant: true,
  },
];

describe('what the faults do', () => {
  const conformant = sharedMock({ signingKey });
  const conformantWith = async (options: MockServerOptions | undefined) =>
    options ? mockForTest({ signingKey, ...options }) : conformant();

  for (const row of rows) {
    const same = JSON.stringify(row.faulted) === JSON.stringify(row.conformant);
    test(`${row.fault} ${row.does}${same ? ', as the conformant mock does' : '; the conformant mock does not'}`, async () => {
      const faulty = await mockForTest({ signingKey, ...row.options, faults: [row.fault] });
      expect(await row.probe(faulty)).toEqual(row.faulted);
      expect(await row.probe(await conformantWith(row.options))).toEqual(row.conformant);
    });
  }
});
