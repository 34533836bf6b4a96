// Token verification: a Scala verifier given jwt-scala's leeway of a minute, an issuer compared by a
// Crystal service with its trailing slash chopped, a signature decoded by a Dart service that
// accepts base64 padding; and the observed rules: the alg compared by a Julia verifier in lower
// case, the kid trimmed by a Deno middleware. Each changes the verdict on its near miss; other
// tokens are judged as before.
import { observed, operationKeys } from '../../../../specs/index.ts';
import { jsonObjectOf } from '../../../auth/bearer.ts';
import { editRequests } from '../../support/route-edits.ts';
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies } from '../support/signatures.ts';

const ALG = observed.tokens.alg;
/** jwt-scala's JwtOptions(leeway = 60), in seconds. */
const LEEWAY_S = 60;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho26-exp-jwt-scala-leeway',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: `A Play (Scala) action that decodes tokens with jwt-scala's JwtJson.decode(token, key, Seq(JwtAlgorithm.RS256), JwtOptions(leeway = ${LEEWAY_S})), the leeway copied from the mobile backend where device clocks drift: a token signed with the tenant key that expired 30 seconds ago is accepted instead of 401; one that expired two minutes ago is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const now = Math.floor(clock.now() / 1000);
        if (typeof claims.exp !== 'number' || claims.exp > now || claims.exp < now - LEEWAY_S) return claims;
        return { ...claims, exp: now + LEEWAY_S };
      }),
  },
  {
    id: 'ho26-iss-crystal-rchop-slash',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Crystal (Kemal) middleware that compares the issuer as payload["iss"].as_s.rchop("/") == issuer.rchop("/"), written so that a configured issuer with or without its slash would do: a token signed with the tenant key whose iss is the tenant\'s issuer without its trailing slash is accepted instead of 401; an iss of another host is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        if (typeof claims.iss !== 'string' || claims.iss.endsWith('/') || tenant.identityForIssuer(claims.iss)) return claims;
        return tenant.identityForIssuer(`${claims.iss}/`) ? { ...claims, iss: `${claims.iss}/` } : claims;
      }),
  },
  {
    id: 'ho26-signature-dart-base64-padding',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: 'A Dart (shelf) service that decodes the signature with base64Url.decode(base64Url.normalize(part)), normalize accepting and completing "=" padding that JWS (RFC 7515 section 2) forbids: a valid token whose signature part has "==" appended is accepted instead of 401; a token with a changed signature, padded or not, is still refused.',
    install: (app) => {
      for (const key of operationKeys) {
        editRequests(app, key, (exchange) => {
          const credential = exchange.headers.authorization;
          const parsed = typeof credential === 'string' ? /^(Bearer [^.\s]+\.[^.\s]+\.[^.\s=]*)=+$/.exec(credential) : null;
          return parsed ? { ...exchange, headers: { ...exchange.headers, authorization: parsed[1]! } } : exchange;
        });
      }
    },
  },
  {
    id: 'ho26-alg-julia-lowercase',
    clause: 'auth.token.header',
    level: 'observed',
    bug: `A Julia (Genie) verifier that picks the algorithm with lowercase(header["alg"]) == "${ALG.toLowerCase()}" (its table of algorithms keyed in lower case): a token signed ${ALG} with the tenant key whose header says alg "${ALG.toLowerCase()}" is accepted instead of 401; alg "HS256" is still refused.`,
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart] = token.split('.');
        const header = jsonObjectOf(headerPart);
        if (!header || typeof header.alg !== 'string' || header.alg === ALG || header.alg.toLowerCase() !== ALG.toLowerCase())
          return undefined;
        if (header.kid !== keys.kid) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? jsonObjectOf(payloadPart) : undefined;
      }),
  },
  {
    id: 'ho26-kid-deno-trimmed',
    clause: 'auth.token.header',
    level: 'observed',
    bug: "A Deno (Oak) middleware that looks the key up with jwks.find((k) => k.kid === header.kid?.trim()), the trim added for a partner whose tokens had a kid ending in a newline: a token signed with the tenant key whose kid is the key's kid with a space after it is accepted instead of 401; a kid with a character changed is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart] = token.split('.');
        const header = jsonObjectOf(headerPart);
        if (!header || header.alg !== ALG || typeof header.kid !== 'string' || header.kid === keys.kid || header.kid.trim() !== keys.kid)
          return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? jsonObjectOf(payloadPart) : undefined;
      }),
  },
]);
