// The command line: it starts and prints its URL, stops with exit 0 on SIGTERM and SIGINT, and
// refuses bad input with one line on stderr and exit 2. Spawned as a real process.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { describe, expect, onTestFinished, test } from 'vitest';
import { stringify } from 'yaml';
import { DEFAULT_PORT, parseCli } from '../cli-options.ts';
import { scopesOfRole } from '../../specs/cards/index.ts';
import { clientListing } from '../client-listing.ts';
import { loadFixtures } from '../fixtures.ts';
import { MockConfigError } from '../config-error.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const READY = /^mock listening on (http:\/\/\S+) \(API base (\S+)\)$/m;

function startCli(args: string[]): {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  /** The exit code, or the signal that ended the process (so a failure names it). */
  exited: Promise<number | NodeJS.Signals | null>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mock/cli.ts', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  return { child, output: () => ({ stdout, stderr }), exited };
}

async function ready(run: ReturnType<typeof startCli>): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const match = READY.exec(run.output().stdout);
    if (match) return match[1]!;
    if (run.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the mock did not print its URL: ${JSON.stringify(run.output())}`);
}

describe('running', () => {
  test.for(['SIGTERM', 'SIGINT'] as const)('starts, prints its URL, answers, and exits 0 on %s', async (signal) => {
    const run = startCli(['--port', '0']);
    const url = await ready(run);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(run.output().stdout).toContain(`(API base ${url}/api/v2)`);
    const jwks = await request(`${url}/.well-known/jwks.json`);
    expect(jwks.statusCode).toBe(200);
    await jwks.body.dump();
    run.child.kill(signal);
    expect(await run.exited).toBe(0);
  });

  test('--signing-key with a new file writes the key and says so', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mock-cli-')), 'keys', 'signing-key.pem');
    const run = startCli(['--port', '0', '--signing-key', path]);
    await ready(run);
    expect(run.output().stdout).toContain(`mock: wrote a new signing key to ${path}`);
    expect(existsSync(path)).toBe(true);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });
});

describe('refusing bad input: one line on stderr, exit 2', () => {
  const badFixtures = join(mkdtempSync(join(tmpdir(), 'mock-cli-')), 'bad.yaml');
  writeFileSync(badFixtures, stringify({ ...loadFixtures().data, tenant: {} }));

  test.for([
    ['an unknown option', ['--bogus'], /^mock: Unknown option '--bogus'/],
    ['a port that is not a number', ['--port', 'abc'], /^mock: option --port must be an integer from 0 to 65535 \(got "abc"\)$/],
    ['a non-loopback host', ['--host', '0.0.0.0'], /^mock: host 0.0.0.0 is not a loopback address/],
    [
      'a missing fixtures file',
      ['--fixtures', '/no/such/file.yaml'],
      /^mock: fixtures file \/no\/such\/file.yaml cannot be read \(ENOENT\)$/,
    ],
    [
      'an invalid fixtures file',
      ['--fixtures', badFixtures],
      new RegExp(`^mock: fixtures file ${badFixtures}: tenant lacks the required field domain$`),
    ],
    ['an unknown fault', ['--fault', 'nope'], /^mock: unknown fault "nope"; valid faults: /],
  ] as const)('%s', async ([, args, message]) => {
    const run = startCli([...args]);
    expect(await run.exited).toBe(2);
    const lines = run.output().stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });
});

describe('parseCli', () => {
  test('defaults to port 4010 on the default host', () => {
    expect(parseCli([])).toEqual({ kind: 'start', options: { port: DEFAULT_PORT, fallbackRateLimitProfile: 'production' } });
  });

  test('reads every option', () => {
    const command = parseCli([
      '--port',
      '0',
      '--host',
      '::1',
      '--fixtures',
      'f.yaml',
      '--signing-key',
      'k.pem',
      '--fault',
      'a',
      '--fault',
      'b,c',
      '--tls',
      '--rate-limit',
      '9/9',
      '--bucket-size',
      '5',
      '--refill-per-second',
      '0.5',
    ]);
    expect(command).toEqual({
      kind: 'start',
      options: {
        port: 0,
        host: '::1',
        fixtures: 'f.yaml',
        signingKey: 'k.pem',
        faults: ['a', 'b', 'c'],
        tls: true,
        rateLimit: { bucketSize: 5, refillPerSecond: 0.5 },
        fallbackRateLimitProfile: 'production',
      },
    });
  });

  test.for([
    ['free', { rateLimitProfile: 'free' }],
    ['unlimited', { rateLimitProfile: 'unlimited' }],
    ['100/5', { rateLimit: { bucketSize: 100, refillPerSecond: 5 } }],
    ['2/0.5', { rateLimit: { bucketSize: 2, refillPerSecond: 0.5 } }],
  ] as const)('--rate-limit %s', ([value, expected]) => {
    expect(parseCli(['--rate-limit', value])).toEqual({
      kind: 'start',
      options: { port: DEFAULT_PORT, fallbackRateLimitProfile: 'production', ...expected },
    });
  });

  test('--tls-cert and --tls-key read the files they name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-cli-tls-'));
    writeFileSync(join(dir, 'c.pem'), 'CERT');
    writeFileSync(join(dir, 'k.pem'), 'KEY');
    const command = parseCli(['--tls-cert', join(dir, 'c.pem'), '--tls-key', join(dir, 'k.pem')]);
    expect(command.kind === 'start' && command.options.tls).toEqual({ cert: 'CERT', key: 'KEY' });
    rmSync(dir, { recursive: true, force: true });
  });

  test('--tls-names asks for a generated certificate that also covers those names', () => {
    const command = parseCli(['--tls-names', 'mock.test, 10.0.0.7']);
    expect(command.kind === 'start' && command.options.tls).toEqual({ names: ['mock.test', '10.0.0.7'] });
  });

  test('--help wins', () => {
    expect(parseCli(['--port', '1', '--help'])).toEqual({ kind: 'help' });
    expect(parseCli(['--list-faults'])).toEqual({ kind: 'list-faults' });
    expect(parseCli(['--list-clients', '--fixtures', 'x.yaml'])).toEqual({ kind: 'list-clients', fixtures: 'x.yaml' });
  });

  test('--list-clients prints each client of the fixtures with its id, secret and the scopes its role gives it', () => {
    const fixtures = loadFixtures();
    const listing = clientListing(fixtures).split('\n');
    for (const client of fixtures.data.clients) {
      const row = listing.find((line) => line.startsWith(`${client.name} `));
      expect(row, client.name).toContain(client.client_id);
      if (client.client_secret) expect(row).toContain(client.client_secret);
      if (client.role) expect(row).toContain(scopesOfRole(client.role).join(' '));
    }
    expect(listing.find((line) => line.startsWith('without-vault-scope '))).not.toContain('read:flows_vault_connections');
  });

  test.for([
    ['--port', '70000'],
    ['--bucket-size', '0'],
    ['--refill-per-second', '-1'],
    ['--fixtures', ' '],
    ['positional'],
    ['--rate-limit', 'enterprise'],
    ['--rate-limit', '0/5'],
    ['--rate-limit', '5/0'],
    ['--tls-cert', 'c.pem'],
    ['--tls-cert', '/nonexistent/c.pem', '--tls-key', '/nonexistent/k.pem'],
    ['--tls-names', 'a host/with a path'],
    ['--tls-names', 'mock.test', '--tls-cert', 'c.pem', '--tls-key', 'k.pem'],
  ])('%s is refused', (args) => {
    expect(() => parseCli(args)).toThrow(MockConfigError);
  });
});
