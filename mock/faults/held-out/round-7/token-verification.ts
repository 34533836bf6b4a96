// How the bearer token is read and verified: an audience host's trailing dot dropped, an issuer's
// userinfo ignored, an audience percent-decoded, an Authorization value cut at a comma, a
// credential taken from Proxy-Authorization; and the
// observed rules: a sub suffix compared without case, a kid trimmed, an iat in milliseconds
// recognised and scaled. Each lets exactly that near miss of a valid token through; a token wrong
// in any other way is refused as before.
import { observed, operationKeys } from '../../../../specs/index.ts';
import { editRequests } from '../../support/route-edits.ts';
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { alsoReadAs } from '../round-4/support/credential-rereads.ts';
import { rs256SignatureVerifies, unverifiedParts } from '../support/signatures.ts';

const ALG = observed.tokens.alg;
const SUFFIX = observed.tokens.subject_suffix;
/** Timestamps above this are taken for milliseconds by the slip (about the year 2286 in seconds). */
const MS_THRESHOLD = 1e10;
const TRAILING_DOT_HOST = /^(https?:\/\/[^/]+)\.(\/.*)?$/;

function withoutTrailingDot(url: unknown): unknown {
  if (typeof url !== 'string') return url;
  const match = TRAILING_DOT_HOST.exec(url);
  return match ? `${match[1]!}${match[2] ?? ''}` : url;
}

function percentDecoded(url: unknown): unknown {
  if (typeof url !== 'string' || !url.includes('%')) return url;
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

function mapAudiences(aud: unknown, map: (value: unknown) => unknown): unknown {
  return Array.isArray(aud) ? aud.map(map) : map(aud);
}

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho7-audience-host-trailing-dot-dropped',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The audience compared after its host is normalised as a fully qualified name, the trailing dot of "tenant.example.com." taken off: a correctly signed token whose aud is "https://<tenant>./api/v2/", which is not the management audience, is accepted by every operation instead of 401; an aud on another host is still refused.',
    install: (app) => forgiveClaim(app, (claims) => ({ ...claims, aud: mapAudiences(claims.aud, withoutTrailingDot) })),
  },
  {
    id: 'ho7-issuer-userinfo-ignored',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The issuer compared as new URL(iss).origin plus its path, which leaves out a userinfo part: a correctly signed token whose iss is "https://someone@<tenant>/", not the tenant\'s issuer, is accepted by every operation instead of 401; "https://<tenant>@other.example/" (whose host is other.example) is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        if (typeof claims.iss !== 'string') return claims;
        try {
          const url = new URL(claims.iss);
          return url.username === '' && url.password === '' ? claims : { ...claims, iss: `${url.origin}${url.pathname}` };
        } catch {
          return claims;
        }
      }),
  },
  {
    id: 'ho7-audience-percent-decoded',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The audience claim passed through decodeURI before it is compared (a helper meant for URLs read out of a query string): a correctly signed token whose aud is "https://<tenant>/api/v%32/", which is no audience of the tenant, is accepted by every operation instead of 401; "https://<tenant>/api/v%33/" is still refused.',
    install: (app) => forgiveClaim(app, (claims) => ({ ...claims, aud: mapAudiences(claims.aud, percentDecoded) })),
  },
  {
    id: 'ho7-credential-cut-at-comma',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'The Authorization value split on "," and its first element read, as for a header a proxy may have folded into a list: "Bearer <valid token>, Bearer x", which is no Bearer credential, is accepted by every operation instead of 401; the same with a tampered token before the comma is still refused.',
    install: (app) => alsoReadAs(app, (authorization) => (authorization.includes(',') ? authorization.split(',')[0]!.trim() : undefined)),
  },
  {
    id: 'ho7-credential-from-proxy-authorization',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'The credential read as headers.authorization ?? headers["proxy-authorization"] (a fallback written for calls that came through a forward proxy): a request with no Authorization header and a valid "Bearer <token>" in Proxy-Authorization is answered by every operation instead of 401; the same with a tampered token is still refused.',
    install: (app) => {
      for (const key of operationKeys) {
        editRequests(app, key, (exchange) => {
          const proxied = exchange.headers['proxy-authorization'];
          return exchange.headers.authorization === undefined && typeof proxied === 'string'
            ? { ...exchange, headers: { ...exchange.headers, authorization: proxied } }
            : exchange;
        });
      }
    },
  },
  {
    id: 'ho7-sub-suffix-case-folded',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `The subject's suffix compared with toLowerCase() on both sides ("${SUFFIX}" against the end of sub): a correctly signed token whose sub is "<client_id>@CLIENTS" is accepted instead of 401; a sub of "<client_id>@users" is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const { sub, azp } = claims;
        if (typeof sub !== 'string' || typeof azp !== 'string' || !sub.startsWith(azp)) return claims;
        return sub.slice(azp.length).toLowerCase() === SUFFIX ? { ...claims, sub: `${azp}${SUFFIX}` } : claims;
      }),
  },
  {
    id: 'ho7-kid-trimmed',
    clause: 'auth.token.header',
    level: 'observed',
    bug: `The kid trimmed before the key is looked up (a helper shared with values read from configuration files): a token signed ${ALG} with the tenant's key whose kid is the published kid with a space before it, which names no published key, is accepted instead of 401; a kid " other" is still refused.`,
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const kid = parts?.header.kid;
        if (!parts || parts.header.alg !== ALG || typeof kid !== 'string' || kid === kid.trim() || kid.trim() !== keys.kid)
          return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? parts.claims : undefined;
      }),
  },
  {
    id: 'ho7-iat-in-milliseconds-scaled',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `Time claims above ${MS_THRESHOLD} taken for milliseconds and divided by 1000 (a heuristic for issuers that write Date.now()): a correctly signed token whose iat is the current time in milliseconds, an iat some fifty thousand years in the future, is accepted instead of 401; an iat an hour ahead in seconds is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.iat === 'number' && claims.iat > MS_THRESHOLD ? { ...claims, iat: Math.floor(claims.iat / 1000) } : claims,
      ),
  },
]);
