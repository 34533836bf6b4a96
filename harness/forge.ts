// Forged access tokens. Those built from a valid token work against any target (tampered
// signature or payload, a foreign key, an unknown kid, a foreign key carried in the token's own
// header, alg none, HS256 keyed with the target's published public key). Those that need the target's own signing key (expired,
// wrong audience, wrong issuer, any other claim change) exist only when the suite holds that key.
import {
  calculateJwkThumbprint,
  SignJWT,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  importJWK,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
} from 'jose';
import { webcrypto, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import { deflateRawSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
// @peculiar/x509 resolves its algorithm providers with tsyringe, which needs the Reflect metadata.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { observed } from '../specs/index.ts';
import { HarnessError } from './errors.ts';
import { privateKeyOf, signJws, signJwsOverUnencodedPayload } from './jws.ts';
import type { Exchange, TargetHttp } from './http.ts';
import { sharedKeys } from './plan.ts';
import type { ResolvedTarget } from './settings.ts';
import type { SharedRequests } from './shared.ts';
import { SkipRequest } from './skip.ts';

/** Tries at finding a signature that starts with a zero byte: each succeeds one time in 256, so all fail about once in 10^7. */
const LEADING_ZERO_ATTEMPTS = 4096;

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * The target's own token, decoded. A token that is not a JWT can be made into no token wrong in
 * one way: a test built on one cannot run, which says nothing of the operation it tests (the
 * token endpoint's own tests judge the token).
 */
function decoded(token: string): { header: ReturnType<typeof decodeProtectedHeader>; claims: JWTPayload } {
  try {
    return { header: decodeProtectedHeader(token), claims: decodeJwt(token) };
  } catch {
    throw new SkipRequest('depends', "the target's access token is not a JWT, so no token wrong in one way can be made from it");
  }
}

function encodeSegment(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** Changes one character in the middle of the signature (the last one may only carry padding bits). */
export function withTamperedSignature(token: string): string {
  const [header, payload, signature = ''] = token.split('.');
  const at = Math.floor(signature.length / 2);
  const current = signature[at] ?? 'A';
  const replacement = BASE64URL[(BASE64URL.indexOf(current) + 1) % BASE64URL.length]!;
  return `${header}.${payload}.${signature.slice(0, at)}${replacement}${signature.slice(at + 1)}`;
}

/** Widens the payload's scope and keeps the original signature. */
export function withTamperedPayload(token: string): string {
  const [header, , signature] = token.split('.');
  const { claims } = decoded(token);
  const scope = `${typeof claims.scope === 'string' ? claims.scope : ''} read:users delete:users`.trim();
  return `${header}.${encodeSegment({ ...claims, scope })}.${signature}`;
}

/** The same header kid and claims, alg none, no signature. */
export function withAlgNone(token: string): string {
  const { header, claims } = decoded(token);
  return `${encodeSegment({ alg: 'none', typ: 'JWT', ...(header.kid ? { kid: header.kid } : {}) })}.${encodeSegment(claims)}.`;
}

let foreignKeyPair: ReturnType<typeof generateKeyPair> | undefined;
function foreignKeys() {
  foreignKeyPair ??= generateKeyPair('RS256', { extractable: true });
  return foreignKeyPair;
}

/**
 * A JWKS of the foreign key under `kid`, served on loopback by this process for as long as it
 * runs (the server does not keep it alive): the URL a forged token names in jku. A target that
 * fetches keys from the token it checks reaches it only where it runs on this machine; a remote
 * target cannot, and refuses the token either way.
 */
/** What the target publishes at its JWKS address: its keys, the answer, and what is wrong with it when it is no JWKS. */
export interface PublishedKeys extends JSONWebKeySet {
  exchange: Exchange;
  problem?: string;
}

const jwksServers = new Map<string, Promise<string>>();
function foreignJwksUrl(kid: string): Promise<string> {
  const known = jwksServers.get(kid);
  if (known) return known;
  const started = (async () => {
    const { kty, n, e } = await exportJWK((await foreignKeys()).publicKey);
    const body = JSON.stringify({ keys: [{ kty, n, e, kid, alg: 'RS256', use: 'sig' }] });
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    server.unref();
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  })();
  jwksServers.set(kid, started);
  return started;
}

/** How long a client assertion of the key client lives: sent at once, it needs little. */
const ASSERTION_LIFETIME_SECONDS = 60;

async function sign(
  claims: JWTPayload,
  key: Parameters<SignJWT['sign']>[0],
  header: { alg: string; kid?: string; jwk?: JWK; jku?: string },
): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ typ: 'JWT', ...header }).sign(key);
}

export class TokenForge {
  readonly #http: TargetHttp;
  readonly #target: ResolvedTarget;
  readonly #shared: SharedRequests;

  constructor(http: TargetHttp, target: ResolvedTarget, shared: SharedRequests) {
    this.#http = http;
    this.#target = target;
    this.#shared = shared;
  }

  get jwksUrl(): string {
    return `${this.#target.authUrl}${observed.tokens.jwks_path}`;
  }

  get holdsSigningKey(): boolean {
    return this.#target.signingKeyJwk !== undefined;
  }

  /**
   * The target's published keys, fetched once per run (a shared request). An answer that is no
   * JWKS (another status, or no `keys` array, RFC 7517 section 5) publishes no key: `problem` says
   * what it was, for the JWKS's own tests to fail on, and a forgery that needs a key skips.
   */
  jwks(payer?: string): Promise<PublishedKeys> {
    return this.#shared.once(sharedKeys.jwks, `GET ${this.jwksUrl}`, payer, async () => {
      const exchange = await this.#http.send({ method: 'GET', url: this.jwksUrl, headers: { accept: 'application/json' }, label: 'jwks' });
      const json = exchange.json as { keys?: unknown } | undefined;
      const keys = typeof json === 'object' && json !== null ? json.keys : undefined;
      if (exchange.status === 200 && Array.isArray(keys)) return { keys: keys as JWK[], exchange };
      const what =
        exchange.status !== 200 ? `status ${exchange.status}` : json === undefined ? 'a body that is not JSON' : 'JSON with no keys array';
      return { keys: [], exchange, problem: `GET ${this.jwksUrl} answered ${what}, not a JWKS` };
    });
  }

  /**
   * The token signed again with the target's own key, its kid the published key's certificate
   * thumbprint (x5t, or x5t#S256): a key is found by its kid alone (RFC 7515 4.1.4).
   */
  async withKidAsX5t(token: string): Promise<string> {
    const kid = decodeProtectedHeader(token).kid;
    const jwk = (await this.jwks()).keys.find((key) => key.kid === kid);
    if (!jwk) throw new SkipRequest('depends', `${this.jwksUrl} publishes no key under the token's kid`);
    const x5t = jwk.x5t ?? (jwk as Record<string, unknown>)['x5t#S256'];
    if (typeof x5t !== 'string' || x5t === kid) {
      throw new SkipRequest('depends', `the key ${this.jwksUrl} publishes has no certificate thumbprint (x5t) other than its kid`);
    }
    return this.resigned(token, { header: (header) => ({ ...header, kid: x5t }) });
  }

  /** Same claims and kid, signed with a key the target has never seen. */
  async signedWithForeignKey(token: string): Promise<string> {
    const { header, claims } = decoded(token);
    return sign(claims, (await foreignKeys()).privateKey, { alg: 'RS256', ...(header.kid ? { kid: header.kid } : {}) });
  }

  /**
   * Same claims and kid, signed with a foreign key that the token carries in its own header (jwk):
   * a verifier must take keys from the tenant, never from the token it is checking.
   */
  async signedWithEmbeddedKey(token: string): Promise<string> {
    const { header, claims } = decoded(token);
    const { privateKey, publicKey } = await foreignKeys();
    const { kty, n, e } = await exportJWK(publicKey);
    return sign(claims, privateKey, { alg: 'RS256', ...(header.kid ? { kid: header.kid } : {}), jwk: { kty: kty!, n: n!, e: e! } });
  }

  /**
   * Same claims and kid, signed with a foreign key whose self-signed certificate the token carries
   * in its own header (x5c): keys come from the tenant, never from the token being checked.
   */
  async signedWithEmbeddedCertificate(token: string): Promise<string> {
    const { kid } = decodeProtectedHeader(token);
    const keys = await foreignKeys();
    x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
    const now = Date.now();
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name: 'CN=conformance-suite',
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + 86_400_000),
      keys: keys,
      signingAlgorithm: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    });
    const x5c = [Buffer.from(certificate.rawData).toString('base64')];
    return new SignJWT(decodeJwt(token))
      .setProtectedHeader({ typ: 'JWT', alg: 'RS256', ...(kid ? { kid } : {}), x5c })
      .sign(keys.privateKey);
  }

  /**
   * Same claims and kid, signed with a foreign key that the token's jku names a JWKS of: keys come
   * from the tenant's own JWKS, never from a URL the token being checked gives.
   */
  async signedWithKeyAtJku(token: string): Promise<string> {
    const { header, claims } = decoded(token);
    const kid = header.kid ?? 'conformance-suite-key';
    return sign(claims, (await foreignKeys()).privateKey, { alg: 'RS256', kid, jku: await foreignJwksUrl(kid) });
  }

  /**
   * Same claims, signed with the private key of a client of the target that authenticates with it
   * (token_alternatives.key_client): a key the tenant holds, for client assertions only. Under the
   * token's kid (the tenant's), the key's own (its RFC 7638 thumbprint), or none.
   */
  async signedWithClientKey(token: string, kid: 'tenant' | 'own' | 'none'): Promise<string> {
    const keyClient = this.#target.tokenAlternatives.keyClient;
    if (!keyClient)
      throw new Error('suite bug: a token signed with a client key was asked of a target without token_alternatives.key_client');
    const { header, claims } = decoded(token);
    const jwk = JSON.parse(keyClient.privateKeyJwk) as JWK;
    const key = await importJWK({ ...jwk, alg: 'RS256' }, 'RS256');
    const own = async () => calculateJwkThumbprint({ kty: jwk.kty!, n: jwk.n!, e: jwk.e! }, 'sha256');
    const chosen = kid === 'tenant' ? header.kid : kid === 'own' ? await own() : undefined;
    return sign(claims, key, { alg: 'RS256', ...(chosen ? { kid: chosen } : {}) });
  }

  /**
   * A client assertion of the key client (RFC 7523 2.2, private_key_jwt): iss and sub its id, aud
   * the tenant's issuer (the auth host), a minute to live, a fresh jti, signed with its key. A token
   * it gets shows the tenant knows that key: the positive control of the rows signed with it.
   */
  async clientAssertion(): Promise<string> {
    return this.clientAssertionWith();
  }

  /**
   * A client assertion of the key client wrong in one way, for the token endpoint's refusals: its
   * claims changed (`claims` gets the valid ones and the time in seconds; a claim set to undefined
   * is left out), or signed with a foreign key, or unsigned (alg none), or MAC'd with a secret
   * (`hmac`: HS256, HS384 or HS512 keyed with its UTF-8 bytes, as client_secret_jwt is), or signed
   * with its own key as another RSA algorithm (`rsa`: RS512, PS384...). Made as
   * `clientAssertion()`.
   */
  async clientAssertionWith(
    edit: {
      claims?: (claims: JWTPayload, now: number) => JWTPayload;
      signer?: 'own' | 'foreign' | 'none' | { hmac: 'HS256' | 'HS384' | 'HS512'; secret: string } | { rsa: string };
    } = {},
  ): Promise<string> {
    const keyClient = this.#target.tokenAlternatives.keyClient;
    if (!keyClient) throw new Error('suite bug: a client assertion was asked of a target without token_alternatives.key_client');
    const now = Math.floor(Date.now() / 1000);
    const valid = {
      iss: keyClient.clientId,
      sub: keyClient.clientId,
      aud: `${new URL(this.#target.authUrl).origin}/`,
      iat: now,
      exp: now + ASSERTION_LIFETIME_SECONDS,
      jti: webcrypto.randomUUID(),
    };
    const claims = JSON.parse(JSON.stringify(edit.claims ? edit.claims(valid, now) : valid)) as JWTPayload;
    const signer = edit.signer ?? 'own';
    if (signer === 'none') return `${encodeSegment({ alg: 'none', typ: 'JWT' })}.${encodeSegment(claims)}.`;
    if (signer === 'foreign') return sign(claims, (await foreignKeys()).privateKey, { alg: 'RS256' });
    if (typeof signer === 'object' && 'hmac' in signer) return sign(claims, new TextEncoder().encode(signer.secret), { alg: signer.hmac });
    // The key client's own key, signing as `rsa` (another RSA algorithm) or RS256.
    const alg = typeof signer === 'object' ? signer.rsa : 'RS256';
    const jwk = JSON.parse(keyClient.privateKeyJwk) as JWK;
    return sign(claims, await importJWK({ ...jwk, alg }, alg), { alg });
  }

  /** Same claims, a foreign key, and a kid the target does not publish. */
  async withUnknownKid(token: string): Promise<string> {
    return sign(decoded(token).claims, (await foreignKeys()).privateKey, { alg: 'RS256', kid: 'not-a-published-key-id' });
  }

  /** Algorithm confusion: HS256 with the target's public key (SPKI PEM text) as the HMAC secret. */
  async hs256WithPublicKey(token: string, payer?: string): Promise<string> {
    const { header, claims } = decoded(token);
    const kid = header.kid;
    const { keys } = await this.jwks(payer);
    const jwk = keys.find((k) => k.kid === kid) ?? keys[0];
    // The target's published key is what the confusion is made of: without one it cannot be made.
    if (!jwk) throw new SkipRequest('depends', `${this.jwksUrl} publishes no key, so no token keyed with one can be made`);
    let pem: string;
    try {
      const publicKey = await importJWK({ ...jwk, alg: 'RS256' }, 'RS256', { extractable: true });
      pem = await exportSPKI(publicKey as Parameters<typeof exportSPKI>[0]);
    } catch {
      throw new SkipRequest('depends', `the key ${this.jwksUrl} publishes is not an RSA public key, so no token keyed with it can be made`);
    }
    return sign(claims, new TextEncoder().encode(pem), { alg: 'HS256', ...(kid ? { kid } : {}) });
  }

  #key: KeyObject | undefined;

  /**
   * The token with its JOSE header and claims changed, signed again with the target's own key
   * (only where the suite holds it), whatever the header says: see jws.ts.
   */
  resigned(
    token: string,
    edit: {
      header?: (header: Record<string, unknown>) => Record<string, unknown>;
      headerText?: (header: Record<string, unknown>) => string;
      claims?: (claims: Record<string, unknown>, now: number) => Record<string, unknown>;
      claimsText?: (claims: Record<string, unknown>, now: number) => string;
      deflated?: boolean;
      unencodedPayload?: boolean;
    },
    signedAs?: string,
  ): string {
    if (!this.#target.signingKeyJwk) throw new HarnessError('TOKEN_UNAVAILABLE', 'the suite does not hold the target signing key');
    this.#key ??= privateKeyOf(this.#target.signingKeyJwk);
    const header = { ...(decodeProtectedHeader(token) as Record<string, unknown>) };
    const claims = { ...(decodeJwt(token) as Record<string, unknown>) };
    const now = Math.floor(Date.now() / 1000);
    const payload = edit.claimsText ? edit.claimsText(claims, now) : edit.claims ? edit.claims(claims, now) : claims;
    const made = edit.header ? edit.header(header) : header;
    // The payload segment the raw DEFLATE (RFC 1951) of the claims' JSON, as a JWE's "zip": "DEF" has its plaintext.
    const bytes = edit.deflated ? deflateRawSync(typeof payload === 'string' ? payload : JSON.stringify(payload)) : payload;
    const headerOut = edit.headerText ? edit.headerText(made) : made;
    if (edit.unencodedPayload) return signJwsOverUnencodedPayload(headerOut, bytes, this.#key, signedAs ?? made.alg);
    return signJws(headerOut, bytes, this.#key, signedAs ?? made.alg);
  }

  /** The token signed again with the target's own key, its header as it is but its signature made as `alg` (another RSA algorithm). */
  withSignatureAs(token: string, alg: string): string {
    return this.resigned(token, {}, alg);
  }

  /**
   * The token signed again with the target's own key, a jti added whose value (tried in a fixed
   * order) makes the RS256 signature start with a zero byte, and sent without that byte: one byte
   * shorter than the key's modulus (RFC 8017 8.2.2). About one try in 256 gives one.
   */
  withLeadingZeroDropped(token: string): string {
    for (let attempt = 0; attempt < LEADING_ZERO_ATTEMPTS; attempt++) {
      const signed = this.resigned(token, { claims: (claims) => ({ ...claims, jti: `conformance-suite-${attempt}` }) });
      const at = signed.lastIndexOf('.');
      const signature = Buffer.from(signed.slice(at + 1), 'base64url');
      if (signature[0] === 0) return `${signed.slice(0, at)}.${signature.subarray(1).toString('base64url')}`;
    }
    throw new HarnessError('TOKEN_UNAVAILABLE', `no jti of ${LEADING_ZERO_ATTEMPTS} gave a signature starting with a zero byte`);
  }

  /** Re-signs changed claims with the target's own key: only where the suite holds it. */
  async resignedWithTargetKey(token: string, change: (claims: JWTPayload, nowSeconds: number) => JWTPayload): Promise<string> {
    if (!this.#target.signingKeyJwk) throw new HarnessError('TOKEN_UNAVAILABLE', 'the suite does not hold the target signing key');
    const { header, claims } = decoded(token);
    const key = await importJWK(JSON.parse(this.#target.signingKeyJwk) as JWK, 'RS256');
    return sign(change(claims, Math.floor(Date.now() / 1000)), key, { alg: 'RS256', ...(header.kid ? { kid: header.kid } : {}) });
  }

  expired(token: string): Promise<string> {
    return this.resignedWithTargetKey(token, (claims, now) => ({ ...claims, iat: now - 7200, exp: now - 3600 }));
  }

  wrongAudience(token: string): Promise<string> {
    return this.resignedWithTargetKey(token, (claims) => ({ ...claims, aud: 'https://another-api.example.com/' }));
  }

  wrongIssuer(token: string): Promise<string> {
    return this.resignedWithTargetKey(token, (claims) => ({ ...claims, iss: 'https://issuer.example.com/' }));
  }
}
