// Recordings the project makes itself, for the tests of check-traffic and compare: the official
// SDK (auth0 7.1.0, as mock/test/sdk.test.ts runs it) and the conformance suite, each talking to
// the mock through the recording proxy (traffic/recording-proxy.ts), on loopback only.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { mockTargetDescription } from '../../embedded.ts';
import { createMockServer } from '../../../mock/index.ts';
import { loadTlsCredentials } from '../../../mock/tls/credentials.ts';
import { startRecordingProxy } from '../../../traffic/recording-proxy.ts';
import { root, run, writeTargetFile, type Finished } from './programs.ts';

interface TargetDescription {
  roles: Record<string, { client_id: string; client_secret: string }>;
  fixtures: Record<string, string> & { vault_connections: string[] };
}

const description = () => mockTargetDescription() as unknown as TargetDescription;

/** The SDK's scenarios (mock/test/support/sdk-client.ts) through two HTTPS recording proxies: one before a mock, one before a mock of two requests a second. */
export async function recordSdk(dir: string): Promise<{ files: string[]; finished: Finished }> {
  const tls = await loadTlsCredentials({ dir: join(dir, 'tls') });
  const mock = await createMockServer({ rateLimitProfile: 'production', report: () => {} });
  const limited = await createMockServer({ rateLimit: { bucketSize: 2, refillPerSecond: 1 }, report: () => {} });
  const files = [join(dir, 'sdk.har'), join(dir, 'sdk-limited.har')];
  const proxies = await Promise.all(
    [mock, limited].map((m, i) =>
      startRecordingProxy({ upstream: m.url, output: { path: files[i]!, format: 'har' }, tls: { cert: tls.cert, key: tls.key } }),
    ),
  );
  try {
    const { roles, fixtures } = description();
    const client = (role: string) => ({ clientId: roles[role]!.client_id, clientSecret: roles[role]!.client_secret });
    const vault = fixtures.vault_connections[0]!;
    const config = {
      domain: new URL(proxies[0]!.url).host,
      limitedDomain: new URL(proxies[1]!.url).host,
      clients: { global: client('global'), withoutVaultScope: client('without_vault_scope') },
      ids: {
        stream: fixtures.event_stream,
        failedEvent: fixtures.failed_event,
        deliveredEvent: fixtures.not_redeliverable_event,
        profile: fixtures.self_service_profile,
        vault,
        // The same shape, one letter off: a connection that does not exist.
        unknownVault: `${vault.slice(0, -1)}${vault.endsWith('k') ? 'j' : 'k'}`,
      },
    };
    const finished = await runSdk(config, tls.certPath!);
    return { files, finished };
  } finally {
    for (const proxy of proxies) await proxy.close();
    await mock.close();
    await limited.close();
  }
}

function runSdk(config: unknown, certPath: string): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'mock/test/support/sdk-client.ts', JSON.stringify(config)], {
      cwd: root,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: certPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The suite against the mock through a plain HTTP recording proxy, as a target file describes it
 * (the mock's signing key shared, so the near-miss tokens are minted too). Its 429 tests are left
 * out: they would spend a bucket sized for the whole run; the SDK's recording has its 429s.
 */
export async function recordSuite(dir: string, extraArgs: string[] = []): Promise<{ file: string; finished: Finished; outDir: string }> {
  const keyFile = join(dir, 'signing-key.pem');
  const mock = await createMockServer({
    signingKey: keyFile,
    rateLimit: { bucketSize: 100_000, refillPerSecond: 1_000 },
    report: () => {},
  });
  const file = join(dir, 'suite.ndjson');
  const proxy = await startRecordingProxy({ upstream: mock.url, output: { path: file, format: 'ndjson' } });
  try {
    const target = writeTargetFile({ url: proxy.url, dir, name: 'proxied-mock.yaml', keyFile });
    const outDir = join(dir, 'suite-reports');
    const finished = await run(
      'cli/conformance.ts',
      // A budget above the whole plan (about 4,200 requests): the default, 4,000, would leave tests out.
      [
        '--target-file',
        target.path,
        '--seed',
        '7',
        '--num-runs',
        '0',
        '--grep-invert',
        '429',
        '--max-requests',
        '10000',
        '--out',
        outDir,
        ...extraArgs,
      ],
      target.env,
      240_000,
    );
    return { file, finished, outDir };
  } finally {
    await proxy.close();
    await mock.close();
  }
}
