// Runs the official Node SDK (auth0 7.1.0) unchanged against the mock, in a process of its own
// (NODE_EXTRA_CA_CERTS is read at process start): each scenario prints one JSON line with what
// came back, the value's gist or the typed error's class and status. Only the domain, the client
// credentials (or a token) and per-call retry options are configured.
import { ManagementClient, ManagementError, Management } from 'auth0';

export interface SdkScenarioConfig {
  domain: string;
  /** A mock of the same tenant with a bucket of two requests. */
  limitedDomain: string;
  clients: Record<'global' | 'withoutVaultScope', { clientId: string; clientSecret: string }>;
  ids: { stream: string; failedEvent: string; deliveredEvent: string; profile: string; vault: string; unknownVault: string };
}

export interface ScenarioResult {
  name: string;
  value?: unknown;
  error?: { type: string; statusCode?: number };
}

const TYPED_ERRORS = {
  BadRequestError: Management.BadRequestError,
  UnauthorizedError: Management.UnauthorizedError,
  ForbiddenError: Management.ForbiddenError,
  NotFoundError: Management.NotFoundError,
  ConflictError: Management.ConflictError,
  TooManyRequestsError: Management.TooManyRequestsError,
};

function typeOf(error: unknown): string {
  const named = Object.entries(TYPED_ERRORS).find(([, type]) => error instanceof type)?.[0];
  return named ?? (error instanceof ManagementError ? 'ManagementError' : error instanceof Error ? error.name : typeof error);
}

async function scenario(name: string, run: () => Promise<unknown>): Promise<void> {
  let result: ScenarioResult;
  try {
    result = { name, value: await run() };
  } catch (error) {
    result = {
      name,
      error: {
        type: typeOf(error),
        ...(error instanceof ManagementError && error.statusCode !== undefined ? { statusCode: error.statusCode } : {}),
      },
    };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

async function main(config: SdkScenarioConfig): Promise<void> {
  const { ids } = config;
  const global = new ManagementClient({ domain: config.domain, ...config.clients.global });
  const withoutVault = new ManagementClient({ domain: config.domain, ...config.clients.withoutVaultScope });
  const badToken = new ManagementClient({ domain: config.domain, token: 'not-a-token' });
  const limited = new ManagementClient({ domain: config.limitedDomain, ...config.clients.global });

  await scenario('redeliver', async () => (await global.eventStreams.redeliveries.createById(ids.stream, ids.failedEvent)) ?? null);
  await scenario('sso ticket', async () => (await global.selfServiceProfiles.ssoTicket.create(ids.profile, { ttl_sec: 3600 })).ticket);
  await scenario('vault connection', async () => (await global.flows.vault.connections.get(ids.vault)).id);
  await scenario('401', () => badToken.flows.vault.connections.get(ids.vault));
  await scenario('403', () => withoutVault.flows.vault.connections.get(ids.vault));
  await scenario('404', () => global.flows.vault.connections.get(ids.unknownVault));
  await scenario('409', () => global.eventStreams.redeliveries.createById(ids.stream, ids.deliveredEvent));
  await scenario('400', () => global.selfServiceProfiles.ssoTicket.create(ids.profile, { ttl_sec: 432_001 }));
  // The limited mock holds two requests: the third is refused, and with retries off that surfaces.
  await scenario('limited 1', async () => (await limited.flows.vault.connections.get(ids.vault, { maxRetries: 0 })).id);
  await scenario('limited 2', async () => (await limited.flows.vault.connections.get(ids.vault, { maxRetries: 0 })).id);
  await scenario('429 without retries', () => limited.flows.vault.connections.get(ids.vault, { maxRetries: 0 }));
  const started = Date.now();
  await scenario('429 with retries', async () => ({
    id: (await limited.flows.vault.connections.get(ids.vault, { maxRetries: 2 })).id,
    waitedMs: Date.now() - started,
  }));
}

main(JSON.parse(process.argv[2] ?? '{}') as SdkScenarioConfig).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
