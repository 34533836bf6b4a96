// What the probes of the held-out rounds (mock/test/held-out-faults*.test.ts) share: the signing key
// file of a round's mocks, the default fixtures' ids, and small requests and readings of answers.
// A round whose helper of the same name behaves otherwise keeps its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { ManualClock, type MockServer, type MockServerOptions } from '../../index.ts';
import { claimsOf, signedAsIs } from './forged-tokens.ts';
import { call, tokenFor, tokenRequest, type Answer } from './http.ts';
import { redeliverPath, ticketPath, vaultPath } from './paths.ts';

export { redeliverPath, ticketPath, vaultPath };

/**
 * The signing key file every mock of a probe file shares (a key pair is made once, not a hundred
 * times), in a temporary folder named after `name` that is removed after the file's tests.
 */
export function probeKeyFile(name: string): string {
  const keyDir = mkdtempSync(join(tmpdir(), `${name}-`));
  afterAll(() => rmSync(keyDir, { recursive: true, force: true }));
  return join(keyDir, 'signing-key.pem');
}

/** The default fixtures' ids, as the probes use them (some under more than one name, as the rounds named them). */
export function ids(mock: MockServer) {
  const [stream, otherStream] = mock.fixtures.data.event_streams!;
  const event = (status: string) => stream!.events.find((e) => e.status === status)!.id;
  const otherFailedEvent = otherStream!.events.find((e) => e.status === 'failed')!.id;
  const vault = mock.fixtures.data.vault_connections!;
  const connection = mock.fixtures.data.connections![0]!;
  return {
    stream: stream!.id,
    failedEvent: event('failed'),
    deliveredEvent: event('delivered'),
    pendingEvent: event('pending'),
    /** The second stream. */
    otherStream: otherStream!.id,
    secondStream: otherStream!.id,
    /** The second stream's first event, and its failed one (the same event). */
    otherStreamEvent: otherStream!.events[0]!.id,
    otherFailedEvent,
    otherStreamFailedEvent: otherFailedEvent,
    secondFailedEvent: otherFailedEvent,
    profile: mock.fixtures.data.self_service_profiles![0]!.id,
    connection: connection.id,
    /** The name of a fixture connection. */
    takenName: connection.name,
    /** The connection with every optional field. */
    vault: vault[0]!.id,
    /** The connection with no optional field (the second one). */
    minimalVault: vault.find((v) => v.environment === undefined)!.id,
    plainVault: vault[1]!.id,
    bareVault: vault[1]!.id,
    /** The connection with every string at its maximum length (the third one). */
    longVault: vault[2]!.id,
    longestVault: vault.reduce((a, b) => (b.id.length > a.id.length ? b : a)).id,
    /** A connection that is not ready (the second one). */
    notReadyVault: vault.find((v) => !v.ready)!.id,
  };
}

/** The path of the first fixture profile's (or `profile`'s) sso-ticket operation. */
export const ticketPathOf = (mock: MockServer, profile = ids(mock).profile) => ticketPath(profile);

/** The same id with its last character changed: well formed, naming nothing. */
export const unknownLike = (id: string) => `${id.slice(0, -1)}${id.endsWith('w') ? 'x' : 'w'}`;
/** The same id with its eleventh character changed: well formed, naming nothing. */
export const changedEarly = (id: string) => `${id.slice(0, 10)}${id[10] === 'w' ? 'x' : 'w'}${id.slice(11)}`;
/** The id with the character at `at` replaced by `by`. */
export const replacedAt = (id: string, at: number, by: string) => `${id.slice(0, at)}${by}${id.slice(at + 1)}`;

/** The audience (or issuer) URL with its host changed by `host`. */
export function withHost(url: string, host: (current: string) => string): string {
  const parsed = /^(https?:\/\/)([^/]+)(\/.*)?$/.exec(url)!;
  return `${parsed[1]!}${host(parsed[2]!)}${parsed[3] ?? ''}`;
}

export const FORM = 'application/x-www-form-urlencoded';
export const JSON_TYPE = 'application/json';
/** A well-formed organization id (org_ and 16 alphanumerics). */
export const ORGANIZATION = 'org_abcdefghijklmnop';
export const REPORTS_API = 'https://reports-api.example.com/';
export const PARTNER_DOMAIN = 'login.partner.example';
export const DOMAIN_SUFFIX = '.example';
/** A host name of exactly `length` characters: letters, then .example. */
export const domainOf = (length: number) => `${'a'.repeat(length - DOMAIN_SUFFIX.length)}${DOMAIN_SUFFIX}`;

/** A bucket of two requests that does not refill while the probe runs. */
export const TINY_BUCKET: MockServerOptions = { rateLimit: { bucketSize: 2, refillPerSecond: 0.001 } };
/** A bucket that does not refill while the probe runs. */
export const bucketOf = (bucketSize: number): MockServerOptions => ({ rateLimit: { bucketSize, refillPerSecond: 0.001 } });
/** A clock of its own for each mock, moved only by the probe. */
export const MANUAL_CLOCK = (): MockServerOptions => ({ clock: new ManualClock() });
/** A bucket of two refilled at one a second, on a clock the probe moves. */
export const CLOCKED_BUCKET = (): MockServerOptions => ({ clock: new ManualClock(), rateLimit: { bucketSize: 2, refillPerSecond: 1 } });
/** Moves the mock's ManualClock. */
export const advance = (mock: MockServer, ms: number) => (mock.clock as ManualClock).advance(ms);
export const nowSeconds = (mock: MockServer) => Math.floor(mock.clock.now() / 1000);

export const status = (answer: Answer) => answer.status;
/** The answer's JSON object, to read fields of. */
export const fieldsOf = (answer: Answer) => answer.json as Record<string, unknown>;
/** The answer's message field (throws where the answer has no JSON). */
export const messageOf = (answer: Answer) => fieldsOf(answer).message as string;
export const hostOf = (answer: Answer) => new URL(fieldsOf(answer).ticket as string).host;

export const globalToken = (mock: MockServer) => tokenFor(mock, 'global');
export const fixtureClientId = (mock: MockServer, name: string) => mock.fixtures.data.clients.find((c) => c.name === name)!.client_id;

/** A read of a vault connection (the first by default). */
export const read = async (mock: MockServer, token: string, id = ids(mock).vault) => call(mock, 'GET', vaultPath(id), { token });
export const readVault = async (mock: MockServer, token: string, id = ids(mock).vault) => status(await read(mock, token, id));
/** A read with this Authorization header, as written. */
export const readAs = async (mock: MockServer, authorization: string, id = ids(mock).vault) =>
  status(await call(mock, 'GET', vaultPath(id), { headers: { authorization } }));
/** A read without credentials. */
export const anonymousRead = async (mock: MockServer) => call(mock, 'GET', vaultPath(ids(mock).vault));
/** The vault connection's record, read with the global client's token. */
export const record = async (mock: MockServer, id = ids(mock).vault) => fieldsOf(await read(mock, await globalToken(mock), id));

/** A redelivery of an event (the first stream's failed one by default). */
export const redeliverAnswer = async (mock: MockServer, token: string, stream = ids(mock).stream, event = ids(mock).failedEvent) =>
  call(mock, 'POST', redeliverPath(stream, event), { token });
export const redeliver = async (mock: MockServer, token: string, stream?: string, event?: string) =>
  status(await redeliverAnswer(mock, token, stream, event));
/** The global client's token claims with this scope, signed with the mock's key. */
export const withScope = async (mock: MockServer, scope: string) => signedAsIs(mock, { ...(await claimsOf(mock)), scope });
/** A redelivery (of the default event) with a token of this scope. */
export const redeliverWithScope = async (mock: MockServer, scope: string) => redeliver(mock, await withScope(mock, scope));

/** A ticket request (the global client's token unless one is given), to the first profile by default. */
export const createTicket = async (
  mock: MockServer,
  body: unknown,
  token?: string,
  headers: Record<string, string> = {},
  path = ticketPathOf(mock),
) => call(mock, 'POST', path, { token: token ?? (await globalToken(mock)), body, headers });
export const ticketStatus = async (mock: MockServer, body: unknown) => status(await createTicket(mock, body));
/** A ticket request whose body is this exact JSON text. */
export const ticketText = async (mock: MockServer, text: string) =>
  status(await createTicket(mock, text, undefined, { 'content-type': JSON_TYPE }));
/** A ticket request naming this custom domain. */
export const ticketOn = async (mock: MockServer, domain: string) =>
  status(await createTicket(mock, {}, undefined, { 'tenant-custom-domain': domain }));
/** The host of the ticket URL answered to a request with these headers. */
export const ticketHost = async (mock: MockServer, headers: Record<string, string>) =>
  new URL(fieldsOf(await createTicket(mock, {}, undefined, headers)).ticket as string).host;

/** A JSON token request of a fixture client (global by default) with these overrides. */
export const tokenAnswer = (mock: MockServer, overrides: Record<string, string | undefined>, name = 'global') =>
  call(mock, 'POST', '/oauth/token', { body: tokenRequest(mock, name, overrides) });
export const tokenStatus = async (mock: MockServer, overrides: Record<string, string | undefined>) =>
  status(await tokenAnswer(mock, overrides));
/** A form-encoded token request of exactly this text. */
export const formToken = (mock: MockServer, text: string, headers: Record<string, string> = {}) =>
  call(mock, 'POST', '/oauth/token', { body: text, headers: { 'content-type': FORM, ...headers } });
