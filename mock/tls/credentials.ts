// The HTTPS certificate and key of `--tls`. Given (PEM text, or files on the command line), or
// generated on first use into a directory (default .keys/tls/ at the project root, git-ignored)
// and reused while it is valid and covers the loopback names (127.0.0.1, ::1 and localhost) and
// any other host names asked for (`--tls-names`: a name clients use for the loopback address, such
// as one in /etc/hosts, or the name a proxy in front of the mock is reached by).
// Clients trust it with NODE_EXTRA_CA_CERTS=<dir>/cert.pem (read by Node at process start).
//
// Its validity is wall-clock time, not the injected clock: clients judge it by their own clocks.
import { isIP } from 'node:net';
import { createSecureContext } from 'node:tls';
import { webcrypto } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MockConfigError } from '../config-error.ts';
import { readCertificate, selfSignedCertificate } from './certificates.ts';

export type TlsOption = true | { cert: string; key: string } | { dir?: string; names?: readonly string[] };

export interface TlsCredentials {
  cert: string;
  key: string;
  /** The certificate file, when there is one: what NODE_EXTRA_CA_CERTS names. */
  certPath?: string;
  source: 'given' | 'generated' | 'reused';
}

export const defaultTlsDir = fileURLToPath(new URL('../../.keys/tls/', import.meta.url));

export const TLS_DNS_NAMES = ['localhost'];
export const TLS_IP_ADDRESSES = ['127.0.0.1', '::1'];
const VALIDITY_DAYS = 365;
/** A certificate this close to its end is replaced rather than reused. */
const RENEW_BEFORE_MS = 86_400_000;

export async function loadTlsCredentials(option: TlsOption): Promise<TlsCredentials> {
  if (option !== true && 'cert' in option)
    return checked({ cert: option.cert, key: option.key, source: 'given' }, 'the given TLS certificate and key');
  const dir = option === true ? defaultTlsDir : (option.dir ?? defaultTlsDir);
  const names = coveredNames(option === true ? [] : (option.names ?? []));
  return reusable(dir, names) ?? generate(dir, names);
}

/** The names a generated certificate covers: the loopback ones and those asked for, DNS names and IP addresses apart. */
function coveredNames(asked: readonly string[]): { dnsNames: string[]; ipAddresses: string[] } {
  const isIp = (name: string) => isIP(name.replace(/^\[|\]$/g, '')) !== 0;
  return {
    dnsNames: [...new Set([...TLS_DNS_NAMES, ...asked.filter((n) => !isIp(n)).map((n) => n.toLowerCase())])],
    ipAddresses: [...new Set([...TLS_IP_ADDRESSES, ...asked.filter(isIp).map((n) => n.replace(/^\[|\]$/g, ''))])],
  };
}

function reusable(dir: string, names: { dnsNames: string[]; ipAddresses: string[] }): TlsCredentials | undefined {
  let cert: string;
  let key: string;
  try {
    cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    key = readFileSync(join(dir, 'key.pem'), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const facts = readCertificate(cert);
    const covers =
      names.dnsNames.every((n) => facts.dnsNames.includes(n)) &&
      names.ipAddresses.every((ip) => facts.ipAddresses.some((a) => sameIp(a, ip)));
    const current = facts.notBeforeMs <= Date.now() && Date.now() < facts.notAfterMs - RENEW_BEFORE_MS;
    if (!covers || !current) return undefined;
    createSecureContext({ cert, key }); // throws when the key is not the certificate's
  } catch {
    return undefined;
  }
  return { cert, key, certPath: join(dir, 'cert.pem'), source: 'reused' };
}

async function generate(dir: string, names: { dnsNames: string[]; ipAddresses: string[] }): Promise<TlsCredentials> {
  const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const certificate = await selfSignedCertificate({
    keys,
    commonName: 'localhost',
    dnsNames: names.dnsNames,
    ipAddresses: names.ipAddresses,
    notBeforeMs: Date.now() - 60_000,
    validityDays: VALIDITY_DAYS,
    ca: false,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END PRIVATE KEY-----\n`;
  const certPath = join(dir, 'cert.pem');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Each file appears whole (write aside, then rename); the key first, so a certificate on disk always has its key.
    writeAtomically(join(dir, 'key.pem'), key, 0o600);
    writeAtomically(certPath, certificate.pem, 0o644);
  } catch (error) {
    throw new MockConfigError(`cannot write the TLS certificate into ${dir} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return { cert: certificate.pem, key, certPath, source: 'generated' };
}

function writeAtomically(path: string, text: string, mode: number): void {
  const aside = `${path}.${process.pid}.tmp`;
  writeFileSync(aside, text, { mode });
  renameSync(aside, path);
}

function checked(credentials: TlsCredentials, what: string): TlsCredentials {
  try {
    createSecureContext({ cert: credentials.cert, key: credentials.key });
  } catch (error) {
    throw new MockConfigError(`${what} cannot be used (${(error as Error).message.split('\n')[0]})`);
  }
  return credentials;
}

/** ::1 and 0:0:0:0:0:0:0:1 are the same address. */
function sameIp(a: string, b: string): boolean {
  const expand = (ip: string) => (ip.includes(':') ? new URL(`http://[${ip}]/`).hostname : ip);
  return expand(a) === expand(b);
}
