// The tenant's signing key. By default a fresh RS256 key pair made at start and kept in memory.
// With a signing-key file, the private key is read from it (PKCS8 PEM or private JWK JSON); a file
// that does not exist yet is created with a new key (mode 0600). A user who starts the mock by hand
// shares that file with the suite, which then mints expired or wrongly addressed tokens to prove
// they are refused. The key id is the key's RFC 7638 thumbprint.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, importJWK, importPKCS8, type CryptoKey, type JWK } from 'jose';
import { observed } from '../../specs/index.ts';
import { MockConfigError } from '../config-error.ts';

const ALG = observed.tokens.alg;
const MIN_MODULUS_BITS = 2048;

export type KeySource = { kind: 'generated' } | { kind: 'file'; path: string } | { kind: 'created-file'; path: string };

export interface PublicJwk {
  kty: string;
  n: string;
  e: string;
  kid: string;
  alg: string;
  use: 'sig';
}

export interface SigningKeys {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The public keys, as served at /.well-known/jwks.json. */
  jwks: { keys: PublicJwk[] };
  /** The public key a token's kid names; the current key when there is no kid. */
  publicKeyFor(kid: string | undefined): CryptoKey | undefined;
  source: KeySource;
}

/** The signing keys: generated in memory, or read from (or first written to) `path`. */
export async function loadSigningKeys(path?: string): Promise<SigningKeys> {
  if (path === undefined) return keysOf((await generateKeyPair(ALG, { extractable: true })).privateKey, { kind: 'generated' });
  const text = readKeyFile(path);
  if (text === undefined) return createKeyFile(path);
  return keysOf(await importPrivateKey(text, path), { kind: 'file', path });
}

function readKeyFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new MockConfigError(`signing key file ${path} cannot be read (${code ?? String(error)})`);
  }
}

async function createKeyFile(path: string): Promise<SigningKeys> {
  const { privateKey } = await generateKeyPair(ALG, { extractable: true });
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // 'wx': never overwrite a key another process wrote in the meantime.
    writeFileSync(path, await exportPKCS8(privateKey), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadSigningKeys(path);
    throw new MockConfigError(`signing key file ${path} cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return keysOf(privateKey, { kind: 'created-file', path });
}

async function importPrivateKey(text: string, path: string): Promise<CryptoKey> {
  const refuse = (why: string) => new MockConfigError(`signing key file ${path} ${why}`);
  let key: CryptoKey;
  try {
    if (text.trimStart().startsWith('{')) {
      const jwk = JSON.parse(text) as JWK;
      if (jwk.kty !== 'RSA' || typeof jwk.d !== 'string') throw new Error('not a private RSA JWK');
      key = (await importJWK({ ...jwk, alg: ALG }, ALG, { extractable: true })) as CryptoKey;
    } else {
      key = await importPKCS8(text, ALG, { extractable: true });
    }
  } catch {
    throw refuse('holds no private RSA key (PKCS8 PEM or private JWK JSON expected)');
  }
  const bits = (key.algorithm as { modulusLength?: number }).modulusLength ?? 0;
  if (bits < MIN_MODULUS_BITS) throw refuse(`holds a ${bits}-bit RSA key; ${ALG} needs at least ${MIN_MODULUS_BITS} bits`);
  return key;
}

async function keysOf(privateKey: CryptoKey, source: KeySource): Promise<SigningKeys> {
  const { kty, n, e } = await exportJWK(privateKey);
  if (!kty || !n || !e) throw new MockConfigError('the signing key is not an RSA key');
  const kid = await calculateJwkThumbprint({ kty, n, e }, 'sha256');
  const publicJwk: PublicJwk = { kty, n, e, kid, alg: ALG, use: 'sig' };
  const publicKey = (await importJWK(publicJwk, ALG)) as CryptoKey;
  return {
    kid,
    privateKey,
    publicKey,
    jwks: { keys: [publicJwk] },
    publicKeyFor: (wanted) => (wanted === undefined || wanted === kid ? publicKey : undefined),
    source,
  };
}
