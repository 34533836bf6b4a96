// The signing key: in memory by default; read from a file (PEM or JWK); created in a file that
// does not exist yet; kid is the RFC 7638 thumbprint.
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair } from 'jose';
import { afterAll, describe, expect, test } from 'vitest';
import { observed } from '../../specs/index.ts';
import { loadSigningKeys } from '../auth/keys.ts';
import { MockConfigError } from '../config-error.ts';

const SUBJECT = { commonName: 'tenant.example.com', notBeforeMs: Date.UTC(2025, 0, 1) };
const made: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-keys-'));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('loadSigningKeys', () => {
  test('makes an in-memory RS256 key by default, published with the members a tenant publishes', async () => {
    const keys = await loadSigningKeys(undefined, SUBJECT);
    expect(keys.source).toEqual({ kind: 'generated' });
    const [jwk] = keys.jwks.keys;
    expect(Object.keys(jwk!)).toEqual(observed.jwks.members.value);
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: keys.kid });
  });

  test('x5c is a self-signed certificate over the signing key for the tenant, and x5t its SHA-1 thumbprint', async () => {
    const keys = await loadSigningKeys(undefined, SUBJECT);
    const [jwk] = keys.jwks.keys;
    const certificate = new X509Certificate(Buffer.from(jwk!.x5c[0]!, 'base64'));
    expect(certificate.subject).toBe(`CN=${SUBJECT.commonName}`);
    expect(certificate.issuer).toBe(certificate.subject);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.publicKey.export({ format: 'jwk' })).toMatchObject({ n: jwk!.n, e: jwk!.e });
    expect(new Date(certificate.validFrom).getTime()).toBe(SUBJECT.notBeforeMs);
    const days = (new Date(certificate.validTo).getTime() - SUBJECT.notBeforeMs) / 86_400_000;
    expect(days).toBe(observed.jwks.certificate.validity_days);
    expect(jwk!.x5t).toBe(createHash('sha1').update(certificate.raw).digest('base64url'));
  });

  test('a token without a kid names no key', async () => {
    const keys = await loadSigningKeys(undefined, SUBJECT);
    expect([keys.publicKeyFor(undefined), keys.publicKeyFor(keys.kid) !== undefined]).toEqual([undefined, true]);
  });

  test('kid is the RFC 7638 thumbprint of the public key', async () => {
    const keys = await loadSigningKeys(undefined, SUBJECT);
    const { kty, n, e } = keys.jwks.keys[0]!;
    expect(keys.kid).toBe(await calculateJwkThumbprint({ kty, n, e }, 'sha256'));
  });

  test('creates a missing key file (and its directory) with mode 0600, then reads the same key back', async () => {
    const path = join(tempDir(), 'nested', 'signing-key.pem');
    const created = await loadSigningKeys(path, SUBJECT);
    expect(created.source).toEqual({ kind: 'created-file', path });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const again = await loadSigningKeys(path, SUBJECT);
    expect([again.source, again.kid]).toEqual([{ kind: 'file', path }, created.kid]);
  });

  test('reads a private JWK file', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const path = join(tempDir(), 'key.json');
    writeFileSync(path, JSON.stringify(await exportJWK(privateKey)));
    const keys = await loadSigningKeys(path, SUBJECT);
    const { kty, n, e } = await exportJWK(publicKey);
    expect(keys.kid).toBe(await calculateJwkThumbprint({ kty: kty!, n: n!, e: e! }, 'sha256'));
  });

  test('publishes a private JWK under the kid it names, and takes tokens that name it', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const path = join(tempDir(), 'named.json');
    writeFileSync(path, JSON.stringify({ ...(await exportJWK(privateKey)), kid: 'signing-2026' }));
    const keys = await loadSigningKeys(path, SUBJECT);
    expect([keys.kid, keys.jwks.keys[0]!.kid]).toEqual(['signing-2026', 'signing-2026']);
    expect(keys.publicKeyFor('signing-2026')).toBe(keys.publicKey);
  });

  test('refuses a file without a private RSA key, naming the file', async () => {
    const path = join(tempDir(), 'key.pem');
    writeFileSync(path, 'not a key');
    await expect(loadSigningKeys(path, SUBJECT)).rejects.toThrow(
      new MockConfigError(`signing key file ${path} holds no private RSA key (PKCS8 PEM or private JWK JSON expected)`),
    );
  });

  test('refuses an EC key', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const path = join(tempDir(), 'ec.pem');
    writeFileSync(path, await exportPKCS8(privateKey));
    await expect(loadSigningKeys(path, SUBJECT)).rejects.toThrow(MockConfigError);
  });
});
