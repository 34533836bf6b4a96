// HTTPS: a self-signed certificate for the loopback names, made once in a directory and reused,
// or a given one; the origin is https://, and a client that trusts the certificate talks to it.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import { observed } from '../../specs/index.ts';
import { MockConfigError } from '../config-error.ts';
import { createMockServer } from '../index.ts';
import { TLS_DNS_NAMES, TLS_IP_ADDRESSES } from '../tls/credentials.ts';
import { mockForTest } from './support/mock.ts';

const made: string[] = [];
const tlsDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-tls-'));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

async function getTrusting(url: string, ca: string, host?: string) {
  const dispatcher = new Agent({ connect: { ca, ...(host ? { servername: host } : {}) } });
  try {
    const response = await request(url, { dispatcher });
    return { status: response.statusCode, json: (await response.body.json()) as Record<string, unknown> };
  } finally {
    await dispatcher.close();
  }
}

describe('a generated certificate', () => {
  test('serves https:// and verifies for a client that trusts the certificate file', async () => {
    const dir = tlsDir();
    const mock = await mockForTest({ tls: { dir } });
    expect(mock.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.tls).toEqual({ certPath: join(dir, 'cert.pem'), source: 'generated' });
    const answer = await getTrusting(`${mock.url}${observed.tokens.jwks_path}`, readFileSync(join(dir, 'cert.pem'), 'utf8'));
    expect(answer.status).toBe(200);
  });

  test('covers 127.0.0.1, ::1 and localhost, and its key file is private', async () => {
    const dir = tlsDir();
    await mockForTest({ tls: { dir } });
    const certificate = new X509Certificate(readFileSync(join(dir, 'cert.pem')));
    for (const name of TLS_DNS_NAMES) expect(certificate.checkHost(name)).toBe(name);
    for (const ip of TLS_IP_ADDRESSES) expect(certificate.checkIP(ip)).toBe(ip);
    expect(statSync(join(dir, 'key.pem')).mode & 0o777).toBe(0o600);
  });

  test('is reused by the next start, not made again', async () => {
    const dir = tlsDir();
    await mockForTest({ tls: { dir } });
    const first = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const again = await mockForTest({ tls: { dir } });
    expect([again.tls?.source, readFileSync(join(dir, 'cert.pem'), 'utf8')]).toEqual(['reused', first]);
  });

  test('a client that does not trust it is refused the connection', async () => {
    const mock = await mockForTest({ tls: { dir: tlsDir() } });
    await expect(request(`${mock.url}${observed.tokens.jwks_path}`)).rejects.toThrow(/self-signed|certificate/i);
  });
});

describe('a generated certificate for more host names (--tls-names)', () => {
  test('covers them beside the loopback names, and a client reaching the mock by one verifies it', async () => {
    const dir = tlsDir();
    const mock = await mockForTest({ tls: { dir, names: ['conformance-mock.test', '10.0.0.7'] } });
    const certificate = new X509Certificate(readFileSync(join(dir, 'cert.pem')));
    expect(certificate.checkHost('conformance-mock.test')).toBe('conformance-mock.test');
    expect(certificate.checkIP('10.0.0.7')).toBe('10.0.0.7');
    for (const name of TLS_DNS_NAMES) expect(certificate.checkHost(name)).toBe(name);
    const answer = await getTrusting(
      `${mock.url}${observed.tokens.jwks_path}`,
      readFileSync(join(dir, 'cert.pem'), 'utf8'),
      'conformance-mock.test',
    );
    expect(answer.status).toBe(200);
  });

  test('replaces a certificate that does not cover a name now asked for', async () => {
    const dir = tlsDir();
    await mockForTest({ tls: { dir } });
    const again = await mockForTest({ tls: { dir, names: ['conformance-mock.test'] } });
    expect(again.tls?.source).toBe('generated');
    expect(new X509Certificate(readFileSync(join(dir, 'cert.pem'))).checkHost('conformance-mock.test')).toBe('conformance-mock.test');
  });
});

describe('a given certificate', () => {
  test('is served as given', async () => {
    const dir = tlsDir();
    await mockForTest({ tls: { dir } });
    const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const mock = await mockForTest({ tls: { cert, key: readFileSync(join(dir, 'key.pem'), 'utf8') } });
    expect(mock.tls).toEqual({ source: 'given' });
    expect((await getTrusting(`${mock.url}${observed.discovery.path}`, cert)).status).toBe(200);
  });

  test("a key that is not the certificate's is a configuration error", async () => {
    const [a, b] = [tlsDir(), tlsDir()];
    await mockForTest({ tls: { dir: a } });
    await mockForTest({ tls: { dir: b } });
    const mismatched = { cert: readFileSync(join(a, 'cert.pem'), 'utf8'), key: readFileSync(join(b, 'key.pem'), 'utf8') };
    await expect(createMockServer({ tls: mismatched })).rejects.toThrow(MockConfigError);
  });
});
