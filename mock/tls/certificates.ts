// Self-signed X.509 certificates, made with @peculiar/x509 over WebCrypto keys: the HTTPS
// certificate of `--tls` (for the loopback names), and the certificate the JWKS publishes over
// the signing key (x5c, x5t), as a tenant does.
import { createHash, webcrypto } from 'node:crypto';
// @peculiar/x509 resolves its algorithm providers with tsyringe, which needs the Reflect metadata
// polyfill loaded first (the library's documented set-up).
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type KeyPair = webcrypto.CryptoKeyPair;
/** How the certificate is signed: ECDSA or RSASSA-PKCS1-v1_5, both with SHA-256 (a Web Crypto algorithm). */
type SigningAlgorithm = webcrypto.Algorithm & { hash: string };

const DAY_MS = 86_400_000;

export interface CertificateRequest {
  keys: KeyPair;
  /** CN of subject and issuer. */
  commonName: string;
  /** DNS names and IP addresses it is for (subjectAltName); none for a signing certificate. */
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
  /** Start of validity, from the injected clock. */
  notBeforeMs: number;
  validityDays: number;
  /** A CA certificate (a tenant's signing certificate is one); else a TLS server certificate. */
  ca: boolean;
}

export interface Certificate {
  pem: string;
  /** The DER bytes, base64 (an x5c entry). */
  derBase64: string;
  /** SHA-1 thumbprint of the DER bytes, base64url (x5t). */
  sha1Thumbprint: string;
  notAfterMs: number;
}

export async function selfSignedCertificate(request: CertificateRequest): Promise<Certificate> {
  const names = [
    ...(request.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(request.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  const usages = request.ca ? x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign : x509.KeyUsageFlags.digitalSignature;
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(request.ca, undefined, true),
    new x509.KeyUsagesExtension(usages, true),
    await x509.SubjectKeyIdentifierExtension.create(request.keys.publicKey),
  ];
  if (names.length > 0)
    extensions.push(
      new x509.SubjectAlternativeNameExtension(names),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    );
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: `CN=${request.commonName}`,
    notBefore: new Date(request.notBeforeMs),
    notAfter: new Date(request.notBeforeMs + request.validityDays * DAY_MS),
    keys: request.keys,
    signingAlgorithm: signingAlgorithmOf(request.keys.privateKey),
    extensions,
  });
  return describe(certificate);
}

/** The facts of a PEM certificate read back, for reuse checks. */
export function readCertificate(pem: string): Certificate & { dnsNames: string[]; ipAddresses: string[]; notBeforeMs: number } {
  const certificate = new x509.X509Certificate(pem);
  const san = certificate.getExtension(x509.SubjectAlternativeNameExtension);
  const names = san?.names.toJSON() ?? [];
  return {
    ...describe(certificate),
    dnsNames: names.filter((n) => n.type === 'dns').map((n) => n.value),
    ipAddresses: names.filter((n) => n.type === 'ip').map((n) => n.value),
    notBeforeMs: certificate.notBefore.getTime(),
  };
}

function describe(certificate: x509.X509Certificate): Certificate {
  const der = Buffer.from(certificate.rawData);
  return {
    pem: certificate.toString('pem'),
    derBase64: der.toString('base64'),
    sha1Thumbprint: createHash('sha1').update(der).digest('base64url'),
    notAfterMs: certificate.notAfter.getTime(),
  };
}

function signingAlgorithmOf(key: webcrypto.CryptoKey): SigningAlgorithm {
  return key.algorithm.name === 'ECDSA' ? { name: 'ECDSA', hash: 'SHA-256' } : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
}

/** A positive serial of 9 random bytes, hex (as a tenant's signing certificate has). */
function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(9));
  bytes[0]! &= 0x7f;
  return Buffer.from(bytes).toString('hex');
}
