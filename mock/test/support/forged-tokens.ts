// Tokens a conforming mock refuses, made from a valid one with the mock's own keys (in process, the
// test holds them): re-signed with changed claims, HS256 keyed with the public key, an unknown kid;
// and compact JWSs of any header and payload, signed with any RSA key.
import { KeyObject, sign } from 'node:crypto';
import { SignJWT, decodeJwt, exportSPKI, generateKeyPair, importJWK, type CryptoKey, type JWTPayload } from 'jose';
import type { MockServer } from '../../index.ts';
import { tokenFor } from './http.ts';

/** The token's claims changed by `change`, signed with the mock's key under its kid. */
export async function resigned(
  mock: MockServer,
  token: string,
  change: (claims: JWTPayload, nowSeconds: number) => JWTPayload,
): Promise<string> {
  const nowSeconds = Math.floor(mock.clock.now() / 1000);
  return new SignJWT(change(decodeJwt(token), nowSeconds))
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: mock.keys.kid })
    .sign(mock.keys.privateKey);
}

/** Algorithm confusion: HS256 with the published public key (SPKI PEM text) as the HMAC secret. */
export async function hs256WithPublicKey(mock: MockServer, token: string): Promise<string> {
  const jwk = mock.keys.jwks.keys[0]!;
  const pem = await exportSPKI((await importJWK({ ...jwk }, jwk.alg, { extractable: true })) as Parameters<typeof exportSPKI>[0]);
  return new SignJWT(decodeJwt(token)).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: jwk.kid }).sign(new TextEncoder().encode(pem));
}

/** The same claims signed with a key the mock has never seen, under a kid it does not publish. */
export async function withUnknownKid(token: string): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT(decodeJwt(token)).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: 'not-a-published-key-id' }).sign(privateKey);
}

/** One character of the signature changed. */
export function withTamperedSignature(token: string): string {
  const [header, payload, signature = ''] = token.split('.');
  const at = Math.floor(signature.length / 2);
  const swapped = signature[at] === 'A' ? 'B' : 'A';
  return `${header}.${payload}.${signature.slice(0, at)}${swapped}${signature.slice(at + 1)}`;
}

/** base64url of a string as it is, or of any other value's JSON. */
const encode = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A compact JWS of exactly this header and payload text, signed RS256 with `key` (no library checks). */
export function jwsOfText(header: Record<string, unknown>, payload: string, key: CryptoKey | KeyObject): string {
  const input = `${encode(header)}.${encode(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key instanceof KeyObject ? key : KeyObject.from(key)).toString('base64url')}`;
}

/** A compact JWS with exactly this header and these claims, signed RS256 with `key` (no library checks). */
export function jws(header: Record<string, unknown>, claims: Record<string, unknown>, key: CryptoKey | KeyObject): string {
  return jwsOfText(header, JSON.stringify(claims), key);
}

/**
 * A token with the mock's key and kid and exactly these claims (whatever their types: no library
 * checks), and these header members besides or in place of alg, typ and kid.
 */
export function signedAsIs(mock: MockServer, claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  return jws({ alg: 'RS256', typ: 'JWT', kid: mock.keys.kid, ...header }, claims, mock.keys.privateKey);
}

/** The claims of a fixture client's token, for a near miss signed with the mock's key. */
export async function claimsOf(mock: MockServer, name = 'global'): Promise<JWTPayload> {
  return decodeJwt(await tokenFor(mock, name));
}
