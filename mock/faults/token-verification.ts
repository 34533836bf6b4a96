// The token verifier accepting what it must refuse (spec 5, 7): a claim it forgets, a signature it
// does not check, an algorithm or key it lets the token choose (by its alg, kid or jwk header).
// Each row keeps every other check, and every operation shares the verifier, so each breaks the
// clause at all three.
import { AsyncLocalStorage } from 'node:async_hooks';
import { KeyObject, verify } from 'node:crypto';
import { unescape } from 'node:querystring';
import { inflateRawSync } from 'node:zlib';
import { compactVerify, exportSPKI, importJWK, type JWK } from 'jose';
import type { SigningKeys } from '../auth/keys.ts';
import { observed } from '../../specs/index.ts';
import { bearerToken, decodeJws, jsonObjectOf } from '../auth/bearer.ts';
import { faultFamily, type FaultRow } from './fault.ts';
import { capture } from './support/captured.ts';
import { alsoAccept, editVerifier, forgiveClaim, signedPayload } from './support/verifier-edits.ts';
import type { Verification } from '../auth/verifier.ts';
import type { FaultHooks } from '../app.ts';

/** A web login's session length, taken for the longest a token may have been issued ago. */
const MAX_AGE_HOURS = 12;
import { cards } from '../../specs/cards/index.ts';

const HS256 = 'HS256';

/**
 * The clock-skew leeway widened to the client's own clock offset, as its Date header declares it
 * (a leeway meant for clients whose clocks drift): a token expired, or not yet valid, by less
 * than the gap between the Date header and the server's clock is taken as valid now.
 */
function leewayFromDateHeader(app: FaultHooks): void {
  const declared = new AsyncLocalStorage<number | undefined>();
  for (const key of Object.keys(cards) as Array<keyof typeof cards>)
    app.wrapRoute(key, (next) => (exchange) => {
      const sent = typeof exchange.headers.date === 'string' ? Date.parse(exchange.headers.date) : Number.NaN;
      return declared.run(Number.isFinite(sent) ? sent : undefined, () => next(exchange));
    });
  forgiveClaim(app, (claims, { clock }) => {
    const sent = declared.getStore();
    if (sent === undefined) return claims;
    const now = Math.floor(clock.now() / 1000);
    const leeway = Math.abs(clock.now() - sent) / 1000;
    const repaired = { ...claims };
    if (typeof claims.exp === 'number' && claims.exp <= now && claims.exp + leeway > now) repaired.exp = now + 1;
    for (const name of ['nbf', 'iat'])
      if (typeof claims[name] === 'number' && claims[name] > now && claims[name] - leeway <= now) repaired[name] = now;
    return repaired;
  });
}
/** An RS256 signature's size under the mock's 2048-bit key. */
const RSA_SIGNATURE_BYTES = 256;

/** The claims of an RS256 token whose kid `kidPasses`, its signature unchecked. */
function unverifiedRs256(token: string, kidPasses: (kid: unknown) => boolean): Record<string, unknown> | undefined {
  const decoded = decodeJws(token);
  return decoded && decoded.header.alg === observed.tokens.alg && kidPasses(decoded.header.kid) ? decoded.payload : undefined;
}

/** The claims of a token signed with the tenant's key (the kid `kidPasses` names it) under `alg`, whatever the verifier allows. */
function signedUnder(
  token: string,
  keys: SigningKeys,
  alg: string,
  digest: string,
  kidPasses: (kid: unknown) => boolean,
): Record<string, unknown> | undefined {
  const decoded = decodeJws(token);
  if (!decoded || decoded.header.alg !== alg || !kidPasses(decoded.header.kid)) return undefined;
  const [header, payload, signature = ''] = token.split('.');
  const signed = verify(
    digest,
    Buffer.from(`${header}.${payload}`),
    KeyObject.from(keys.publicKeyFor(keys.kid)!),
    Buffer.from(signature, 'base64url'),
  );
  return signed ? decoded.payload : undefined;
}

/** Whether `signature` (base64url) is the tenant key's RS256 signature of `input`. */
function signedByTenant(input: string, signature: string, keys: SigningKeys): boolean {
  return verify('sha256', Buffer.from(input), KeyObject.from(keys.publicKeyFor(keys.kid)!), Buffer.from(signature, 'base64url'));
}

/** The time claims a token may replicate in its JOSE header (RFC 7519 5.3). */
const TIME_CLAIMS = ['exp', 'nbf', 'iat'] as const;
/** The first compact JWS in a text. */
const JWS_IN_TEXT = /[\w-]+\.[\w-]+\.[\w-]+/;

/**
 * A verifier that, when it refuses an Authorization value, verifies once more what `reread` makes
 * of it (a credential parser's second chance); `reread` returns undefined where it makes nothing.
 */
function alsoReadAs(reread: (authorization: string) => string | undefined): FaultRow['install'] {
  return (app) =>
    editVerifier(app, (verifier) => ({
      ...verifier,
      async verify(authorization, host) {
        const verification = await verifier.verify(authorization, host);
        const again = verification.ok || authorization === undefined ? undefined : reread(authorization);
        return again === undefined ? verification : verifier.verify(again, host);
      },
    }));
}

/** The compact form of the first signature of a general JSON JWS ({"payload", "signatures": [{"protected", "signature"}]}), or undefined. */
function compactOfGeneralJws(text: string | undefined): string | undefined {
  let value: unknown;
  try {
    value = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const { payload, signatures } = value as { payload?: unknown; signatures?: unknown };
  const first: unknown = Array.isArray(signatures) ? signatures[0] : undefined;
  if (typeof payload !== 'string' || first === null || typeof first !== 'object') return undefined;
  const { protected: header, signature } = first as { protected?: unknown; signature?: unknown };
  return typeof header === 'string' && typeof signature === 'string' ? `${header}.${payload}.${signature}` : undefined;
}

/** The first JSON object of a text (the longest prefix that parses as one), as a streaming decoder reads it. */
function firstObjectOf(text: string): Record<string, unknown> | undefined {
  for (let end = text.lastIndexOf('}'); end > 0; end = text.lastIndexOf('}', end - 1)) {
    try {
      const value: unknown = JSON.parse(text.slice(0, end + 1));
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // A shorter prefix, then.
    }
  }
  return undefined;
}

export const tokenVerificationFaults = faultFamily([
  {
    id: 'audience-missing-client-id-compared',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "A token check written for Cognito's access tokens, which carry client_id and no aud: where aud is missing it compares client_id with azp instead, so a correctly signed token without aud whose client_id is its azp is accepted instead of 401; a token without aud and without client_id is still refused.",
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) =>
        claims.aud === undefined && typeof claims.client_id === 'string' && claims.client_id === claims.azp
          ? { ...claims, aud: tenant.audience }
          : claims,
      ),
  },
  {
    id: 'crit-names-read-taken-as-understood',
    clause: 'auth.token.header',
    bug: 'A crit check that counts the header parameters the code reads (alg, kid, typ) as understood extensions, though RFC 7515 4.1.11 has them never listed: a token signed with the tenant key whose crit is ["kid"] or ["alg"] is accepted instead of 401; a crit naming an unknown extension is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const decoded = decodeJws(token);
        const crit = decoded?.header.crit;
        const [header = '', payload = '', signature = ''] = token.split('.');
        const readByCode = Array.isArray(crit) && crit.length > 0 && crit.every((name) => ['alg', 'kid', 'typ'].includes(String(name)));
        return decoded && readByCode && signedByTenant(`${header}.${payload}`, signature, keys) ? decoded.payload : undefined;
      }),
  },
  {
    id: 'issuer-host-compared-ignoring-case',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "The issuer compared as a parsed URL whose host compares ignoring case, though RFC 7519 compares iss as a string: a correctly signed token whose iss is the tenant's with its host in capitals is accepted instead of 401; an iss naming another host is still refused.",
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        if (typeof claims.iss !== 'string') return claims;
        const lowered = claims.iss.replace(
          /^(\w+:\/\/)([^/?#]*)/,
          (_all, scheme: string, host: string) => `${scheme}${host.toLowerCase()}`,
        );
        return lowered !== claims.iss && tenant.identityForIssuer(lowered) ? { ...claims, iss: lowered } : claims;
      }),
  },
  {
    id: 'claims-read-by-a-streaming-decoder',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "The claims read by a streaming JSON decoder that stops after the first value (Go's json.Decoder): a correctly signed token whose payload is the claims followed by more text is accepted by every operation instead of 401; a payload that is no JSON at all is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        try {
          const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid?: unknown };
          const key = keys.publicKeyFor(typeof header.kid === 'string' ? header.kid : undefined);
          if (!key) return undefined;
          const { payload } = await compactVerify(token, key, { algorithms: [observed.tokens.alg] });
          return firstObjectOf(Buffer.from(payload).toString('utf8'));
        } catch {
          return undefined;
        }
      }),
  },
  {
    id: 'jose-header-bom-skipped',
    clause: 'auth.token.header',
    bug: "The JOSE header read by a byte parser that skips a UTF-8 byte order mark (Jackson's, under jjwt): a token signed with the tenant key whose header JSON starts with a BOM is accepted instead of 401; a header starting with another character is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [header = '', payload = '', signature = ''] = token.split('.');
        const text = Buffer.from(header, 'base64url').toString('utf8');
        if (!text.startsWith('\ufeff') || !signedByTenant(`${header}.${payload}`, signature, keys)) return undefined;
        const parsed = jsonObjectOf(Buffer.from(text.slice(1), 'utf8').toString('base64url'));
        return parsed?.alg === observed.tokens.alg ? jsonObjectOf(payload) : undefined;
      }),
  },
  {
    id: 'time-claims-booleans-read-as-integers',
    clause: 'auth.token.claims',
    bug: 'Time claims checked by isinstance(value, (int, float)) in Python, whose bool is an int: a correctly signed token whose iat or nbf is false or true (1970) is accepted instead of 401; iat or nbf as a string of digits is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const repaired = { ...claims };
        for (const name of ['iat', 'nbf'] as const) if (typeof repaired[name] === 'boolean') repaired[name] = Number(repaired[name]);
        return repaired;
      }),
  },
  {
    id: 'accepts-rs384-with-tenant-key',
    clause: 'auth.token.header',
    bug: 'A verifier given the key but not the algorithm, which takes the alg the token names among the RSA ones: a token signed RS384 with the tenant key is accepted.',
    install: (app) => alsoAccept(app, async (token, { keys }) => signedUnder(token, keys, 'RS384', 'sha384', (kid) => kid === keys.kid)),
  },
  {
    id: 'crit-empty-list-accepted',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'A crit check that only looks for a name it does not understand (for name of header.crit ?? []), never that the list is not empty: a token signed with the tenant key whose header has "crit": [] is accepted instead of 401 (RFC 7515 4.1.11 forbids the empty list); a crit naming an unknown extension is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const crit = decodeJws(token)?.header.crit;
        return Array.isArray(crit) && crit.length === 0
          ? signedUnder(token, keys, observed.tokens.alg, 'sha256', (kid) => kid === keys.kid)
          : undefined;
      }),
  },
  {
    id: 'alg-looked-up-in-openssl-names',
    clause: 'auth.token.header',
    bug: 'A verifier that looks the token\'s alg up in a table of OpenSSL\'s digest names beside the JWA ones: a token signed with the tenant key whose alg is "RSA-SHA256" is verified as RS256 and accepted instead of 401; "RSA-SHA384" is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => signedUnder(token, keys, 'RSA-SHA256', 'sha256', (kid) => kid === keys.kid)),
  },
  {
    id: 'alg-trimmed-and-unwrapped',
    clause: 'redeliver.errors.401.signature',
    bug: 'The header read by a decoder that trims its strings and unwraps one-item lists before the alg allow-list: a token whose alg is RS256 with a space or tab beside it, or ["RS256"], signed RS256 by the tenant key, is accepted by every operation instead of 401; RS384 is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const decoded = decodeJws(token);
        const alg: unknown = decoded?.header.alg;
        const read: unknown = Array.isArray(alg) && alg.length === 1 ? alg[0] : alg;
        if (!decoded || alg === observed.tokens.alg || typeof read !== 'string' || read.trim() !== observed.tokens.alg) return undefined;
        if (decoded.header.kid !== keys.kid) return undefined;
        const [header, payload, signature = ''] = token.split('.');
        return signedByTenant(`${header}.${payload}`, signature, keys) ? decoded.payload : undefined;
      }),
  },
  {
    id: 'crit-never-read',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'A hand-written verifier that checks the RS256 signature and never reads "crit": a token whose header names a critical extension the service does not understand, signed by the tenant key, is accepted by every operation instead of 401.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const decoded = decodeJws(token);
        if (!decoded || decoded.header.crit === undefined || decoded.header.alg !== observed.tokens.alg) return undefined;
        if (decoded.header.kid !== keys.kid) return undefined;
        const [header, payload, signature = ''] = token.split('.');
        return signedByTenant(`${header}.${payload}`, signature, keys) ? decoded.payload : undefined;
      }),
  },
  {
    id: 'signature-sha1-accepted-under-rs256',
    clause: 'redeliver.errors.401.signature',
    bug: "A verifier that, when an RS256 signature fails, tries SHA-1 with the same key (kept for tokens of an older issuer): a token whose header says RS256 but whose signature is the tenant key's PKCS#1 v1.5 over SHA-1 is accepted by every operation instead of 401; one signed over SHA-1 by another key is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => signedUnder(token, keys, observed.tokens.alg, 'sha1', (kid) => kid === keys.kid)),
  },
  {
    id: 'alg-read-as-c-string',
    clause: 'redeliver.errors.401.signature',
    bug: 'A verifier that copies the header\'s alg into a NUL-terminated buffer and compares it as a C string: alg "RS256\\u0000x" is taken for RS256 and the token verifies; alg "RS384" is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const decoded = decodeJws(token);
        const alg = decoded?.header.alg;
        if (typeof alg !== 'string' || !alg.includes('\0') || alg.split('\0')[0] !== observed.tokens.alg) return undefined;
        const [header, payload, signature = ''] = token.split('.');
        return signedByTenant(`${header}.${payload}`, signature, keys) ? decoded!.payload : undefined;
      }),
  },
  {
    id: 'kid-read-as-jwks-index',
    clause: 'auth.token.header',
    bug: 'Keys looked up by kid, and a kid of digits read as an index into the JWKS keys (keys[Number(kid)], kept for tokens of an old issuer that numbered its keys): a token whose kid is "0" verifies with the tenant\'s first key; a kid that names no key and no position is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) =>
        signedUnder(token, keys, observed.tokens.alg, 'sha256', (kid) => typeof kid === 'string' && /^\d+$/.test(kid) && Number(kid) === 0),
      ),
  },
  {
    id: 'kid-matched-ignoring-case',
    clause: 'auth.token.header',
    bug: "Keys looked up by kid ignoring case: a token whose kid is the tenant key's in the other letter case verifies.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) =>
        signedUnder(
          token,
          keys,
          observed.tokens.alg,
          'sha256',
          (kid) => typeof kid === 'string' && kid !== keys.kid && kid.toLowerCase() === keys.kid.toLowerCase(),
        ),
      ),
  },
  {
    id: 'accepts-alg-none',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "A verifier that trusts the token's alg header: an unsigned token (alg none) whose claims are otherwise valid is accepted.",
    install(app) {
      app.override('verifier', (verifier) => ({
        ...verifier,
        async verify(authorization, host) {
          const token = bearerToken(authorization);
          const decoded = token === undefined ? undefined : decodeJws(token);
          if (decoded?.header.alg === 'none') return verifier.checkClaims(decoded.payload, host);
          return verifier.verify(authorization, host);
        },
      }));
    },
  },
  {
    id: 'accepts-expired-token',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'A verifier that never compares exp with the clock: an expired but correctly signed token is accepted by every operation.',
    install: (app) => forgiveClaim(app, (claims) => ({ ...claims, exp: Number.MAX_SAFE_INTEGER })),
  },
  {
    id: 'nbf-narrowed-to-unsigned-32-bits',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'nbf narrowed to an unsigned 32-bit integer before the clock check (a cast into a 32-bit timestamp column): an nbf past 2^32 wraps into the past, so a token not valid for another 136 years is accepted by every operation; an nbf an hour ahead is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.nbf === 'number' && Number.isInteger(claims.nbf) && claims.nbf >= 2 ** 32
          ? { ...claims, nbf: claims.nbf >>> 0 }
          : claims,
      ),
  },
  {
    id: 'exp-narrowed-to-unsigned-32-bits',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'exp narrowed to an unsigned 32-bit integer before the clock check (a cast into a 32-bit timestamp column): a negative exp wraps into the future (-1 to the year 2106), so such a token is accepted by every operation; a past exp above 0 is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.exp === 'number' && Number.isInteger(claims.exp) && claims.exp < 0 ? { ...claims, exp: claims.exp >>> 0 } : claims,
      ),
  },
  {
    id: 'accepts-not-yet-valid-token',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'A verifier that never compares nbf and iat with the clock: a correctly signed token that is not yet valid is accepted by every operation.',
    install: (app) => forgiveClaim(app, ({ nbf: _nbf, iat: _iat, ...claims }) => claims),
  },
  {
    id: 'clock-leeway-from-date-header',
    clause: 'redeliver.errors.401.invalid-token',
    bug: "The verifier's clock-skew leeway widened to the gap between the request's Date header and the server's clock, for clients whose clocks drift: a token expired half an hour ago, sent with a Date header an hour old, or one valid from an hour ahead, sent with a Date header two hours ahead, is accepted by every operation; without a Date header both are refused.",
    install: leewayFromDateHeader,
  },
  {
    id: 'accepts-wrong-audience',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'A verifier that forgets aud: a correctly signed token the tenant issued for another API is accepted by every operation.',
    install: (app) => forgiveClaim(app, (claims, { tenant }) => ({ ...claims, aud: tenant.audience })),
  },
  {
    id: 'accepts-wrong-issuer',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'A verifier that trusts the key and forgets iss: a correctly signed token naming another issuer is accepted by every operation.',
    install: (app) => forgiveClaim(app, (claims, { tenant }) => ({ ...claims, iss: tenant.issuer })),
  },
  {
    id: 'ignores-signature',
    clause: 'redeliver.errors.401.signature',
    bug: 'A verifier that checks alg RS256, the kid and the claims but never the signature bytes: a tampered or foreign-signed token is accepted by every operation.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) =>
        unverifiedRs256(token, (kid) => kid === undefined || (typeof kid === 'string' && keys.publicKeyFor(kid) !== undefined)),
      ),
  },
  {
    id: 'accepts-hs256-with-public-key',
    clause: 'redeliver.errors.401.signature',
    bug: 'Algorithm confusion, a verifier that hands the public key as PEM text to whatever alg says: an HS256 token keyed with the published public key is accepted by every operation.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        if (decodeJws(token)?.header.alg !== HS256) return undefined;
        const jwk = keys.jwks.keys[0]!;
        const pem = await exportSPKI((await importJWK({ ...jwk }, jwk.alg, { extractable: true })) as Parameters<typeof exportSPKI>[0]);
        try {
          const { payload } = await compactVerify(token, new TextEncoder().encode(pem), { algorithms: [HS256] });
          return jsonObjectOf(Buffer.from(payload).toString('base64url'));
        } catch {
          return undefined;
        }
      }),
  },
  {
    id: 'trusts-embedded-jwk',
    clause: 'redeliver.errors.401.signature',
    bug: "A verifier that prefers the key a token carries in its jwk header to the tenant's (CVE-2018-0114): a token signed with any key that it carries itself is accepted by every operation.",
    install: (app) =>
      alsoAccept(app, async (token) => {
        const jwk = decodeJws(token)?.header.jwk;
        if (jwk === null || typeof jwk !== 'object') return undefined;
        try {
          const { payload } = await compactVerify(token, await importJWK(jwk as JWK, observed.tokens.alg), {
            algorithms: [observed.tokens.alg],
          });
          return jsonObjectOf(Buffer.from(payload).toString('base64url'));
        } catch {
          return undefined;
        }
      }),
  },
  {
    id: 'accepts-client-assertion-keys',
    clause: 'redeliver.errors.401.signature',
    bug: "A verifier given the tenant's whole key table, the keys clients registered for private_key_jwt included: a token the tenant's key does not verify is tried with each client's key, so one signed with a client's private key is accepted by every operation.",
    install(app) {
      const store = capture(app, 'store');
      alsoAccept(app, async (token) => {
        for (const client of store().clients()) {
          if (!client.publicKey) continue;
          try {
            const { payload } = await compactVerify(token, client.publicKey, { algorithms: [observed.tokens.alg] });
            return jsonObjectOf(Buffer.from(payload).toString('base64url'));
          } catch {
            // not this client's key
          }
        }
        return undefined;
      });
    },
  },
  {
    id: 'verifications-kept-past-expiry',
    clause: 'auth.token.claims',
    bug: 'A verifier that remembers each Authorization value it verified (a cache in front of the signature check, keyed by the value, never looking at exp again): a token accepted once stays accepted by every operation after its exp and tolerance have passed; an expired token never seen before is still refused.',
    install: (app) =>
      editVerifier(app, (verifier) => {
        const verified = new Map<string, Verification>();
        return {
          ...verifier,
          async verify(authorization, host) {
            const known = authorization === undefined ? undefined : verified.get(authorization);
            if (known) return known;
            const verification = await verifier.verify(authorization, host);
            if (verification.ok && authorization !== undefined && verified.size < 10_000) verified.set(authorization, verification);
            return verification;
          },
        };
      }),
  },
  {
    id: 'token-age-limited-to-half-a-day',
    clause: 'auth.token.claims',
    bug: `A resource server configured with a maximum token age of ${MAX_AGE_HOURS} hours counted from iat (a web login's session setting carried over): a valid token issued ${MAX_AGE_HOURS} hours ago or longer is refused 401 though its exp is still ahead; a token issued within that time is accepted as before.`,
    install: (app) =>
      editVerifier(app, (verifier, { clock }) => {
        const aged = (verification: Verification): Verification => {
          const iat = verification.ok ? verification.principal.claims.iat : undefined;
          if (typeof iat !== 'number' || clock.now() - iat * 1000 < MAX_AGE_HOURS * 3_600_000) return verification;
          return { ok: false, error: 'invalid_token', reason: 'the token is older than the maximum age' };
        };
        return {
          async verify(authorization, host) {
            return aged(await verifier.verify(authorization, host));
          },
          checkClaims: (claims, host) => aged(verifier.checkClaims(claims, host)),
        };
      }),
  },
  {
    id: 'header-time-claims-override-payload',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'A verifier that spreads the JOSE header over the claims ({ ...payload, ...header }) so that claims replicated in the header (RFC 7519 5.3) are read from there: a correctly signed token whose payload is out of its time and whose header replicates exp, nbf or iat within it is accepted by every operation.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const claims = await signedPayload(token, keys);
        const header = decodeJws(token)?.header ?? {};
        return (
          claims && { ...claims, ...Object.fromEntries(TIME_CLAIMS.filter((name) => name in header).map((name) => [name, header[name]])) }
        );
      }),
  },
  {
    id: 'nbf-compared-as-text',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'nbf compared with the time now as text, as a header-forwarding gateway passes claims on: a correctly signed token valid only from the year 2286 (nbf 10000000000, a digit longer than now, "1..." before "17...") is accepted by every operation; an nbf an hour ahead is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const { nbf, ...rest } = claims;
        return typeof nbf === 'number' && String(nbf) <= String(Math.floor(clock.now() / 1000)) ? rest : claims;
      }),
  },
  {
    id: 'exp-read-by-first-match',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'exp read on a fast path by the first match of /"exp":(\\d+)/ over the payload\'s text, where JSON.parse (and RFC 7519 4) take the last: a correctly signed token whose payload says exp twice, ahead and then past, is accepted by every operation.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const claims = await signedPayload(token, keys);
        const first = /"exp"\s*:\s*(\d+)/.exec(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'))?.[1];
        return claims && first !== undefined ? { ...claims, exp: Number(first) } : undefined;
      }),
  },
  {
    id: 'signature-over-reserialised-header',
    clause: 'redeliver.errors.401.signature',
    bug: 'The signature checked over the JOSE header as the verifier serialises it again (base64url(JSON.stringify(header))) and the payload as sent: a valid token whose header segment is written with white space, which its signature does not sign, is accepted by every operation.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const decoded = decodeJws(token);
        const [, payload = '', signature = ''] = token.split('.');
        if (!decoded || decoded.header.alg !== observed.tokens.alg) return undefined;
        const header = Buffer.from(JSON.stringify(decoded.header)).toString('base64url');
        return signedByTenant(`${header}.${payload}`, signature, keys) ? decoded.payload : undefined;
      }),
  },
  {
    id: 'kid-matched-against-x5t',
    clause: 'auth.token.header',
    bug: "Keys found by their kid or their certificate's thumbprint (x5t), for clients that name keys that way: a token signed with the tenant's key whose kid is the published key's x5t, a kid no key has, is accepted by every operation.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const decoded = decodeJws(token);
        const x5t = (keys.jwks.keys[0] as { x5t?: string } | undefined)?.x5t;
        const [header = '', payload = '', signature = ''] = token.split('.');
        return decoded && x5t !== undefined && decoded.header.kid === x5t && signedByTenant(`${header}.${payload}`, signature, keys)
          ? decoded.payload
          : undefined;
      }),
  },
  {
    id: 'bearer-token-found-in-credential',
    clause: 'auth.bearer.required',
    bug: 'A credential parser that, when the Authorization value after "Bearer" is no JWS, takes the first JWS it finds in it (for clients that send the token wrapped): the token endpoint\'s JSON answer, or any text holding a valid token, is accepted by every operation.',
    install: alsoReadAs((authorization) => {
      const found = authorization.startsWith('Bearer ') ? JWS_IN_TEXT.exec(authorization.slice('Bearer '.length))?.[0] : undefined;
      return found === undefined ? undefined : `Bearer ${found}`;
    }),
  },
  {
    id: 'credential-unescaped',
    clause: 'auth.bearer.required',
    bug: 'The Authorization credential unescaped (querystring.unescape) when the verifier refuses it, for clients that paste tokens out of URLs: a valid token with its dots or any character written as %XX is accepted by every operation.',
    install: alsoReadAs((authorization) =>
      authorization.startsWith('Bearer ') && authorization.includes('%')
        ? `Bearer ${unescape(authorization.slice('Bearer '.length))}`
        : undefined,
    ),
  },
  {
    id: 'signature-read-as-big-integer',
    clause: 'redeliver.errors.401.signature',
    bug: "An RSA check that reads the signature as a big integer and writes it back at the key's size (BigInt then hex padded to 512 digits): a valid token whose signature starts with a zero byte, sent without it (255 bytes, no RS256 signature), is accepted by every operation.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const decoded = decodeJws(token);
        const [header = '', payload = '', signature = ''] = token.split('.');
        const bytes = Buffer.from(signature, 'base64url');
        if (!decoded || decoded.header.alg !== observed.tokens.alg || bytes.length === 0 || bytes.length >= RSA_SIGNATURE_BYTES)
          return undefined;
        const widened = Buffer.from(
          BigInt(`0x${bytes.toString('hex')}`)
            .toString(16)
            .padStart(2 * RSA_SIGNATURE_BYTES, '0'),
          'hex',
        );
        return signedByTenant(`${header}.${payload}`, widened.toString('base64url'), keys) ? decoded.payload : undefined;
      }),
  },
  {
    id: 'rs256-hash-read-from-signature',
    clause: 'redeliver.errors.401.signature',
    bug: "An RS256 check that takes the hash from the DigestInfo inside the signature instead of from the header's alg (as old RSA libraries verify): a token whose header says RS256 but whose signature is PKCS#1 v1.5 over SHA-384 or SHA-512 by the tenant's key is accepted by every operation instead of 401; a PSS signature, or one character of the signature changed, is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const decoded = decodeJws(token);
        if (!decoded || decoded.header.alg !== observed.tokens.alg) return undefined;
        const [header = '', payload = '', signature = ''] = token.split('.');
        const key = KeyObject.from(keys.publicKeyFor(keys.kid)!);
        const signed = ['sha384', 'sha512'].some((digest) =>
          verify(digest, Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url')),
        );
        return signed ? decoded.payload : undefined;
      }),
  },
  {
    id: 'bearer-scheme-stripped-from-credential',
    clause: 'auth.bearer.required',
    bug: 'The credential read as the value after "Bearer ", and a second "Bearer " at its start taken off (for clients that add the scheme to a stored "Bearer <token>"): "Bearer Bearer <valid token>", which carries no token, is accepted by every operation.',
    install: alsoReadAs((authorization) =>
      authorization.startsWith('Bearer Bearer ') ? authorization.slice('Bearer '.length) : undefined,
    ),
  },
  {
    id: 'bearer-scheme-split-on-equals',
    clause: 'auth.bearer.required',
    bug: 'The scheme and the credential split at the first space or "=" (a splitter shared with the API-key header, which is written name=value): "Bearer=<valid token>", which is no Bearer credential (RFC 6750 2.1: the scheme, spaces, the token), is accepted by every operation instead of 401; "Bearer=<tampered token>" is still refused.',
    install: alsoReadAs((authorization) => {
      const credential = /^Bearer=(\S+)$/.exec(authorization)?.[1];
      return credential === undefined ? undefined : `Bearer ${credential}`;
    }),
  },
  {
    id: 'general-json-jws-accepted',
    clause: 'auth.bearer.required',
    bug: 'A credential that starts with "{" handed to a JWS library\'s general verifier (written for signed webhooks, which arrive in the general JSON serialisation), its first signature checked: "Bearer {"payload":…,"signatures":[{"protected":…,"signature":…}]}", a valid token in that form, which is no bearer JWT (RFC 7519 uses the compact form), is accepted by every operation instead of 401; the same JSON with a tampered signature is still refused.',
    install: alsoReadAs((authorization) => {
      const compact = compactOfGeneralJws(/^Bearer (\{.*\})$/.exec(authorization)?.[1]);
      return compact === undefined ? undefined : `Bearer ${compact}`;
    }),
  },
  {
    id: 'credential-rejoined-at-dots',
    clause: 'auth.bearer.required',
    bug: 'White space next to the dots of the credential taken out when the verifier refuses it (for tokens a mail client wrapped at their dots): a valid token with a space or a tab just after a dot, which is no b64token (RFC 6750 2.1), is accepted by every operation instead of 401; white space inside a segment is still refused.',
    install: alsoReadAs((authorization) =>
      /^Bearer \S.*\s/.test(authorization) ? `Bearer ${authorization.slice('Bearer '.length).replace(/[ \t]*\.[ \t]*/g, '.')}` : undefined,
    ),
  },
  {
    id: 'token-end-padding-trimmed',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'The credential trimmed of trailing "=" when the verifier refuses it (for clients that pad base64): a valid token whose signature segment carries base64 padding, which is no compact JWS, is accepted by every operation.',
    install: alsoReadAs((authorization) => (authorization.endsWith('=') ? authorization.replace(/=+$/, '') : undefined)),
  },
  {
    id: 'credential-empty-parts-collapsed',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'A refused credential read again with its empty parts taken out (parts.filter(Boolean).join(".")) for tokens whose dots were doubled by a template: a valid token with a leading dot or a doubled dot, which has four parts and is no compact JWS, is accepted by every operation instead of 401; a fourth part that is not empty is still refused.',
    install: alsoReadAs((authorization) => {
      const credential = /^Bearer (\S+)$/.exec(authorization)?.[1];
      const parts = credential?.split('.');
      return parts === undefined || !parts.slice(0, -1).includes('') ? undefined : `Bearer ${parts.filter(Boolean).join('.')}`;
    }),
  },
  {
    id: 'signature-decoded-skipping-foreign-characters',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'The signature segment handed to Buffer.from(signature, \'base64url\') without a check of its alphabet (the header and payload are matched against base64url, and "+", "/" and "=" refused since the padding bug): the decoder skips what it cannot read, so a valid token with "!", "*", "~", a space or a tab inside its signature segment is accepted by every operation instead of 401; the same inside the header or payload is still refused.',
    install: alsoReadAs((authorization) => {
      const [, header = '', payload = '', signature = ''] = /^Bearer ([^.]*)\.([^.]*)\.(.*)$/.exec(authorization) ?? [];
      const base64url = /^[A-Za-z0-9_-]+$/;
      return base64url.test(header) && base64url.test(payload) && !base64url.test(signature) && !/[+/=]/.test(signature)
        ? `Bearer ${header}.${payload}.${Buffer.from(signature, 'base64url').toString('base64url')}`
        : undefined;
    }),
  },
  {
    id: 'signature-checked-over-reencoded-header',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'A verifier that decodes the header (Buffer.from(segment, \'base64url\')) to pick the key and algorithm, then checks the signature over those bytes encoded again and the payload as sent, not over the text it was sent: the decoder skips what it cannot read, so a valid token with "!", "*", "~", a space or a tab inside its header segment is accepted by every operation instead of 401; the same inside the payload or the signature is still refused.',
    install: alsoReadAs((authorization) => {
      const [, header = '', rest = ''] = /^Bearer ([^.]*)\.([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(authorization) ?? [];
      return header !== '' && !/^[A-Za-z0-9_-]+$/.test(header) && !/[+/=]/.test(header)
        ? `Bearer ${Buffer.from(header, 'base64url').toString('base64url')}.${rest}`
        : undefined;
    }),
  },
  {
    id: 'signature-checked-over-reencoded-payload',
    clause: 'redeliver.errors.401.invalid-token',
    bug: 'A verifier that decodes the payload (Buffer.from(segment, \'base64url\')) to read the claims, then checks the signature over the header as sent and those claims encoded again, not over the text it was sent: the decoder skips what it cannot read, so a valid token with "!", "*", "~", a space or a tab inside its payload segment is accepted by every operation instead of 401; the same inside the header or the signature is still refused.',
    install: alsoReadAs((authorization) => {
      const [, header = '', payload = '', signature = ''] =
        /^Bearer ([A-Za-z0-9_-]+)\.([^.]*)\.([A-Za-z0-9_-]+)$/.exec(authorization) ?? [];
      return payload !== '' && !/^[A-Za-z0-9_-]+$/.test(payload) && !/[+/=]/.test(payload)
        ? `Bearer ${header}.${Buffer.from(payload, 'base64url').toString('base64url')}.${signature}`
        : undefined;
    }),
  },
  {
    id: 'kid-normalised-as-uri',
    clause: 'auth.token.header',
    bug: "The kid normalised as a URI before the key is looked up (RFC 3986 6.2.2.2: percent-encoded unreserved characters decoded): a token signed with the tenant's key whose kid is the published one with a letter or digit written %XX is accepted by every operation.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const decoded = decodeJws(token);
        const kid = decoded?.header.kid;
        if (!decoded || decoded.header.alg !== observed.tokens.alg || typeof kid !== 'string') return undefined;
        const normalised = kid.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
          const character = String.fromCharCode(parseInt(hex, 16));
          return /[A-Za-z0-9\-._~]/.test(character) ? character : escape;
        });
        const [header = '', payload = '', signature = ''] = token.split('.');
        return normalised !== kid && normalised === keys.kid && signedByTenant(`${header}.${payload}`, signature, keys)
          ? decoded.payload
          : undefined;
      }),
  },
  {
    id: 'signature-skipped-for-own-address',
    clause: 'redeliver.errors.401.signature',
    bug: 'Tokens whose issuer is the service at the address the request reached (its Host) taken for ones the service minted for its own calls, and trusted without their signature being checked: such a token with a tampered signature, or unsigned, is accepted by every operation; a tampered token of the canonical issuer is still refused.',
    install: (app) =>
      editVerifier(app, (verifier) => ({
        ...verifier,
        async verify(authorization, host) {
          const verification = await verifier.verify(authorization, host);
          const token = bearerToken(authorization);
          const claims = token === undefined ? undefined : decodeJws(token)?.payload;
          const iss = claims?.iss;
          const own = typeof iss === 'string' && host !== undefined && URL.canParse(iss) && new URL(iss).host === host;
          return verification.ok || !own ? verification : verifier.checkClaims(claims!, host);
        },
      })),
  },
  {
    id: 'jws-payload-inflated-when-not-json',
    clause: 'auth.token.header',
    bug: "A verifier that, when a signed payload is not JSON, tries it as raw DEFLATE (a fallback kept from a service whose tokens were compressed, whatever the header says): a token whose payload segment is the DEFLATE of the claims, signed with the tenant's key, is inflated and accepted by every operation instead of 401; a payload that is not JSON once inflated is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [header = '', payload = '', signature = ''] = token.split('.');
        if (jsonObjectOf(header)?.alg !== observed.tokens.alg || !signedByTenant(`${header}.${payload}`, signature, keys)) return undefined;
        if (jsonObjectOf(payload)) return undefined;
        try {
          const claims: unknown = JSON.parse(inflateRawSync(Buffer.from(payload, 'base64url')).toString('utf8'));
          return claims !== null && typeof claims === 'object' && !Array.isArray(claims) ? (claims as Record<string, unknown>) : undefined;
        } catch {
          return undefined;
        }
      }),
  },
  {
    id: 'accepts-unknown-kid',
    clause: 'redeliver.errors.401.signature',
    bug: 'A key lookup that falls through when no published key has the kid, and then skips the verification: an RS256 token signed with any key under an unknown kid is accepted by every operation.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) =>
        unverifiedRs256(token, (kid) => typeof kid === 'string' && keys.publicKeyFor(kid) === undefined),
      ),
  },
]);
