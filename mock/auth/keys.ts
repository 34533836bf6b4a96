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
import { selfSignedCertificate } from '../tls/certificates.ts';

const ALG = observed.tokens.alg;
const MIN_MODULUS_BITS = 2048;

export type KeySource = { kind: 'generated' } | { kind: 'file'; path: string } | { kind: 'created-file'; path: string };

/** A JWKS entry as a tenant publishes it (observed.jwks.members), in that member order. */
export interface PublicJwk {
  alg: string;
  kty: string;
  use: 'sig';
  n: string;
  e: string;
  kid: string;
  /** SHA-1 thumbprint of the x5c certificate, base64url. */
  x5t: string;
  /** One self-signed certificate over the key, base64 DER. */
  x5c: string[];
}

/** The signing certificate's subject and when its validity starts (the injected clock). */
export interface CertificateSubject {
  commonName: string;
  notBeforeMs: number;
}

export interface SigningKeys {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The public keys, as served at /.well-known/jwks.json. */
  jwks: { keys: PublicJwk[] };
  /** The public key a token's kid names; none without a kid. */
  publicKeyFor(kid: string | undefined): CryptoKey | undefined;
  source: KeySource;
}

/**
 * The signing keys: generated in memory, or read from (or first written to) `path`. The JWKS
 * carries a self-signed certificate over the key for `subject` (x5c, x5t), made at each start.
 */
export async function loadSigningKeys(path: string | undefined, subject: CertificateSubject): Promise<SigningKeys> {
  if (path === undefined) return keysOf((await generateKeyPair(ALG, { extractable: true })).privateKey, { kind: 'generated' }, subject);
  const text = readKeyFile(path);
  if (text === undefined) return createKeyFile(path, subject);
  const { key, kid } = await importPrivateKey(text, path);
  return keysOf(key, { kind: 'file', path }, subject, kid);
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

async function createKeyFile(path: string, subject: CertificateSubject): Promise<SigningKeys> {
  const { privateKey } = await generateKeyPair(ALG, { extractable: true });
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // 'wx': never overwrite a key another process wrote in the meantime.
    writeFileSync(path, await exportPKCS8(privateKey), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadSigningKeys(path, subject);
    throw new MockConfigError(`signing key file ${path} cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return keysOf(privateKey, { kind: 'created-file', path }, subject);
}

/** A key file's private key, and the kid a private JWK names, if it names one (as a tenant names its keys). */
async function importPrivateKey(text: string, path: string): Promise<{ key: CryptoKey; kid?: string }> {
  const refuse = (why: string) => new MockConfigError(`signing key file ${path} ${why}`);
  let key: CryptoKey;
  let kid: string | undefined;
  try {
    if (text.trimStart().startsWith('{')) {
      const jwk = JSON.parse(text) as JWK;
      if (jwk.kty !== 'RSA' || typeof jwk.d !== 'string') throw new Error('not a private RSA JWK');
      key = (await importJWK({ ...jwk, alg: ALG }, ALG, { extractable: true })) as CryptoKey;
      if (typeof jwk.kid === 'string' && jwk.kid !== '') kid = jwk.kid;
    } else {
      key = await importPKCS8(text, ALG, { extractable: true });
    }
  } catch {
    throw refuse('holds no private RSA key (PKCS8 PEM or private JWK JSON expected)');
  }
  const bits = (key.algorithm as { modulusLength?: number }).modulusLength ?? 0;
  if (bits < MIN_MODULUS_BITS) throw refuse(`holds a ${bits}-bit RSA key; ${ALG} needs at least ${MIN_MODULUS_BITS} bits`);
  return kid === undefined ? { key } : { key, kid };
}

/** The keys of a private key, published under `named` or else its RFC 7638 thumbprint. */
async function keysOf(privateKey: CryptoKey, source: KeySource, subject: CertificateSubject, named?: string): Promise<SigningKeys> {
  const { kty, n, e } = await exportJWK(privateKey);
  if (!kty || !n || !e) throw new MockConfigError('the signing key is not an RSA key');
  const kid = named ?? (await calculateJwkThumbprint({ kty, n, e }, 'sha256'));
  const publicKey = (await importJWK({ kty, n, e, alg: ALG }, ALG)) as CryptoKey;
  const certificate = await selfSignedCertificate({
    keys: { privateKey, publicKey },
    commonName: subject.commonName,
    notBeforeMs: subject.notBeforeMs,
    validityDays: observed.jwks.certificate.validity_days,
    ca: true,
  });
  const publicJwk: PublicJwk = { alg: ALG, kty, use: 'sig', n, e, kid, x5t: certificate.sha1Thumbprint, x5c: [certificate.derBase64] };
  return {
    kid,
    privateKey,
    publicKey,
    jwks: { keys: [publicJwk] },
    // A token must name its key (observed.tokens.kid_required): no kid, no key.
    publicKeyFor: (wanted) => (wanted === kid ? publicKey : undefined),
    source,
  };
}
