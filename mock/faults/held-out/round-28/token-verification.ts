// Token verification: claims decoded by a Go (chi) service with encoding/json, whose field matching
// ignores case (the last of "exp" and "EXP" wins), verdicts kept in memcached under the token cut to
// the protocol's 250-byte key limit by a PHP (Slim) service, the credential split by a Python (ASGI)
// middleware with str.split(), which also splits on a no-break space; and the observed rules: the
// XML-DSig name of RS256 taken by a .NET verifier's algorithm table, exp compared in Erlang's term
// order by an Elixir (Joken) validator, where any string is greater than any number. Each changes the
// verdict on its near miss; other tokens are judged as before.
import { operationKeys } from '../../../../specs/index.ts';
import { bearerToken, jsonObjectOf } from '../../../auth/bearer.ts';
import type { Verification } from '../../../auth/verifier.ts';
import { editRequests } from '../../support/route-edits.ts';
import { alsoAccept, editVerifier, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies } from '../support/signatures.ts';

/** The claims a Go Claims struct declares, each matched by encoding/json without regard to case. */
const STRUCT_CLAIMS = ['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'azp', 'scope', 'gty'];
/** The name .NET's SecurityAlgorithms gives RSASSA-PKCS1-v1_5 with SHA-256 (RsaSha256Signature). */
const XMLDSIG_RS256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
/** memcached's longest key (its text protocol's limit), and the PHP service's key prefix. */
const MEMCACHED_KEY_LIMIT = 250;
const KEY_PREFIX = 'jwt:';
/** A whole year past now: what an Erlang comparison "Exp > Now" makes of a string exp. */
const YEAR_SECONDS = 365 * 24 * 3600;

/** Each struct claim read as encoding/json reads it: the last member whose name matches without case. */
function goDecoded(claims: Record<string, unknown>): Record<string, unknown> {
  const decoded: Record<string, unknown> = { ...claims };
  for (const claim of STRUCT_CLAIMS) {
    const names = Object.keys(claims).filter((name) => name.toLowerCase() === claim);
    const last = names[names.length - 1];
    if (last !== undefined && last !== claim) decoded[claim] = claims[last];
  }
  return decoded;
}

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho28-exp-go-json-case-insensitive',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Go (chi) service decoding the claims with encoding/json into a struct tagged `json:"exp"`, and encoding/json matches member names without regard to case, the last match winning: a correctly signed token whose "exp" has passed but which also carries "EXP" an hour ahead is accepted instead of refused 401; the same token without "EXP" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        Object.keys(claims).some((name) => name !== name.toLowerCase() && STRUCT_CLAIMS.includes(name.toLowerCase()))
          ? goDecoded(claims)
          : claims,
      ),
  },
  {
    id: 'ho28-verified-cache-memcached-key-cut',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: `A PHP (Slim) service that remembers verified tokens in memcached under substr("${KEY_PREFIX}" . $token, 0, ${MEMCACHED_KEY_LIMIT}), the protocol's longest key, and decodes the claims of a token whose key it finds without checking its signature: once a valid token has been used, a token with the same first ${MEMCACHED_KEY_LIMIT - KEY_PREFIX.length} characters (the header, the issuer and the subject) and any other claims or signature, say the same token with its signature changed, is accepted instead of refused 401; a token with a changed signature whose start was never verified is still refused.`,
    install: (app) =>
      editVerifier(app, (verifier) => {
        const remembered = new Set<string>();
        const keyOf = (token: string) => `${KEY_PREFIX}${token}`.slice(0, MEMCACHED_KEY_LIMIT);
        return {
          ...verifier,
          async verify(authorization, host): Promise<Verification> {
            const verification = await verifier.verify(authorization, host);
            const token = bearerToken(authorization);
            if (token === undefined) return verification;
            if (verification.ok) {
              remembered.add(keyOf(token));
              return verification;
            }
            if (!remembered.has(keyOf(token))) return verification;
            const claims = jsonObjectOf(token.split('.')[1]);
            if (!claims) return verification;
            const again = verifier.checkClaims(claims, host);
            return again.ok ? again : verification;
          },
        };
      }),
  },
  {
    id: 'ho28-bearer-nbsp-python-split',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'A Python (ASGI) middleware that reads the credential with scheme, token = authorization.split() over the header decoded as latin-1, and str.split() with no argument splits on any Unicode white space, a no-break space (0xA0) included: "Bearer\\u00a0<valid token>", which is no Bearer credential (RFC 6750 2.1 wants a space), is accepted by every operation instead of 401; "Basic\\u00a0<valid token>" is still refused.',
    install: (app) => {
      for (const key of operationKeys) {
        editRequests(app, key, (exchange) => {
          const credential = exchange.headers.authorization;
          const parts = typeof credential === 'string' ? credential.split(/[\s\u0085\u00a0]+/).filter((p) => p !== '') : [];
          if (typeof credential !== 'string' || !credential.includes('\u00a0') || parts.length !== 2 || parts[0] !== 'Bearer')
            return exchange;
          return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${parts[1]!}` } };
        });
      }
    },
  },
  {
    id: 'ho28-alg-dotnet-xmldsig-uri',
    clause: 'auth.token.header',
    level: 'observed',
    bug: `A .NET verifier whose algorithm check goes through Microsoft.IdentityModel's table, where RS256 has a second name, the XML-DSig URI (SecurityAlgorithms.RsaSha256Signature): a token signed RS256 with the tenant's key whose alg is "${XMLDSIG_RS256}" is accepted instead of refused 401; alg "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384" is still refused.`,
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart] = token.split('.');
        const header = jsonObjectOf(headerPart);
        if (!header || header.alg !== XMLDSIG_RS256 || header.kid !== keys.kid) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? jsonObjectOf(payloadPart) : undefined;
      }),
  },
  {
    id: 'ho28-exp-elixir-term-order',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'An Elixir (Joken) token config whose exp validator is fn exp -> exp > now end, and Erlang orders every binary after every number: a correctly signed token whose exp is a string, even a past time such as "1600000000", is accepted instead of refused 401; the same exp as the number 1600000000 is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) =>
        typeof claims.exp === 'string' ? { ...claims, exp: Math.floor(clock.now() / 1000) + YEAR_SECONDS } : claims,
      ),
  },
]);
