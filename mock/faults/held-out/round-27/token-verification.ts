// Token verification: a token rebuilt by a GraphQL-to-REST bridge that re-serialises its JOSE header
// before the verifier sees it, an issuer compared by a Fastly Compute (Rust url crate) service after
// clearing its query, an issuer upgraded to https by an AWS Lambda authorizer; and the observed
// rules: the kid compared after Elixir's NFKC normalisation, the alg read as a NUL-terminated string
// by a Zig verifier. Each changes the verdict on its near miss; other tokens are judged as before.
import { observed, operationKeys } from '../../../../specs/index.ts';
import { jsonObjectOf } from '../../../auth/bearer.ts';
import { editRequests } from '../../support/route-edits.ts';
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies } from '../support/signatures.ts';

const ALG = observed.tokens.alg;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho27-header-graphql-bridge-reserialised',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: 'A GraphQL-to-REST bridge that takes the token apart into a {header, payload, signature} input object and hands the verifier base64url(JSON.stringify(header)) again: a token whose header segment was re-encoded with spaces ({"alg": "RS256", ...}, so the signature no longer covers it) is accepted instead of refused 401; a header re-encoded with another kid is still refused.',
    install: (app) => {
      for (const key of operationKeys) {
        editRequests(app, key, (exchange) => {
          const credential = exchange.headers.authorization;
          const parsed = typeof credential === 'string' ? /^Bearer ([^.\s]+)(\.[^.\s]+\.[^.\s]+)$/.exec(credential) : null;
          const header = parsed ? jsonObjectOf(parsed[1]) : undefined;
          if (!parsed || !header) return exchange;
          const compact = Buffer.from(JSON.stringify(header)).toString('base64url');
          return compact === parsed[1]
            ? exchange
            : { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${compact}${parsed[2]!}` } };
        });
      }
    },
  },
  {
    id: 'ho27-iss-fastly-url-query-cleared',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Fastly Compute service in Rust that compares issuers as url::Url values after set_query(None) and set_fragment(None) (copied from its redirect-URI check): iss "<the tenant\'s issuer>?" is accepted instead of refused 401; iss "https://other.example/?" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        if (typeof claims.iss !== 'string' || !/[?#]/.test(claims.iss)) return claims;
        const bare = claims.iss.replace(/[?#].*$/, '');
        return tenant.identityForIssuer(bare) ? { ...claims, iss: bare } : claims;
      }),
  },
  {
    id: 'ho27-iss-lambda-authorizer-https-forced',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'An AWS Lambda authorizer that normalises the issuer by forcing the https scheme before comparing (written for a tenant reached through CloudFront): iss "http://<the tenant\'s host>/" is accepted instead of refused 401; iss "http://other.example/" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        if (typeof claims.iss !== 'string' || !claims.iss.startsWith('http://')) return claims;
        const secure = `https://${claims.iss.slice('http://'.length)}`;
        return tenant.identityForIssuer(secure) ? { ...claims, iss: secure } : claims;
      }),
  },
  {
    id: 'ho27-kid-elixir-nfkc',
    clause: 'auth.token.header',
    level: 'observed',
    bug: "An Elixir (Plug) verifier that runs every header string through :unicode.characters_to_nfkc_binary before the key lookup: a kid with one letter written in its fullwidth form (Ｋ for K) is taken for the signing key's kid instead of refused 401; a kid with a letter changed is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart] = token.split('.');
        const header = jsonObjectOf(headerPart);
        if (!header || header.alg !== ALG || typeof header.kid !== 'string' || header.kid === keys.kid) return undefined;
        if (header.kid.normalize('NFKC') !== keys.kid) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? jsonObjectOf(payloadPart) : undefined;
      }),
  },
  {
    id: 'ho27-alg-zig-nul-terminated',
    clause: 'auth.token.header',
    level: 'observed',
    bug: 'A Zig verifier that copies the header\'s alg into a sentinel-terminated buffer and compares it with std.mem.orderZ, which stops at the first NUL: alg "RS256\\u0000x" is taken for RS256 instead of refused 401; alg "RS384" is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart] = token.split('.');
        const header = jsonObjectOf(headerPart);
        if (!header || typeof header.alg !== 'string' || !header.alg.includes('\u0000')) return undefined;
        if (header.alg.slice(0, header.alg.indexOf('\u0000')) !== ALG || header.kid !== keys.kid) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? jsonObjectOf(payloadPart) : undefined;
      }),
  },
]);
