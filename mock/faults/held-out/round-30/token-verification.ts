// Token verification: the issuer compared by a Scala (http4s) service as two Uri values, whose host
// is a case-insensitive string; an expired exp with a fraction read by an F# (Giraffe) service as an
// int claim that is then missing; the scheme found by a Python (Falcon) middleware with re.search,
// which is not anchored; and the observed rules: an OCaml (Dream) service's own crit check, which
// counts the header names it reads as understood, and iat checked by PyJWT, whose int() takes a
// boolean. Each changes the verdict on its near miss; other tokens are judged as before.
import { operationKeys } from '../../../../specs/index.ts';
import { jsonObjectOf } from '../../../auth/bearer.ts';
import { editRequests } from '../../support/route-edits.ts';
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies } from '../support/signatures.ts';

/** The conformant reading of the credential: the scheme, then the token, nothing before. */
const ANCHORED = /^Bearer +\S+$/i;
/** Python's re.search(r"Bearer\s+(\S+)$", header): found anywhere in the value. */
const SEARCHED = /Bearer\s+(\S+)$/;
/** The header names the Dream service reads itself, and so takes for understood in crit. */
const READ_NAMES = new Set(['alg', 'kid', 'typ']);
const URL_PARTS = /^(https?:\/\/)([^/?#]+)(.*)$/s;

/** http4s compares a Uri's reg-name host as a CIString: the issuer with its host in lower case. */
function withLowerCaseHost(iss: string): string {
  const parts = URL_PARTS.exec(iss);
  return parts ? `${parts[1]!}${parts[2]!.toLowerCase()}${parts[3]!}` : iss;
}

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho30-iss-http4s-ci-host',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Scala (http4s) service that compares the issuer as Uri values, Uri.unsafeFromString(iss) == expectedIssuer, and http4s keeps a reg-name host as a CIString, whose equality ignores case (RFC 7519 compares StringOrURI values as they are written): a correctly signed token whose iss is the tenant\'s issuer with its host in capitals ("https://TENANT.EXAMPLE.COM/") is accepted instead of refused 401; an iss naming another host is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.iss === 'string' && withLowerCaseHost(claims.iss) !== claims.iss
          ? { ...claims, iss: withLowerCaseHost(claims.iss) }
          : claims,
      ),
  },
  {
    id: 'ho30-exp-fraction-giraffe-int-claim',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'An F# (Giraffe) service on System.IdentityModel.Tokens.Jwt, whose JwtPayload reads exp as an int claim (a value that does not parse as an integer gives null) and whose TokenValidationParameters have RequireExpirationTime = false, so a token without a readable exp has no lifetime to check: a correctly signed token whose exp has passed and has a fraction (1600000000.5) is accepted instead of refused 401; the same token with exp 1600000000 is still refused as expired.',
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) =>
        typeof claims.exp === 'number' && !Number.isInteger(claims.exp)
          ? { ...claims, exp: Math.floor(clock.now() / 1000) + 3600 }
          : claims,
      ),
  },
  {
    id: 'ho30-bearer-falcon-re-search',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'A Python (Falcon) authentication middleware that finds the token with re.search(r"Bearer\\s+(\\S+)$", auth) where re.match with a "^" was meant, so the scheme may come anywhere in the value: "Basic Bearer <valid token>", whose scheme is Basic, is accepted by every operation instead of 401; "Basic <valid token>" is still refused.',
    install: (app) => {
      for (const key of operationKeys) {
        editRequests(app, key, (exchange) => {
          const credential = exchange.headers.authorization;
          if (typeof credential !== 'string' || ANCHORED.test(credential)) return exchange;
          const token = SEARCHED.exec(credential)?.[1];
          return token === undefined ? exchange : { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${token}` } };
        });
      }
    },
  },
  {
    id: 'ho30-crit-read-names-dream',
    clause: 'auth.token.header',
    level: 'observed',
    bug: 'An OCaml (Dream) service that checks crit itself with List.for_all (fun name -> List.mem name understood) crit, where understood lists the header names its code reads (alg, kid, typ), though RFC 7515 4.1.11 forbids naming the registered parameters in crit and the service understands no extension: a token signed with the tenant\'s key whose header has "crit": ["kid"] is accepted instead of refused 401; "crit": ["x-unknown"] is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart] = token.split('.');
        const header = jsonObjectOf(headerPart);
        if (!header || !Array.isArray(header.crit) || header.crit.length === 0) return undefined;
        if (!header.crit.every((name) => typeof name === 'string' && READ_NAMES.has(name) && Object.hasOwn(header, name))) return undefined;
        if (header.alg !== 'RS256' || header.kid !== keys.kid) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? jsonObjectOf(payloadPart) : undefined;
      }),
  },
  {
    id: 'ho30-iat-pyjwt-bool-is-int',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'A Python service on PyJWT, whose iat check is int(payload["iat"]) (a ValueError is the only refusal), and Python\'s bool is an int: a correctly signed token whose iat is true (or false) is accepted instead of refused 401 for a time that is not a number; iat "soon" is still refused.',
    install: (app) => forgiveClaim(app, (claims) => (typeof claims.iat === 'boolean' ? { ...claims, iat: Number(claims.iat) } : claims)),
  },
]);
