// Token verification: a JWS header's "b64": false honoured without "crit" (RFC 7797 done by halves),
// aud read through PHP's (array) cast (an object's values taken for a list), iss normalised by
// Python's urlunparse(urlparse()) (an empty query, fragment or params dropped), and the audience
// checked against every identity of the tenant apart from the issuer's; and the observed rule: a
// JOSE header whose member is given twice read by a parser that keeps the first (an Erlang
// proplist). Each lets its near miss through; other tokens are judged as before.
import { KeyObject, verify } from 'node:crypto';
import { audiencesOf, jsonObjectOf } from '../../../auth/bearer.ts';
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { parseFirstWins } from '../round-5/support/first-wins-json.ts';
import { rs256SignatureVerifies } from '../support/signatures.ts';

type Claims = Record<string, unknown>;
const ALG = 'RS256';
const isObject = (value: unknown): value is Claims => value !== null && typeof value === 'object' && !Array.isArray(value);
/** What urlunparse(urlparse(iss)) drops: params (";"), a query ("?") and a fragment ("#"), each empty, at the end. */
const EMPTY_COMPONENTS = /^(https?:\/\/[^;?#]*?);?\??#?$/;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho23-jws-b64-false-without-crit',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: 'A hand-written verifier that added RFC 7797 (unencoded payloads) by reading "b64" from the header and forgot that the member counts only when "crit" names it: a token whose header says "b64": false without "crit", signed over the header and the raw claims JSON (not their base64url), is accepted instead of 401 for a signature that does not validate; the same token with one claim changed after signing is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart, signature] = token.split('.');
        const header = jsonObjectOf(headerPart);
        if (!header || header.b64 !== false || header.crit !== undefined || header.alg !== ALG || header.kid !== keys.kid) return undefined;
        if (!payloadPart || !signature) return undefined;
        const raw = Buffer.from(payloadPart, 'base64url');
        const publicKey = keys.publicKey instanceof KeyObject ? keys.publicKey : KeyObject.from(keys.publicKey);
        try {
          const signed = verify(
            'sha256',
            Buffer.concat([Buffer.from(`${headerPart}.`), raw]),
            publicKey,
            Buffer.from(signature, 'base64url'),
          );
          return signed ? jsonObjectOf(payloadPart) : undefined;
        } catch {
          return undefined;
        }
      }),
  },
  {
    id: 'ho23-aud-php-array-cast',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A PHP resource server decoding the claims as objects (json_decode without assoc) and checking in_array($audience, (array) $claims->aud), a cast that makes a string a list of one and an object the list of its property values: a token whose aud is {"primary": "<the management audience>"} is accepted instead of 401 for a wrong audience; {"primary": "https://reports-api.example.com/"} is still refused.',
    install: (app) => forgiveClaim(app, (claims) => (isObject(claims.aud) ? { ...claims, aud: Object.values(claims.aud) } : claims)),
  },
  {
    id: 'ho23-iss-python-urlunparse',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The issuer normalised in Python with urlunparse(urlparse(iss)) before it is compared (to accept "https://HOST/" written any way), which drops an empty query, fragment or params: a token whose iss is "https://<tenant>/?" (or "https://<tenant>/#") is accepted instead of 401 for a wrong issuer; "https://<tenant>/?x" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        if (typeof claims.iss !== 'string') return claims;
        const kept = EMPTY_COMPONENTS.exec(claims.iss)?.[1];
        return kept === undefined || kept === claims.iss ? claims : { ...claims, iss: kept };
      }),
  },
  {
    id: 'ho23-aud-any-identity-of-tenant',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: "The verifier configured as express-jwt is, with the list of the tenant's issuers and the list of its management audiences (the canonical host and the loopback origins), each claim checked against its own list: a token whose iss is the canonical tenant and aud the management audience of the mock reached at a loopback origin, a pair no token is issued with, is accepted instead of 401 for a wrong audience; aud naming a loopback origin at another port is still refused.",
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        const identity = typeof claims.iss === 'string' ? tenant.identityForIssuer(claims.iss) : undefined;
        if (!identity) return claims;
        const audiences = audiencesOf(claims.aud);
        if (audiences.includes(identity.audience)) return claims;
        const other = audiences.some((value) => typeof value === 'string' && tenant.identityForAudience(value) !== undefined);
        return other ? { ...claims, aud: identity.audience } : claims;
      }),
  },
  {
    id: 'ho23-header-duplicate-alg-first-wins',
    clause: 'auth.token.header',
    level: 'observed',
    bug: 'The JOSE header decoded by an Erlang verifier into a proplist (jsx with no duplicate check) and read with proplists:get_value/2, which finds the first of a member given twice, where JSON.parse (and the real service) keeps the last: a token signed RS256 with the tenant key whose header is {"alg":"RS256",...,"alg":"HS256"} is accepted instead of 401; {"alg":"none",...,"alg":"HS256"} is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart] = token.split('.');
        if (headerPart === undefined || payloadPart === undefined) return undefined;
        const text = Buffer.from(headerPart, 'base64url').toString('utf8');
        const first = parseFirstWins(text);
        const last = jsonObjectOf(headerPart);
        if (!isObject(first) || !last || first.alg === last.alg || first.alg !== ALG || first.kid !== keys.kid) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? jsonObjectOf(payloadPart) : undefined;
      }),
  },
]);
