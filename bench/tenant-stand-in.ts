// `npm run bench:tenant`: the suite against a stand-in of a real tenant, as a release gate would
// run it in CI. The mock stands up as a tenant looks from outside: HTTPS (a self-signed
// certificate the suite trusts through NODE_EXTRA_CA_CERTS), a target file that does not declare
// a test double (so the suite treats it as someone's tenant), secrets from the environment,
// every opt-in, the token alternatives a tenant can offer (an expired token captured earlier, a
// client of another API of the tenant, a client of a second tenant), a quota of issued tokens per
// client (so the token endpoint sends its quota header), and the published Management API
// limits: free (burst 10, 2 a second), free with a burst of 2, and production (burst 50, 16 a
// second). Beside the suite, another client of the same tenant (the neighbour) reads once every
// two seconds, as another team's job would: from before the suite starts, through the
// exhaustion, and for a while after the suite ends.
//
// Per run it prints: the verdict, requests, wall time, time spent waiting for the rate limit, the
// lowest X-RateLimit-Remaining the suite's own answers saw outside the exhaustion against the
// floor it leaves to others, 429s the suite met outside the exhaustion, tokens minted and reused
// (each run keeps its token cache in the bench's own directory: `--runs 2` shows a second run
// reusing the first's), and the neighbour's 429s before, during and after the exhaustion.
// Figures only: nothing here is a pass/fail of time. Bounded: each run has its run timeout, the
// neighbour stops a fixed time after the last run, and the script stops its servers when it ends.
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
/** The neighbour keeps reading this long after the last run (the bucket refills meanwhile). */
const AFTER_THE_SUITE_MS = 20_000;
/** Tokens each client may be issued, per hour and per day: enough for several runs, and sent in the quota header. */
const TOKEN_QUOTA = { perHour: 50, perDay: 500 };

interface Row {
  profile: string;
  run: number;
  verdict: string;
  exit: number | null;
  requests: number;
  wallS: number;
  waitedS: number;
  /** The lowest Remaining the suite's own answers showed outside the exhaustion, and the floor. */
  lowestRemaining: number | undefined;
  floor: number | undefined;
  suite429s: number;
  minted: number;
  reused: number;
  quota: string;
  neighbour: { before: number; during: number; after: number; reads: number };
  verified: string;
  unverified: string[];
}

const USAGE = `Usage: npm run bench:tenant -- [--profiles free,burst2,production] [--runs N] [--quiet] [--run-timeout S] [--measure-limits]
                               [--seed N] [--num-runs N] [--max-requests N] [--record] [--reports DIR]

Runs the whole suite with every opt-in against the mock standing in for a real tenant over HTTPS,
at the published free and production rate limits, beside another client reading every 2 s.
--runs N runs the suite N times in a row against each tenant (the later runs reuse the first's
tokens); --quiet leaves the neighbour out (the tenant is the suite's alone); --measure-limits leaves the limits out of the target file, so the suite measures the refill.
--seed, --num-runs, --max-requests and --record are handed to the suite; --reports DIR keeps each profile's
reports in DIR/<profile> (DIR/<profile>-run-N from the second run on; bench/drift.ts compares
them with a run against the embedded mock).`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      profiles: { type: 'string', default: 'free,burst2,production' },
      'run-timeout': { type: 'string', default: '300' },
      runs: { type: 'string', default: '1' },
      quiet: { type: 'boolean', default: false },
      'measure-limits': { type: 'boolean', default: false },
      seed: { type: 'string' },
      'num-runs': { type: 'string' },
      'max-requests': { type: 'string' },
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
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 5) throw new Error(`--runs needs an integer from 1 to 5, got "${values.runs}"`);
  const suiteArgs = [
    ...(values.seed !== undefined ? ['--seed', values.seed] : []),
    ...(values['num-runs'] !== undefined ? ['--num-runs', values['num-runs']] : []),
    ...(values['max-requests'] !== undefined ? ['--max-requests', values['max-requests']] : []),
    ...(values.record ? ['--record'] : []),
  ];
  const rows: Row[] = [];
  for (const name of wanted) {
    const profile = PROFILES[name];
    if (!profile) throw new Error(`unknown profile ${name}; use ${Object.keys(PROFILES).join(', ')}`);
    rows.push(
      ...(await standIn(profile, {
        runs,
        runTimeoutS: Number(values['run-timeout']),
        declareLimits: !values['measure-limits'],
        quiet: values.quiet,
        suiteArgs,
        keepReports: values.reports === undefined ? undefined : join(values.reports, name),
      })),
    );
  }
  process.stdout.write(
    `\n| Profile | Run | Verdict | Requests | Wall time | Waiting for the rate limit | Lowest Remaining / floor | Suite 429s outside the exhaustion | Tokens minted / reused | Neighbour's 429s before / during / after the exhaustion, of its reads | Gating clauses verified |\n|---|---|---|---|---|---|---|---|---|---|---|\n`,
  );
  for (const r of rows) {
    process.stdout.write(
      `| ${r.profile} | ${r.run} | ${r.verdict} | ${r.requests} | ${r.wallS.toFixed(0)} s | ${r.waitedS.toFixed(0)} s | ${r.lowestRemaining ?? '?'} / ${r.floor ?? '?'} | ${r.suite429s} | ${r.minted} / ${r.reused} | ${r.neighbour.before} / ${r.neighbour.during} / ${r.neighbour.after} of ${r.neighbour.reads} | ${r.verified} |\n`,
    );
  }
  for (const r of rows) process.stdout.write(`\n${r.profile}, run ${r.run}: token quota: ${r.quota}`);
  process.stdout.write('\n');
  for (const r of rows.filter((row) => row.unverified.length > 0))
    process.stdout.write(`\n${r.profile}, run ${r.run}: not verified: ${r.unverified.join('; ')}\n`);
  return 0;
}

interface StandInOptions {
  runs: number;
  runTimeoutS: number;
  declareLimits: boolean;
  /** No neighbour: the tenant is the suite's alone. */
  quiet: boolean;
  /** Handed to the suite as they are (`--seed`, `--num-runs`, `--record`). */
  suiteArgs: string[];
  /** Where the reports go and stay (else the bench's temporary directory, removed). */
  keepReports: string | undefined;
}

async function standIn(
  profile: Profile,
  { runs, runTimeoutS, declareLimits, quiet, suiteArgs, keepReports }: StandInOptions,
): Promise<Row[]> {
  const work = mkdtempSync(join(tmpdir(), 'tenant-stand-in-'));
  const keyFile = join(work, 'tenant-signing-key.pem');
  writeFileSync(keyFile, await exportPKCS8((await generateKeyPair('RS256', { extractable: true })).privateKey), { mode: 0o600 });
  const tenant = await createMockServer({
    tls: true,
    signingKey: keyFile,
    rateLimit: { bucketSize: profile.bucketSize, refillPerSecond: profile.refillPerSecond },
    tokenQuota: TOKEN_QUOTA,
    report: () => {},
  });
  const other = await createMockServer({ tls: true, fixtures: join(root, 'mock', 'fixtures', 'other-tenant.yaml'), report: () => {} });
  const certPath = tenant.tls?.certPath;
  if (!certPath) throw new Error('the stand-in has no certificate file to trust');
  const agent = new Agent({ connect: { ca: readFileSync(certPath, 'utf8') } });
  let neighbour: Neighbour | undefined;
  try {
    const { targetFile, env, vaultConnection, global } = await describeStandIn(
      work,
      tenant,
      other,
      keyFile,
      declareLimits ? profile : undefined,
    );
    if (!quiet)
      neighbour = startNeighbour(tenant, agent, vaultConnection, await tokenOf(tenant, agent, global.client_id, global.client_secret!));
    const finished: Array<{ exit: number | null; wallS: number; out: string; startedAt: number }> = [];
    for (let run = 1; run <= runs; run += 1) {
      const out = keepReports === undefined ? join(work, `reports-${run}`) : run === 1 ? keepReports : `${keepReports}-run-${run}`;
      process.stdout.write(`${profile.name}, run ${run}: running the suite against ${tenant.url} ...\n`);
      const startedAt = Date.now();
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
        // The token cache lives in the bench's directory: later runs reuse the first's tokens.
        { ...env, NODE_EXTRA_CA_CERTS: certPath, XDG_CACHE_HOME: join(work, 'cache') },
      );
      finished.push({ exit, wallS: (Date.now() - startedAt) / 1000, out, startedAt });
    }
    // The neighbour reads on after the suite: the bucket refills, and its reads should succeed again.
    if (neighbour) await new Promise((resolve) => setTimeout(resolve, AFTER_THE_SUITE_MS));
    const reads = (await neighbour?.stop()) ?? [];
    return finished.map((f, index) => {
      const row = rowOf(profile, index + 1, f, reads, finished[index + 1]?.startedAt ?? Number.POSITIVE_INFINITY);
      process.stdout.write(
        `${profile.name}, run ${row.run}: ${row.verdict}, ${row.requests} requests, ${row.wallS.toFixed(0)} s, waited ${row.waitedS.toFixed(0)} s, lowest Remaining ${row.lowestRemaining ?? '?'} (floor ${row.floor ?? '?'}), tokens ${row.minted} minted / ${row.reused} reused, neighbour 429s ${row.neighbour.before} before / ${row.neighbour.during} during / ${row.neighbour.after} after the exhaustion\n`,
      );
      return row;
    });
  } finally {
    await neighbour?.stop();
    await agent.close();
    await tenant.close();
    await other.close();
    rmSync(work, { recursive: true, force: true });
  }
}

interface StandInDescription {
  targetFile: string;
  env: Record<string, string>;
  vaultConnection: string;
  global: { client_id: string; client_secret?: string };
}

/** targets/mock.yaml as someone's tenant: no test double, no signing key, secrets in the environment, the token alternatives. */
async function describeStandIn(
  work: string,
  tenant: MockServer,
  other: MockServer,
  keyFile: string,
  limits: Profile | undefined,
): Promise<StandInDescription> {
  const fixtures = parse(readFileSync(join(root, 'mock', 'fixtures', 'default.yaml'), 'utf8')) as {
    clients: Array<{ name: string; client_id: string; client_secret?: string }>;
  };
  const otherFixtures = parse(readFileSync(join(root, 'mock', 'fixtures', 'other-tenant.yaml'), 'utf8')) as typeof fixtures;
  const client = (name: string, from = fixtures) => from.clients.find((c) => c.name === name)!;
  const description = parse(readFileSync(join(root, 'targets', 'mock.yaml'), 'utf8')) as Record<string, unknown> & {
    roles: Record<string, unknown>;
    fixtures: { vault_connections: string[] };
  };
  delete description.test_double;
  delete description.signing_key_file;
  const env: Record<string, string> = {};
  for (const [role, credentials] of Object.entries(
    description.roles as Record<string, { client_id: string; client_secret: string; name?: string }>,
  )) {
    env[`STAND_IN_${role.toUpperCase()}_SECRET`] = credentials.client_secret;
    const { client_secret: _secret, ...rest } = credentials;
    description.roles[role] = { ...rest, client_secret_env: `STAND_IN_${role.toUpperCase()}_SECRET` };
  }
  description.base_url = `${tenant.url}/api/v2`;
  description.auth_url = tenant.url;
  if (limits) description.rate_limit = { limit: limits.bucketSize, refill_per_second: limits.refillPerSecond };
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
    // A tenant's client that authenticates with Private Key JWT: the mock's own development key.
    key_client: {
      client_id: client('private-key-jwt').client_id,
      private_key_file: join(root, 'mock', 'fixtures', 'private-key-jwt-client.key.pem'),
    },
  };
  const targetFile = join(work, 'stand-in.yaml');
  writeFileSync(targetFile, stringify(description));
  return { targetFile, env, vaultConnection: description.fixtures.vault_connections[0]!, global: client('global') };
}

interface Read {
  at: number;
  status: number;
}

interface Neighbour {
  /** Stops reading (at once, or after the read in flight) and gives every read it made. */
  stop(): Promise<Read[]>;
}

/** Another client of the tenant, reading a vault connection every OTHER_CLIENT_EVERY_MS until stopped. */
function startNeighbour(tenant: MockServer, agent: Agent, vaultConnection: string, token: string): Neighbour {
  const reads: Read[] = [];
  let reading = true;
  let wake: () => void = () => {};
  const loop = (async () => {
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
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, Math.max(0, at + OTHER_CLIENT_EVERY_MS - Date.now()));
      });
    }
  })();
  return {
    async stop() {
      reading = false;
      wake();
      await loop;
      return reads;
    },
  };
}

/** One run's figures, from its results.json and the neighbour's reads between its start and the next run's. */
function rowOf(
  profile: Profile,
  run: number,
  finished: { exit: number | null; wallS: number; out: string; startedAt: number },
  reads: readonly Read[],
  nextRunAt: number,
): Row {
  const results = JSON.parse(readFileSync(join(finished.out, 'results.json'), 'utf8')) as RunResult;
  const exhaustion = results.tests
    .filter((t) => t.paid['rate-limit exhaustion'] !== undefined)
    .flatMap((t) => t.rateLimit.map((p) => p.at));
  const exhaustionStart = Math.min(...exhaustion, Number.POSITIVE_INFINITY);
  // The exhaustion's effect lasts until the bucket it emptied has refilled.
  const exhaustionEffectEnd = Math.max(...exhaustion, exhaustionStart) + (profile.bucketSize / profile.refillPerSecond) * 1000;
  const mine = reads.filter((r) => r.at >= finished.startedAt && r.at < nextRunAt);
  const tooMany = (from: number, to: number) => mine.filter((r) => r.status === 429 && r.at >= from && r.at < to).length;
  const gating = results.clauses.filter((c) => c.gating);
  const tokens = results.info.tokens;
  return {
    profile: profile.name,
    run,
    verdict: results.verdict,
    exit: finished.exit,
    requests: results.requests,
    wallS: finished.wallS,
    waitedS: results.info.waitedMs / 1000,
    lowestRemaining: results.info.pacing?.lowestRemaining,
    floor: results.info.pacing?.floor,
    suite429s: results.info.unplanned429s,
    minted: tokens?.minted ?? 0,
    reused: tokens?.reused ?? 0,
    quota: tokens?.quotas.map((q) => `${q.client}: ${q.quota}`).join('; ') || '(no quota header)',
    neighbour: {
      before: tooMany(Number.NEGATIVE_INFINITY, exhaustionStart),
      during: tooMany(exhaustionStart, exhaustionEffectEnd),
      after: tooMany(exhaustionEffectEnd, Number.POSITIVE_INFINITY),
      reads: mine.length,
    },
    verified: `${gating.filter((c) => c.status === 'verified').length} of ${gating.length}`,
    unverified: gating
      .filter((c) => c.status !== 'verified')
      .map((c) => `${c.id} (${c.status}${c.reasons.length ? `: ${c.reasons.join(', ')}` : ''})`),
  };
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
