// Reading recordings: a raw HAR's tokens are decoded and its secrets digested, as a redacted
// recording keeps them; NDJSON lines are read as recorded exchanges.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readRecording } from '../recording.ts';

const dir = mkdtempSync(join(tmpdir(), 'recording-'));
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = `${b64({ alg: 'RS256', kid: 'k' })}.${b64({ sub: 'abc@clients', scope: 'read:flows_vault_connections' })}.c2ln`;

function har(entries: unknown[]): string {
  const file = join(dir, `r${Math.random()}.har`);
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries } }, null, 2));
  return file;
}

const entry = (authorization: string, postData?: string) => ({
  startedDateTime: '2026-08-20T10:00:00.000Z',
  time: 12,
  request: {
    method: 'post',
    url: 'https://tenant.example.com/oauth/token',
    headers: [
      { name: 'Authorization', value: authorization },
      { name: ':authority', value: 'tenant.example.com' },
      { name: 'Content-Type', value: 'application/x-www-form-urlencoded' },
    ],
    ...(postData ? { postData: { mimeType: 'application/x-www-form-urlencoded', text: postData } } : {}),
  },
  response: {
    status: 200,
    headers: [{ name: 'Content-Type', value: 'application/json' }],
    content: { text: Buffer.from('{"a":1}').toString('base64'), encoding: 'base64' },
  },
});

test('a raw HAR entry has its bearer token decoded, its headers named in lower case, its body decoded', () => {
  const [read] = readRecording(har([entry(`Bearer ${jwt}`)]));
  expect({
    method: read!.exchange.request.method,
    headers: Object.keys(read!.exchange.request.headers),
    claims: read!.exchange.tokens?.sent?.claims,
    body: read!.exchange.response.body,
  }).toEqual({
    method: 'POST',
    headers: ['authorization', 'content-type'],
    claims: { sub: 'abc@clients', scope: 'read:flows_vault_connections' },
    body: '{"a":1}',
  });
});

test('two raw client secrets get the same digest when equal and different ones when not', () => {
  const read = readRecording(
    har([
      entry('', 'client_secret=one-secret-value'),
      entry('', 'client_secret=one-secret-value'),
      entry('', 'client_secret=One-secret-value'),
    ]),
  );
  const digests = read.map((r) => r.exchange.digests?.clientSecret);
  expect([digests[0] === digests[1], digests[0] === digests[2], digests[0]?.includes('one-secret')]).toEqual([true, false, false]);
});

test('an NDJSON recording keeps what it recorded, one exchange a line, blank lines skipped', () => {
  const file = join(dir, 'r.ndjson');
  const line = {
    startedAt: '2026-08-20T10:00:00.000Z',
    request: { method: 'GET', url: 'https://h/api/v2/flows/vault/connections/ac_x', headers: {} },
    response: { status: 200, headers: { 'X-RateLimit-Limit': '10' } },
  };
  writeFileSync(file, `${JSON.stringify(line)}\n\n${JSON.stringify(line)}\n`);
  const read = readRecording(file);
  expect(read.map((r) => [r.position, r.exchange.response.headers['x-ratelimit-limit']])).toEqual([
    [1, '10'],
    [2, '10'],
  ]);
});
