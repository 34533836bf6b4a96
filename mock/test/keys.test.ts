// The signing key: in memory by default; read from a file (PEM or JWK); created in a file that
// does not exist yet; kid is the RFC 7638 thumbprint.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair } from 'jose';
import { describe, expect, test } from 'vitest';
import { loadSigningKeys } from '../auth/keys.ts';
import { MockConfigError } from '../config-error.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'mock-keys-'));

describe('loadSigningKeys', () => {
  test('makes an in-memory RS256 key by default, published with kid, kty, n, e, alg and use', async () => {
    const keys = await loadSigningKeys();
    expect(keys.source).toEqual({ kind: 'generated' });
    const [jwk] = keys.jwks.keys;
    expect(Object.keys(jwk!).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: keys.kid });
  });

  test('kid is the RFC 7638 thumbprint of the public key', async () => {
    const keys = await loadSigningKeys();
    const { kty, n, e } = keys.jwks.keys[0]!;
    expect(keys.kid).toBe(await calculateJwkThumbprint({ kty, n, e }, 'sha256'));
  });

  test('creates a missing key file (and its directory) with mode 0600, then reads the same key back', async () => {
    const path = join(tempDir(), 'nested', 'signing-key.pem');
    const created = await loadSigningKeys(path);
    expect(created.source).toEqual({ kind: 'created-file', path });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const again = await loadSigningKeys(path);
    expect([again.source, again.kid]).toEqual([{ kind: 'file', path }, created.kid]);
  });

  test('reads a private JWK file', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const path = join(tempDir(), 'key.json');
    writeFileSync(path, JSON.stringify(await exportJWK(privateKey)));
    const keys = await loadSigningKeys(path);
    const { kty, n, e } = await exportJWK(publicKey);
    expect(keys.kid).toBe(await calculateJwkThumbprint({ kty: kty!, n: n!, e: e! }, 'sha256'));
  });

  test('refuses a file without a private RSA key, naming the file', async () => {
    const path = join(tempDir(), 'key.pem');
    writeFileSync(path, 'not a key');
    await expect(loadSigningKeys(path)).rejects.toThrow(new MockConfigError(`signing key file ${path} holds no private RSA key (PKCS8 PEM or private JWK JSON expected)`));
  });

  test('refuses an EC key', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const path = join(tempDir(), 'ec.pem');
    writeFileSync(path, await exportPKCS8(privateKey));
    await expect(loadSigningKeys(path)).rejects.toThrow(MockConfigError);
  });
});
