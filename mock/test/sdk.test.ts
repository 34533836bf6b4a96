// The official Node SDK (auth0 7.1.0), unchanged, against `npm run mock -- --tls`: configured only
// with domain 127.0.0.1:PORT and client credentials, it gets a token, runs the three operations,
// and raises each typed error (401, 403, 404, 409, 400, and 429 with retries off and on). The mock
// runs as the command line program; the SDK in a process of its own that trusts the certificate
// the mock printed (NODE_EXTRA_CA_CERTS is read only at process start).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { observed } from '../../specs/index.ts';
import { loadFixtures } from '../fixtures.ts';
import type { ScenarioResult, SdkScenarioConfig } from './support/sdk-client.ts';
import { fixtureIds as ids } from './support/paths.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const READY = /^mock listening on https:\/\/(127\.0\.0\.1:\d+) /m;
const TRUST = /NODE_EXTRA_CA_CERTS=(\S+)/;

interface Started {
  child: ChildProcess;
  domain: string;
  certPath: string;
}

const started: ChildProcess[] = [];

function startMock(args: string[]): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'mock/cli.ts', '--tls', '--port', '0', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the mock did not start: ${output}`)), 40_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = READY.exec(output);
      const trust = TRUST.exec(output);
      if (ready && trust) {
        clearTimeout(timer);
        resolve({ child, domain: ready[1]!, certPath: trust[1]! });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the mock exited with ${code}: ${output}`)));
  });
}

function runSdk(config: SdkScenarioConfig, certPath: string): Promise<Map<string, ScenarioResult>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'mock/test/support/sdk-client.ts', JSON.stringify(config)], {
      cwd: root,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: certPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`the SDK process exited with ${code}: ${stderr}`));
      const results = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as ScenarioResult);
      resolve(new Map(results.map((result) => [result.name, result])));
    });
  });
}

let results: Map<string, ScenarioResult>;
/** Where the SDK reached the mock: 127.0.0.1:PORT. */
let reached: string;

// About 11 s on two busy cores; the bounds are generous because every test file runs at once in
// `npm test`, and starting a program under tsx can then take several seconds.

beforeAll(async () => {
  // One after the other: the first makes the certificate (on a fresh clone), the second reuses it.
  const mock = await startMock(['--rate-limit', 'production']);
  reached = mock.domain;
  const limited = await startMock(['--rate-limit', '2/1']);
  const clients = loadFixtures().data.clients;
  const credentials = (name: string) => {
    const client = clients.find((c) => c.name === name)!;
    return { clientId: client.client_id, clientSecret: client.client_secret! };
  };
  results = await runSdk(
    {
      domain: mock.domain,
      limitedDomain: limited.domain,
      clients: { global: credentials('global'), withoutVaultScope: credentials('without-vault-scope') },
      ids: {
        stream: ids.stream,
        failedEvent: ids.failedEvent,
        deliveredEvent: ids.deliveredEvent,
        profile: ids.profile,
        vault: ids.vaultFull,
        unknownVault: 'ac_NbWaizZTo4vfWnCwDq76Vk',
      },
    },
    mock.certPath,
  );
}, 110_000);

afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGTERM');
});

const value = (name: string): unknown => results.get(name)?.value ?? results.get(name)?.error;

test('gets a token and redelivers a failed event', () => {
  expect(results.get('redeliver')).toEqual({ name: 'redeliver', value: null });
});

test('creates an SSO ticket for a self-service profile, on the host the SDK reached the mock at', () => {
  expect(value('sso ticket')).toMatch(
    new RegExp(`^https://${reached.replace(/\./g, '\\.')}/self-service/connections-flow\\?ticket=[A-Za-z0-9]{32}$`),
  );
});

test('reads a flows vault connection', () => {
  expect(value('vault connection')).toBe(ids.vaultFull);
});

test.for([
  ['401', 'UnauthorizedError', 401],
  ['403', 'ForbiddenError', 403],
  ['404', 'NotFoundError', 404],
  ['409', 'ConflictError', 409],
  ['400', 'BadRequestError', 400],
] as const)('raises the typed error of a %s', ([name, type, statusCode]) => {
  expect(results.get(name)?.error).toEqual({ type, statusCode });
});

test('raises TooManyRequestsError with retries off once the bucket is spent', () => {
  expect([value('limited 1'), value('limited 2'), results.get('429 without retries')?.error]).toEqual([
    ids.vaultFull,
    ids.vaultFull,
    { type: 'TooManyRequestsError', statusCode: 429 },
  ]);
});

test('with retries on, waits for X-RateLimit-Reset and succeeds', () => {
  const retried = value('429 with retries') as { id: string; waitedMs: number };
  expect(retried.id).toBe(ids.vaultFull);
  // It waited for the refill (about a second at 1/s), not a blind exponential backoff.
  expect(retried.waitedMs).toBeGreaterThan(200);
  expect(retried.waitedMs).toBeLessThan(observed.rate_limit.sdk_retry.max_wait_seconds * 1000);
});
