// check-traffic end to end, on recordings the project makes itself: the official SDK and the
// suite run against the mock through the recording proxy. As recorded they PASS, with their
// coverage shown; altered to carry a fault they FAIL on the clause the fault breaks; and judging
// them sends nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { endpointOf } from '../../traffic/endpoints.ts';
import { judgeRecordings } from '../../traffic/judge.ts';
import { readRecording, type Recorded } from '../../traffic/recording.ts';
import type { TrafficResult } from '../traffic/result.ts';
import { alterations, type Source } from './support/altered-recordings.ts';
import { run } from './support/programs.ts';
import { recordSdk, recordSuite } from './support/recordings.ts';

const dir = mkdtempSync(join(tmpdir(), 'check-traffic-'));
const NON_GLOBAL = '7wAR1VvXkrHB52bjvpZ0EMo6a4mPgRS8';
let files: Record<Source, string>;

beforeAll(async () => {
  const sdk = await recordSdk(dir);
  if (sdk.finished.code !== 0) throw new Error(`the SDK did not run: ${sdk.finished.stderr}`);
  const suite = await recordSuite(dir);
  if (suite.finished.code === null || suite.finished.code > 4) throw new Error(`the suite did not run: ${suite.finished.stderr}`);
  files = { sdk: sdk.files[0]!, 'sdk-limited': sdk.files[1]!, suite: suite.file };
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const results = (out: string) => JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as TrafficResult;
const coverage = (out: string, id: string) => results(out).traffic.coverage.find((c) => c.id === id);

interface Har {
  log: {
    entries: Array<{
      request: { url: string; headers: Array<{ name: string; value: string }>; postData?: { text?: string } };
      response: { status: number; content: { text?: string } };
      _tokens?: unknown;
      _digests?: unknown;
    }>;
  };
}
const readHar = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Har;

describe('recordings as made', () => {
  test('the official SDK through the recording proxy is judged PASS, its coverage shown', async () => {
    const out = join(dir, 'sdk-reports');
    const done = await run('cli/check-traffic.ts', [files.sdk, files['sdk-limited'], '--out', out]);
    expect({ code: done.code, said: /judged (\d+) exchanges/.exec(done.stdout)?.[1] }).toEqual({
      code: 0,
      said: expect.stringMatching(/^[1-9]\d*$/),
    });
    expect([
      coverage(out, 'redeliver.success.202')?.result,
      coverage(out, 'rate-limit.429.headers')?.result,
      coverage(out, 'redeliver.path.id.length')?.result,
    ]).toEqual(['held', 'held', 'not reached']);
  });

  test('the suite through the recording proxy is judged PASS on every clause it reaches', async () => {
    const out = join(dir, 'suite-traffic');
    const done = await run('cli/check-traffic.ts', [files.suite, '--out', out, '--non-global-client', NON_GLOBAL]);
    const reached = results(out).traffic.coverage.filter((c: { result: string }) => c.result === 'held' || c.result === 'broken');
    expect({
      code: done.code,
      broken: reached.filter((c: { result: string }) => c.result === 'broken').map((c: { id: string }) => c.id),
    }).toEqual({ code: 0, broken: [] });
    expect(reached.length).toBeGreaterThan(60);
  });

  test('a clause no exchange reached is listed as such, never as held', async () => {
    const out = join(dir, 'sdk-only');
    await run('cli/check-traffic.ts', [files.sdk, '--out', out]);
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary).toMatch(/## Clauses no recorded exchange reached[\s\S]*`sso-ticket\.header\.custom-domain\.length`/);
    expect(coverage(out, 'sso-ticket.header.custom-domain.length')).toMatchObject({ exchanges: 0, result: 'not reached' });
  });
});

test('judging a recording sends no request, even to the live server it names', async () => {
  let connections = 0;
  const server: Server = createServer((_, res) => res.end('{}'));
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const live = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pointed = join(dir, 'pointed-at-live.har');
  writeFileSync(pointed, readFileSync(files.sdk, 'utf8').replace(/https:\/\/127\.0\.0\.1:\d+/g, live));
  try {
    const done = await run('cli/check-traffic.ts', [pointed, '--out', join(dir, 'live-reports')]);
    expect({ code: done.code, connections }).toEqual({ code: 0, connections: 0 });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

/** The exchange a row alters, the one before it on its origin, and every token endpoint and JWKS exchange. */
function sliceFor(recorded: readonly Recorded[], pick: (r: Recorded, p: Recorded | undefined) => boolean) {
  const kind = (r: Recorded) => endpointOf(r.exchange.request.method, r.exchange.request.url).kind;
  const origin = (r: Recorded) => new URL(r.exchange.request.url).origin;
  const previousOf = (i: number) => recorded.slice(0, i).findLast((p) => kind(p) === 'operation' && origin(p) === origin(recorded[i]!));
  const index = recorded.findIndex((r, i) => pick(r, kind(r) === 'operation' ? previousOf(i) : undefined));
  if (index < 0) return undefined;
  const previous = kind(recorded[index]!) === 'operation' ? previousOf(index) : undefined;
  const slice = recorded.filter((r, i) => i === index || r === previous || kind(r) === 'token' || kind(r) === 'jwks');
  return { slice: structuredClone(slice), position: recorded[index]!.position, previousPosition: previous?.position };
}

describe('recordings altered to carry a fault fail on the clause it breaks', () => {
  test.for(alterations.map((a) => [`${a.clause}: ${a.fault}`, a] as const))('%s', ([, row]) => {
    const found = sliceFor(readRecording(files[row.source]), row.pick);
    expect(found, `no exchange of the ${row.source} recording fits the row`).toBeDefined();
    const { slice, position, previousPosition } = found!;
    const failures = (recorded: Recorded[]) => judgeRecordings([recorded], row.hints).judgments.filter((j) => j.outcome === 'fail');
    const asRecorded = failures(slice);
    const target = slice.find((r) => r.position === position)!;
    row.alter(target.exchange, slice.find((r) => r.position === previousPosition)?.exchange);
    const altered = failures(slice);
    // As recorded nothing fails (the control); altered, the clause fails, and nothing else fails
    // anywhere but at the altered exchange.
    expect({
      asRecorded: asRecorded.map((j) => `${j.clause} at ${j.position}`),
      fails: altered.some((j) => j.clause === row.clause),
      elsewhere: altered.filter((j) => j.position !== position && j.clause !== row.clause).map((j) => `${j.clause} at ${j.position}`),
    }).toEqual({ asRecorded: [], fails: true, elsewhere: [] });
  });
});

test('an altered recording makes check-traffic FAIL, naming the clause and the exchange', async () => {
  const har = readHar(files.sdk);
  const redelivery = har.log.entries.find((e) => e.request.url.includes('/redeliver/') && e.response.status === 202)!;
  redelivery.response.status = 200;
  const altered = join(dir, 'altered.har');
  writeFileSync(altered, JSON.stringify(har));
  const done = await run('cli/check-traffic.ts', [altered, '--out', join(dir, 'altered-reports')]);
  expect({
    code: done.code,
    named: /FAIL \[§4\.1 redeliver\.success\.202\][\s\S]*exchange: \d+ of .*altered\.har/.test(done.stdout),
  }).toEqual({ code: 1, named: true });
});

test('no credential or ticket URL of a raw recording reaches a report', async () => {
  const har = readHar(files.sdk);
  const secrets = {
    token: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLW9mLXRoaXMtdG9rZW4',
    secret: 'S3cr3t-client-secret-of-a-real-tenant',
    code: 'Zq81pLm2Xc93Vb04Nn5Tt6Yy7Uu8Ii9O',
  };
  for (const entry of har.log.entries) {
    for (const h of entry.request.headers) if (h.name === 'authorization') h.value = `Bearer ${secrets.token}`;
    if (entry.request.postData?.text?.includes('client_secret'))
      entry.request.postData.text = entry.request.postData.text.replace(/client_secret=[^&]*/, `client_secret=${secrets.secret}`);
    if (entry.response.content.text?.includes('ticket='))
      entry.response.content.text = entry.response.content.text.replace(/ticket=[^"]*/, `ticket=${secrets.code}`);
    delete entry._tokens;
    delete entry._digests;
  }
  // A target that echoes credentials in an error message: the message is quoted in every report.
  const refused = har.log.entries.find((e) => e.response.status === 401)!;
  refused.response.content.text = JSON.stringify({
    statusCode: 401,
    error: 'Unauthorized',
    message: `Invalid token ${secrets.token} for ${secrets.secret}, ticket=${secrets.code}`,
  });
  const raw = join(dir, 'raw.har');
  writeFileSync(raw, JSON.stringify(har));
  const out = join(dir, 'raw-reports');
  const done = await run('cli/check-traffic.ts', [raw, '--out', out]);
  const written =
    ['junit.xml', 'junit-observed.xml', 'summary.md', 'results.json', 'report.html']
      .map((f) => readFileSync(join(out, f), 'utf8'))
      .join('\n') +
    done.stdout +
    done.stderr;
  expect({
    quoted: written.includes('Invalid token'),
    leaked: Object.entries(secrets).filter(([, value]) => written.includes(value)),
  }).toEqual({ quoted: true, leaked: [] });
});

describe('what is not a recording', () => {
  test.for([
    ['text that is neither HAR nor NDJSON', 'this is not JSON\n', /line 1 is not JSON .*HAR 1\.2 or NDJSON/],
    ['HAR without entries', '{\n "log": {}\n}', /not HAR 1\.2: it has no log\.entries/],
    [
      'an NDJSON line without a status',
      '{"request":{"method":"GET","url":"https://h/api/v2/x"},"response":{}}',
      /line 1 lacks response\.status/,
    ],
  ] as const)('%s is refused with exit 2, naming the file', async ([, content, message]) => {
    const bad = join(dir, 'bad-recording.txt');
    writeFileSync(bad, content);
    const done = await run('cli/check-traffic.ts', [bad, '--out', join(dir, 'bad-reports')]);
    expect({ code: done.code, stderr: done.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(message) });
    expect(done.stderr).toContain('bad-recording.txt');
    expect(done.stderr).not.toMatch(/\n\s+at /);
  });
});
