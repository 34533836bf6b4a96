// `npm run bench:tenant`: the suite against a stand-in of a real tenant, as a release gate would
// run it in CI. The mock stands up as a tenant looks from outside: HTTPS (a self-signed
// certificate the suite trusts through NODE_EXTRA_CA_CERTS), a target file that does not declare
// a test double (so the suite treats it as someone's tenant), secrets from the environment,
// every opt-in, the token alternatives a tenant can offer (an expired token captured earlier, a
// client of another API of the tenant, a client of a second tenant), and the published
// Management API limits: free (burst 10, 2 a second), free with a burst of 2, and production
// (burst 50, 16 a second). Beside the suite, another client of the same tenant reads once every
// two seconds, as another team's job would.
//
// Per profile it prints: the verdict, requests, wall time, time spent waiting for the rate limit,
// 429s the suite met outside the exhaustion, 429s the other client met (before the exhaustion,
// and during it), and the gating clauses verified. Figures only: nothing here is a pass/fail of
// time. Bounded: each run has its run timeout, and the script stops its servers when it ends.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { exportPKCS8, generateKeyPair, SignJWT, importPKCS8 } from 'jose';
import { Agent, request } from 'undici';
import { parse, stringify } from 'yaml';
import { createMockServer, type MockServer } from '../mock/index.ts';
import type { RunResult } from '../cli/reporters/results.ts';
import { observed, operationKeys } from '../specs/index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

interface Profile {
  name: string;
  bucketSize: number;
  refillPerSecond: number;
}

const published = observed.rate_limit.profiles;
/** A burst of 2 at the free tier's rate: the bench's own harder case, not a published tier. */
const BURST_2 = 2;

const PROFILES: Record<string, Profile> = {
  free: profileOf('free', published.free.bucket_size, published.free.refill_per_second),
  burst2: profileOf('free, burst 2', BURST_2, published.free.refill_per_second),
  production: profileOf('production', published.production.bucket_size, published.production.refill_per_second),
};

function profileOf(label: string, bucketSize: number, refillPerSecond: number): Profile {
  return { name: `${label} (${bucketSize}, ${refillPerSecond}/s)`, bucketSize, refillPerSecond };
}

const OTHER_CLIENT_EVERY_MS = 2_000;

interface Row {
  profile: string;
  verdict: string;
  exit: number | null;
  requests: number;
  wallS: number;
  waitedS: number;
  suite429s: number;
  other429sBefore: number;
  other429sDuring: number;
  otherReads: number;
  verified: string;
  unverified: string[];
}

const USAGE = `Usage: npm run bench:tenant -- [--profiles free,burst2,production] [--run-timeout S] [--measure-limits]
                               [--seed N] [--num-runs N] [--record] [--reports DIR]

Runs the whole suite with every opt-in against the mock standing in for a real tenant over HTTPS,
at the published free and production rate limits, beside another client reading every 2 s.
--measure-limits leaves the limits out of the target file, so the suite measures the refill.
--seed, --num-runs and --record are handed to the suite; --reports DIR keeps each profile's
reports in DIR/<profile> (bench/drift.ts compares them with a run against the embedded mock).`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      profiles: { type: 'string', default: 'free,burst2,production' },
      'run-timeout': { type: 'string', default: '300' },
      'measure-limits': { type: 'boolean', default: false },
      seed: { type: 'string' },
      'num-runs': { type: 'string' },
      record: { type: 'boolean', default: false },
      reports: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const wanted = values.profiles.split(',');
  const rows: Row[] = [];
  for (const name of wanted) {
    const profile = PROFILES[name];
    if (!profile) throw new Error(`unknown profile ${name}; use ${Object.keys(PROFILES).join(', ')}`);
    const suiteArgs = [
      ...(values.seed !== undefined ? ['--seed', values.seed] : []),
      ...(values['num-runs'] !== undefined ? ['--num-runs', values['num-runs']] : []),
      ...(values.record ? ['--record'] : []),
    ];
    const keep = values.reports === undefined ? undefined : join(values.reports, name);
    rows.push(await standIn(profile, Number(values['run-timeout']), !values['measure-limits'], suiteArgs, keep));
  }
  process.stdout.write(
    `\n| Profile | Verdict | Requests | Wall time | Waiting for the rate limit | Suite 429s outside the exhaustion | Other client's 429s (before / during the exhaustion, of its reads) | Gating clauses verified |\n|---|---|---|---|---|---|---|---|\n`,
  );
  for (const r of rows) {
    process.stdout.write(
      `| ${r.profile} | ${r.verdict} | ${r.requests} | ${r.wallS.toFixed(0)} s | ${r.waitedS.toFixed(0)} s | ${r.suite429s} | ${r.other429sBefore} / ${r.other429sDuring} of ${r.otherReads} | ${r.verified} |\n`,
    );
  }
  for (const r of rows.filter((row) => row.unverified.length > 0))
    process.stdout.write(`\n${r.profile}: not verified: ${r.unverified.join('; ')}\n`);
  return 0;
}

/** `keepReports`: where the suite's reports go and stay (else a temporary directory, removed). */
async function standIn(
  profile: Profile,
  runTimeoutS: number,
  declareLimits: boolean,
  suiteArgs: string[] = [],
  keepReports?: string,
): Promise<Row> {
  const work = mkdtempSync(join(tmpdir(), 'tenant-stand-in-'));
  const keyFile = join(work, 'tenant-signing-key.pem');
  writeFileSync(keyFile, await exportPKCS8((await generateKeyPair('RS256', { extractable: true })).privateKey), { mode: 0o600 });
  const tenant = await createMockServer({
    tls: true,
    signingKey: keyFile,
    rateLimit: { bucketSize: profile.bucketSize, refillPerSecond: profile.refillPerSecond },
    report: () => {},
  });
  const other = await createMockServer({ tls: true, fixtures: join(root, 'mock', 'fixtures', 'other-tenant.yaml'), report: () => {} });
  const certPath = tenant.tls?.certPath;
  if (!certPath) throw new Error('the stand-in has no certificate file to trust');
  const agent = new Agent({ connect: { ca: readFileSync(certPath, 'utf8') } });
  try {
    const fixtures = parse(readFileSync(join(root, 'mock', 'fixtures', 'default.yaml'), 'utf8')) as {
      clients: Array<{ name: string; client_id: string; client_secret?: string }>;
    };
    const otherFixtures = parse(readFileSync(join(root, 'mock', 'fixtures', 'other-tenant.yaml'), 'utf8')) as typeof fixtures;
    const client = (name: string, from = fixtures) => from.clients.find((c) => c.name === name)!;
    const description = parse(readFileSync(join(root, 'targets', 'mock.yaml'), 'utf8')) as Record<string, unknown> & {
      roles: Record<string, unknown>;
      fixtures: { vault_connections: string[] };
    };
    const vaultConnection = description.fixtures.vault_connections[0]!;
    delete description.test_double;
    delete description.signing_key_file;
    const env: Record<string, string> = {};
    for (const [role, credentials] of Object.entries(description.roles as Record<string, { client_id: string; client_secret: string }>)) {
      env[`STAND_IN_${role.toUpperCase()}_SECRET`] = credentials.client_secret;
      description.roles[role] = { client_id: credentials.client_id, client_secret_env: `STAND_IN_${role.toUpperCase()}_SECRET` };
    }
    description.base_url = `${tenant.url}/api/v2`;
    description.auth_url = tenant.url;
    if (declareLimits) description.rate_limit = { limit: profile.bucketSize, refill_per_second: profile.refillPerSecond };
    env.STAND_IN_EXPIRED_TOKEN = await capturedTokenSinceExpired(keyFile, tenant, client('global').client_id);
    env.STAND_IN_REPORTS_SECRET = client('reports-client').client_secret!;
    env.STAND_IN_OTHER_TENANT_SECRET = client('global', otherFixtures).client_secret!;
    description.token_alternatives = {
      expired_token_env: 'STAND_IN_EXPIRED_TOKEN',
      other_audience: {
        audience: 'https://reports-api.example.com/',
        client_id: client('reports-client').client_id,
        client_secret_env: 'STAND_IN_REPORTS_SECRET',
      },
      other_tenant: {
        auth_url: other.url,
        audience: `https://${other.tenantDomain}/api/v2/`,
        client_id: client('global', otherFixtures).client_id,
        client_secret_env: 'STAND_IN_OTHER_TENANT_SECRET',
      },
    };
    const targetFile = join(work, 'stand-in.yaml');
    writeFileSync(targetFile, stringify(description));

    // Another client of the tenant, reading steadily for as long as the suite runs.
    const reads: Array<{ at: number; status: number }> = [];
    const token = await tokenOf(tenant, agent, client('global').client_id, client('global').client_secret!);
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const at = Date.now();
        const answer = await request(`${tenant.apiBaseUrl}/flows/vault/connections/${vaultConnection}`, {
          dispatcher: agent,
          headers: { authorization: `Bearer ${token}` },
        }).catch(() => undefined);
        if (answer) {
          await answer.body.dump();
          reads.push({ at, status: answer.statusCode });
        }
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, at + OTHER_CLIENT_EVERY_MS - Date.now())));
      }
    })();

    const out = keepReports ?? join(work, 'reports');
    process.stdout.write(`${profile.name}: running the suite against ${tenant.url} ...\n`);
    const started = Date.now();
    const exit = await runSuite(
      [
        '--target-file',
        targetFile,
        '--allow-writes',
        '--allow-rate-limit-exhaustion',
        '--run-timeout',
        String(runTimeoutS),
        '--out',
        out,
        ...suiteArgs,
      ],
      { ...env, NODE_EXTRA_CA_CERTS: certPath },
    );
    const wallS = (Date.now() - started) / 1000;
    reading = false;
    await reader;

    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult;
    const exhaustionStart = Math.min(
      ...results.tests.filter((t) => t.paid['rate-limit exhaustion'] !== undefined).flatMap((t) => t.rateLimit.map((p) => p.at)),
      Number.POSITIVE_INFINITY,
    );
    const gating = results.clauses.filter((c) => c.gating);
    const row: Row = {
      profile: profile.name,
      verdict: results.verdict,
      exit,
      requests: results.requests,
      wallS,
      waitedS: results.info.waitedMs / 1000,
      suite429s: results.info.unplanned429s,
      other429sBefore: reads.filter((r) => r.status === 429 && r.at < exhaustionStart).length,
      other429sDuring: reads.filter((r) => r.status === 429 && r.at >= exhaustionStart).length,
      otherReads: reads.length,
      verified: `${gating.filter((c) => c.status === 'verified').length} of ${gating.length}`,
      unverified: gating
        .filter((c) => c.status !== 'verified')
        .map((c) => `${c.id} (${c.status}${c.reasons.length ? `: ${c.reasons.join(', ')}` : ''})`),
    };
    process.stdout.write(
      `${profile.name}: ${row.verdict}, ${row.requests} requests, ${row.wallS.toFixed(0)} s, waited ${row.waitedS.toFixed(0)} s, suite 429s ${row.suite429s}, other client 429s ${row.other429sBefore} before / ${row.other429sDuring} during the exhaustion\n`,
    );
    return row;
  } finally {
    await agent.close();
    await tenant.close();
    await other.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** What a team would have captured earlier: a token of the tenant, since expired. */
async function capturedTokenSinceExpired(keyFile: string, tenant: MockServer, clientId: string): Promise<string> {
  const key = await importPKCS8(readFileSync(keyFile, 'utf8'), 'RS256');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    scope: operationKeys.map((op) => observed.operations[op].scope.value).join(' '),
    azp: clientId,
    gty: 'client-credentials',
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: tenant.keys.kid })
    .setIssuer(tenant.issuer)
    .setAudience(tenant.audience)
    .setSubject(`${clientId}@clients`)
    .setIssuedAt(now - 90_000)
    .setExpirationTime(now - 3_600)
    .sign(key);
}

async function tokenOf(tenant: MockServer, agent: Agent, clientId: string, clientSecret: string): Promise<string> {
  const answer = await request(`${tenant.url}${observed.tokens.path}`, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      audience: tenant.audience,
    }).toString(),
  });
  return ((await answer.body.json()) as { access_token: string }).access_token;
}

function runSuite(args: string[], env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'cli', 'conformance.ts'), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tail = '';
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-2_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('exit', (code) => {
      if (code !== 0) process.stdout.write(`  (exit ${code}) ${tail.trim().split('\n').slice(-3).join(' | ')}\n`);
      resolve(code);
    });
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exit(2);
  },
);
