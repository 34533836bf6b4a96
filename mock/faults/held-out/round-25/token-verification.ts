// Token verification: the claims read by an nginx module on cJSON (the first of two members of one
// name wins), an aud string split on white space by a Kong plugin in Lua, a cache of verified
// signatures keyed by the jti claim the tenant's tokens do not carry; and the observed rules: a kid
// that is a number taken as a position in the JWKS (go-jose's lookup wrapped for a partner IdP whose
// keys have no kid), and exp compared by firebase/php-jwt under PHP's numeric-string juggling. Each
// changes the verdict on its near miss; other tokens are judged as before.
import { observed } from '../../../../specs/index.ts';
import { bearerToken, decodeJws, jsonObjectOf } from '../../../auth/bearer.ts';
import { alsoAccept, editVerifier, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies } from '../support/signatures.ts';

type Claims = Record<string, unknown>;
const ALG = observed.tokens.alg;
const isObject = (value: unknown): value is Claims => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The members of a JSON object's text as cJSON's cJSON_GetObjectItemCaseSensitive finds them: the
 * first member of each name (cJSON keeps every duplicate in its list and the lookup stops at the
 * first). Undefined when the text is not one object.
 */
function firstMembersOf(text: string): Claims | undefined {
  const body = text.trim();
  if (!body.startsWith('{') || !body.endsWith('}')) return undefined;
  const inner = body.slice(1, -1);
  const members: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let i = 0; i < inner.length; i += 1) {
    const c = inner[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') depth -= 1;
    else if (c === ',' && depth === 0) {
      members.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  if (inner.trim() !== '') members.push(inner.slice(start));
  const claims: Claims = {};
  for (const member of members) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(`{${member}}`);
    } catch {
      return undefined;
    }
    if (!isObject(parsed)) return undefined;
    for (const [name, value] of Object.entries(parsed)) if (!Object.hasOwn(claims, name)) claims[name] = value;
  }
  return claims;
}

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho25-exp-first-member-cjson',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: "An nginx C module (the gateway's token check) that parses the payload with cJSON and reads each claim with cJSON_GetObjectItemCaseSensitive, which returns the first of two members of one name where JSON.parse and RFC 7519's parsers take the last: a token signed with the tenant key whose payload says exp twice, an hour ahead and then an hour ago (an expired token), is accepted instead of 401; a token with only the past exp is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart] = token.split('.');
        const header = jsonObjectOf(headerPart);
        if (!header || header.alg !== ALG || header.kid !== keys.kid || payloadPart === undefined) return undefined;
        const claims = firstMembersOf(Buffer.from(payloadPart, 'base64url').toString('utf8'));
        const parsed = jsonObjectOf(payloadPart);
        // Where the two readings agree, the verifier has judged the token already.
        if (!claims || JSON.stringify(claims) === JSON.stringify(parsed)) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? claims : undefined;
      }),
  },
  {
    id: 'ho25-aud-string-split-on-spaces',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Kong custom plugin in Lua that reads aud through the helper it has for scope, for a in aud:gmatch("%S+"), so that one string of several space-separated audiences is taken for a list: a token signed with the tenant key whose aud is the one string "https://reports-api.example.com/ https://<tenant>/api/v2/" (no audience of the tenant) is accepted instead of 401; "https://reports-api.example.com/ https://other.example/" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        if (typeof claims.aud !== 'string' || !/\s/.test(claims.aud) || typeof claims.iss !== 'string') return claims;
        const identity = tenant.identityForIssuer(claims.iss);
        return identity && claims.aud.split(/\s+/).includes(identity.audience) ? { ...claims, aud: identity.audience } : claims;
      }),
  },
  {
    id: 'ho25-signature-cache-keyed-by-jti',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: 'A Python resource server that remembers verified tokens in a cachetools TTLCache under f"verified:{claims.get(\'jti\')}" to skip the RSA check on the next request, reading the claims before the signature, where the tenant\'s tokens carry no jti: once any valid token has been used, every token without a jti ("verified:None") passes the signature check, so a valid token with its signature tampered with is accepted instead of 401; before that first use it is refused, and a tampered token with a jti of its own is still refused.',
    install: (app) =>
      editVerifier(app, (verifier) => {
        const verified = new Set<string>();
        const keyOf = (claims: Readonly<Claims>) => `verified:${claims.jti === undefined ? 'None' : JSON.stringify(claims.jti)}`;
        return {
          ...verifier,
          async verify(authorization, host) {
            const verification = await verifier.verify(authorization, host);
            if (verification.ok) {
              verified.add(keyOf(verification.principal.claims));
              return verification;
            }
            if (verification.error !== 'invalid_signature') return verification;
            const token = bearerToken(authorization);
            const claims = token === undefined ? undefined : decodeJws(token)?.payload;
            return claims && verified.has(keyOf(claims)) ? verifier.checkClaims(claims, host) : verification;
          },
        };
      }),
  },
  {
    id: 'ho25-kid-as-jwks-position',
    clause: 'auth.token.header',
    level: 'observed',
    bug: `A Go verifier whose key lookup wraps go-jose's JSONWebKeySet.Key(kid) with a fallback written for a partner IdP whose JWKS has no kids: when no key has the kid and strconv.Atoi(kid) succeeds, the key at that position is used: a token signed ${ALG} with the tenant key whose kid is "0" (a kid no key has) is accepted instead of 401; kid "7", past the end of the set, is still refused.`,
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart] = token.split('.');
        const header = jsonObjectOf(headerPart);
        if (!header || header.alg !== ALG || typeof header.kid !== 'string' || !/^\d+$/.test(header.kid)) return undefined;
        const key = keys.jwks.keys[Number(header.kid)];
        if (!key || key.kid !== keys.kid) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? jsonObjectOf(payloadPart) : undefined;
      }),
  },
  {
    id: 'ho25-exp-numeric-string-php-jwt',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'A PHP service on firebase/php-jwt 5, whose expiry check is ($timestamp - static::$leeway) >= $payload->exp with no is_numeric test, and PHP 8 compares an int with a numeric string as numbers: a token signed with the tenant key whose exp is the string "<seconds an hour ahead>" (a time that is not a number) is accepted instead of 401; exp "tomorrow", and a numeric string already past, are still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.exp === 'string' && /^\d+$/.test(claims.exp) ? { ...claims, exp: Number(claims.exp) } : claims,
      ),
  },
]);
