// The mock server, in process: createMockServer(options) starts it and resolves once it listens.
// Tests start it on port 0 (the default) and close it when done.
import { AppAssembly, assembleApp, type App, type FaultHooks } from './app.ts';
import { defaultOperations, type MockOperation } from './operations.ts';
import { loadSigningKeys, type SigningKeys } from './auth/keys.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Components } from './components.ts';
import { MockConfigError } from './config-error.ts';
import { createErrorCatalogue } from './errors.ts';
import { faultsById, installFaults } from './faults/install.ts';
import { loadFixtures, type FixturesObject, type LoadedFixtures } from './fixtures.ts';
import { IN_PROCESS_DEFAULT, profileLimits, TOKEN_ENDPOINT_LIMIT, type RateLimitProfile, type RateLimits } from './rate-limit-profiles.ts';
import type { RateLimitConfig, RateLimiter } from './rate-limiter.ts';
import { createHttpServer, defaultMaxBodyBytes, defaultTimeouts, type Timeouts } from './server.ts';
import type { Store } from './store.ts';
import type { TokenQuotaConfig } from './token-quota.ts';
import { loadTlsCredentials, type TlsCredentials, type TlsOption } from './tls/credentials.ts';

export { ManualClock, systemClock, type Clock } from './clock.ts';
export { MockConfigError } from './config-error.ts';
export type { FaultHooks } from './app.ts';
export type { Components, ComponentName, ComponentOverride } from './components.ts';
export type { Exchange, Reply, RouteHandler, RouteKey, RouteWrapper } from './exchange.ts';
export type { Fault } from './faults/fault.ts';
export { mockOperations, type MockOperation } from './operations.ts';
export { faultCatalogue, faultIds } from './faults/catalogue.ts';
export { defaultFixturesPath, type FixturesObject, type LoadedFixtures } from './fixtures.ts';
export type { RateLimitConfig, Quota } from './rate-limiter.ts';
export type { RateLimitProfile, RateLimits } from './rate-limit-profiles.ts';
export type { TokenQuotaConfig, TokenQuotas } from './token-quota.ts';
export type { TlsOption } from './tls/credentials.ts';
export type { Timeouts } from './server.ts';
export { defaultMaxBodyBytes, defaultTimeouts } from './server.ts';

/** The names the mock may listen on: loopback only. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', '::1', 'localhost'];
export const DEFAULT_HOST = '127.0.0.1';

export interface MockServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** A loopback name: 127.0.0.1 (default), ::1 or localhost. */
  host?: string;
  /** A fixtures YAML file path, or the fixtures themselves; default mock/fixtures/default.yaml. */
  fixtures?: string | FixturesObject;
  /** Time for the limiter, token issuing and token checks; default the system clock. */
  clock?: Clock;
  /** A signing key file (PKCS8 PEM or private JWK), created with a new key if absent; default an in-memory key. */
  signingKey?: string;
  /** Ids of deliberate faults to install (see mock/faults/README.md). */
  faults?: string[];
  /**
   * In process only: installs hooks as a fault would (after the faults), for tests of the mock and
   * for trying a fault before it joins the catalogue. There is no way to do this over the network.
   */
  customize?: (hooks: FaultHooks) => void;
  /**
   * In process only: the operations served (mock/operations.ts), the three of specs/ by default. A
   * project test adds a throw-away operation card this way.
   */
  operations?: readonly MockOperation[];
  timeouts?: Partial<Timeouts>;
  /** Largest request body read; a larger one is answered 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * The management interface's limit, as a published profile (free, production) or unlimited; a
   * profile sets the token endpoint's bucket too (unlimited lifts it). Beats the fixtures' rate_limit.
   */
  rateLimitProfile?: RateLimitProfile;
  /**
   * Hourly and daily quotas of issued tokens for every client without its own in the fixtures (beats
   * the fixtures' token_quota); the token endpoint then sends the quota header and 429 past a quota.
   */
  tokenQuota?: TokenQuotaConfig;
  /** Explicit numbers for the management interface's bucket; beat the profile and the fixtures. */
  rateLimit?: Partial<RateLimitConfig>;
  /** The profile when neither the options nor the fixtures name a limit; default IN_PROCESS_DEFAULT's numbers. */
  fallbackRateLimitProfile?: RateLimitProfile;
  /**
   * HTTPS: `true` generates (once, then reuses) a self-signed certificate for the loopback names
   * in .keys/tls/; `{ dir }` does the same in another directory; `{ cert, key }` uses that PEM
   * certificate and key.
   */
  tls?: TlsOption;
  /** Receives one access-log line per request (method, path, status, ms). Never secrets. */
  log?: (line: string) => void;
  /** Receives the mock's own failures (a bug answered 500); default: standard error. */
  report?: (line: string) => void;
}

export interface MockServer {
  /** The origin, e.g. http://127.0.0.1:53211 (https:// with TLS): the token endpoint, the JWKS and discovery live here. */
  url: string;
  /** url + /api/v2: the management interface. */
  apiBaseUrl: string;
  host: string;
  port: number;
  /**
   * The tenant's canonical identity: tokens requested for `audience` (https://<domain>/api/v2/)
   * carry it, issued by `issuer` (https://<domain>/). A token requested for the mock's own origin
   * + /api/v2/ carries that origin instead (see tenant.ts); both are accepted.
   */
  issuer: string;
  audience: string;
  tenantDomain: string;
  /** The HTTPS certificate file, when the mock generated or reused one: trust it with NODE_EXTRA_CA_CERTS. */
  tls?: { certPath?: string; source: TlsCredentials['source'] };
  /** The management interface's and the token endpoint's buckets. */
  rateLimits: RateLimits;
  clock: Clock;
  store: Store;
  keys: SigningKeys;
  limiter: RateLimiter;
  fixtures: LoadedFixtures;
  /** Every component, as the routes see them (faults included). */
  components: Components;
  /** Ids of the installed faults. */
  faults: readonly string[];
  close: () => Promise<void>;
}

export async function createMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const host = loopbackHost(options.host ?? DEFAULT_HOST);
  const port = integerOption('port', options.port ?? 0, 0, 65_535);
  const timeouts = timeoutsOption(options.timeouts);
  const maxBodyBytes = integerOption('maxBodyBytes', options.maxBodyBytes ?? defaultMaxBodyBytes, 1, Number.MAX_SAFE_INTEGER);
  const fixtures = loadFixtures(options.fixtures);
  const rateLimits = rateLimitsOption(fixtures, options);
  const faults = faultsById(options.faults ?? []);
  const clock = options.clock ?? systemClock;
  const keys = await loadSigningKeys(options.signingKey, { commonName: fixtures.data.tenant.domain, notBeforeMs: clock.now() });
  const tls = options.tls === undefined ? undefined : await loadTlsCredentials(options.tls);
  const report = options.report ?? ((line: string) => process.stderr.write(`${line}\n`));

  const assembly = new AppAssembly();
  installFaults(assembly, faults);
  options.customize?.(assembly);
  const beforeReady = createErrorCatalogue();
  let app: App | undefined;
  const http = createHttpServer(
    {
      host,
      port,
      timeouts,
      maxBodyBytes,
      clock,
      report,
      ...(options.log ? { log: options.log } : {}),
      ...(tls ? { tls: { cert: tls.cert, key: tls.key } } : {}),
    },
    {
      handle: async (exchange) => (app ? app.handle(exchange) : beforeReady.reply('internal_error')),
      problem: (kind, detail) => (app ?? { problem: beforeReady.reply }).problem(kind, detail),
    },
  );
  const listening = await http.listen().catch((error: NodeJS.ErrnoException) => {
    throw new Error(`cannot listen on ${host}:${port} (${error.code ?? error.message})`);
  });
  try {
    app = assembleApp(
      {
        clock,
        fixtures: fixtures.data,
        keys,
        origin: listening.origin,
        rateLimits,
        maxBodyBytes,
        ...(options.tokenQuota ? { tokenQuota: tokenQuotaOption(options.tokenQuota) } : {}),
      },
      options.operations ?? defaultOperations,
      assembly,
      report,
    );
  } catch (error) {
    await http.close();
    throw error;
  }
  const { components } = app;

  return {
    url: listening.origin,
    apiBaseUrl: `${listening.origin}/api/v2`,
    host,
    port: listening.port,
    issuer: components.tenant.issuer,
    audience: components.tenant.audience,
    tenantDomain: components.tenant.domain,
    ...(tls ? { tls: { ...(tls.certPath ? { certPath: tls.certPath } : {}), source: tls.source } } : {}),
    rateLimits,
    clock: components.clock,
    store: components.store,
    keys: components.keys,
    limiter: components.limiter,
    fixtures,
    components,
    faults: faults.map((f) => f.id),
    close: () => http.close(),
  };
}

function loopbackHost(host: string): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (!LOOPBACK_HOSTS.includes(bare)) {
    throw new MockConfigError(`host ${host} is not a loopback address; the mock listens on ${LOOPBACK_HOSTS.join(', ')} only`);
  }
  return bare;
}

function integerOption(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new MockConfigError(`${name} must be an integer from ${min} to ${max} (got ${value})`);
  return value;
}

function timeoutsOption(given: Partial<Timeouts> = {}): Timeouts {
  const timeouts = { ...defaultTimeouts, ...given };
  for (const [name, value] of Object.entries(timeouts)) integerOption(`timeouts.${name}`, value, 1, 24 * 3600 * 1000);
  if (timeouts.headersMs > timeouts.requestMs)
    throw new MockConfigError(`timeouts.headersMs (${timeouts.headersMs}) must not exceed timeouts.requestMs (${timeouts.requestMs})`);
  return timeouts;
}

function tokenQuotaOption(quota: TokenQuotaConfig): TokenQuotaConfig {
  for (const [name, value] of Object.entries(quota)) integerOption(`tokenQuota.${name}`, value as number, 1, Number.MAX_SAFE_INTEGER);
  return quota;
}

/** Explicit numbers over a profile over the fixtures' rate_limit over the fallback (see rate-limit-profiles.ts). */
function rateLimitsOption(fixtures: LoadedFixtures, options: MockServerOptions): RateLimits {
  const declared = fixtures.data.rate_limit;
  const chosen = options.rateLimitProfile ?? (typeof declared === 'string' ? declared : undefined);
  const base: RateLimits = chosen
    ? profileLimits(chosen)
    : typeof declared === 'object'
      ? { management: { bucketSize: declared.bucket_size, refillPerSecond: declared.refill_per_second }, token: TOKEN_ENDPOINT_LIMIT }
      : options.fallbackRateLimitProfile
        ? profileLimits(options.fallbackRateLimitProfile)
        : { management: IN_PROCESS_DEFAULT, token: TOKEN_ENDPOINT_LIMIT };
  const management = { ...base.management, ...options.rateLimit };
  integerOption('rateLimit.bucketSize', management.bucketSize, 1, Number.MAX_SAFE_INTEGER);
  if (!(Number.isFinite(management.refillPerSecond) && management.refillPerSecond > 0)) {
    throw new MockConfigError(`rateLimit.refillPerSecond must be a number above 0 (got ${management.refillPerSecond})`);
  }
  return { management, token: base.token };
}
