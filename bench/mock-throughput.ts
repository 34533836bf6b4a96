// `npm run bench`: throughput of the mock against a bare node:http server, on the vault read.
//
// Each server runs in a child process; the load comes from this process (undici Pool, a few
// connections), bounded by a duration and a request count, whichever comes first. For each
// server: requests/s, p50/p99 latency, peak RSS of the server process; then the ratio mock/bare.
// Correctness under load: every answer must be 200 with the exact record, no 5xx; afterwards the
// mock's record is unchanged and a redelivery still works. Prints figures; asserts no timing.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool, request } from 'undici';
import { basePath, observed, operation } from '../specs/index.ts';
import { loadFixtures } from '../mock/fixtures.ts';
import type { ReadyMessage, StoppedMessage } from './servers/ipc.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    requests: { type: 'string', default: '300000' },
    connections: { type: 'string', default: '8' },
    pipelining: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '1' },
  },
});
const DURATION_MS = Number(values.duration) * 1000;
const MAX_REQUESTS = Number(values.requests);
const CONNECTIONS = Number(values.connections);
const PIPELINING = Number(values.pipelining);
const WARMUP_MS = Number(values.warmup) * 1000;
const GOAL = { ratio: 0.6, rssMb: 150 };

const fixtures = loadFixtures().data;
const record = fixtures.vault_connections![0]!;
const expectedBody = JSON.stringify(record);
const vaultPath = `${basePath}${operation('vault').pathTemplate.replace('{id}', record.id)}`;
const global = fixtures.clients.find((c) => c.name === 'global')!;
const stream = fixtures.event_streams![0]!;
const failedEvent = stream.events.find((e) => e.status === 'failed')!;

interface Server {
  name: string;
  child: ChildProcess;
  url: string;
}

function startServer(name: string, file: string, env: Record<string, string> = {}): Promise<Server> {
  const child = fork(fileURLToPath(new URL(file, import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${name} server exited early (code ${code})`)));
    child.once('message', (message: ReadyMessage) => resolve({ name, child, url: message.url }));
  });
}

function stopServer(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.child.removeAllListeners('exit');
    server.child.once('message', (message: StoppedMessage) => resolve(message.maxRssKb));
    server.child.send({ kind: 'stop' });
  });
}

interface LoadResult {
  requests: number;
  seconds: number;
  latenciesMs: Float64Array;
  wrong: Map<string, number>;
}

/** Keeps connections x pipelining requests in flight until the time or the request bound. */
async function load(url: string, headers: Record<string, string>, durationMs: number, maxRequests: number): Promise<LoadResult> {
  const pool = new Pool(url, { connections: CONNECTIONS, pipelining: PIPELINING });
  const latencies = new Float64Array(maxRequests);
  const wrong = new Map<string, number>();
  let sent = 0;
  let done = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  async function worker(): Promise<void> {
    while (sent < maxRequests && performance.now() < deadline) {
      sent += 1;
      const t0 = performance.now();
      const response = await pool.request({ method: 'GET', path: vaultPath, headers });
      const text = await response.body.text();
      latencies[done] = performance.now() - t0;
      done += 1;
      if (response.statusCode !== 200 || text !== expectedBody) {
        const key = `status ${response.statusCode}${response.statusCode === 200 ? ' with another body' : ''}`;
        wrong.set(key, (wrong.get(key) ?? 0) + 1);
      }
    }
  }
  await Promise.all(Array.from({ length: CONNECTIONS * PIPELINING }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { requests: done, seconds, latenciesMs: latencies.subarray(0, done), wrong };
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function accessToken(url: string): Promise<string> {
  const response = await request(`${url}${observed.tokens.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: global.client_id,
      client_secret: global.client_secret,
      audience: `https://${fixtures.tenant.domain}/api/v2/`,
    }),
  });
  const body = (await response.body.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`the mock issued no token (status ${response.statusCode})`);
  return body.access_token;
}

/** After the load: the record reads back unchanged, and a redelivery is still accepted. */
async function stateIntact(url: string, token: string): Promise<string[]> {
  const problems: string[] = [];
  const read = await request(`${url}${vaultPath}`, { headers: { authorization: `Bearer ${token}` } });
  if (read.statusCode !== 200 || (await read.body.text()) !== expectedBody)
    problems.push(`the record reads back as status ${read.statusCode} or another body`);
  const redeliverPath = `${basePath}${operation('redeliver').pathTemplate.replace('{id}', stream.id).replace('{event_id}', failedEvent.id)}`;
  const redelivery = await request(`${url}${redeliverPath}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  await redelivery.body.dump();
  if (redelivery.statusCode !== observed.operations.redeliver.success.status)
    problems.push(`a redelivery after the load answered ${redelivery.statusCode}`);
  return problems;
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  rssMb: number;
  requests: number;
  wrong: Map<string, number>;
}

async function measure(server: Server, headers: Record<string, string>): Promise<Omit<Figures, 'rssMb'>> {
  await load(server.url, headers, WARMUP_MS, MAX_REQUESTS);
  const result = await load(server.url, headers, DURATION_MS, MAX_REQUESTS);
  const sorted = Float64Array.from(result.latenciesMs).sort();
  return {
    name: server.name,
    rps: result.requests / result.seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    requests: result.requests,
    wrong: result.wrong,
  };
}

async function main(): Promise<void> {
  console.log(
    `bench: GET ${vaultPath}, ${CONNECTIONS} connections x pipelining ${PIPELINING}, ${values.duration} s or ${MAX_REQUESTS} requests (after ${values.warmup} s warm-up)`,
  );
  const results: Figures[] = [];
  const problems: string[] = [];

  const bare = await startServer('bare node:http', './servers/bare-server.ts', {
    BENCH_PATH: vaultPath,
    BENCH_BODY: expectedBody,
    BENCH_CONTENT_TYPE: observed.content_type,
  });
  const bareFigures = await measure(bare, {});
  results.push({ ...bareFigures, rssMb: (await stopServer(bare)) / 1024 });

  const mock = await startServer('mock', './servers/mock-server.ts');
  try {
    const token = await accessToken(mock.url);
    const mockFigures = await measure(mock, { authorization: `Bearer ${token}` });
    problems.push(...(await stateIntact(mock.url, token)));
    results.push({ ...mockFigures, rssMb: (await stopServer(mock)) / 1024 });
  } catch (error) {
    mock.child.kill();
    throw error;
  }

  console.log('');
  console.log('server           requests   req/s     p50 ms   p99 ms   peak RSS MB   wrong answers');
  for (const r of results) {
    const wrong = [...r.wrong.entries()].map(([k, n]) => `${n} x ${k}`).join(', ') || 'none';
    console.log(
      `${r.name.padEnd(16)} ${String(r.requests).padStart(8)}   ${r.rps.toFixed(0).padStart(6)}   ${r.p50.toFixed(2).padStart(6)}   ${r.p99.toFixed(2).padStart(6)}   ${r.rssMb.toFixed(1).padStart(11)}   ${wrong}`,
    );
    for (const [kind, n] of r.wrong) problems.push(`${r.name}: ${n} answers of ${kind}`);
  }
  const [bareResult, mockResult] = results as [Figures, Figures];
  const ratio = mockResult.rps / bareResult.rps;
  console.log('');
  console.log(`throughput ratio mock/bare: ${ratio.toFixed(2)} (goal >= ${GOAL.ratio})`);
  console.log(`mock peak RSS: ${mockResult.rssMb.toFixed(1)} MB (goal < ${GOAL.rssMb} MB)`);
  console.log(
    `correctness under load: ${problems.length === 0 ? 'every answer 200 with the exact record; record unchanged and redelivery accepted afterwards' : problems.join('; ')}`,
  );
  process.exitCode = problems.length === 0 ? 0 : 1;
}

await main();
