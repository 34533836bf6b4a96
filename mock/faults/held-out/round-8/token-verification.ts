// How the bearer token is read and verified: an issuer mapped by the URL parser's IDNA rules,
// base64 padding taken off the token's segments, a "Bearer " prefix stripped as often as it
// repeats, the tenant's audience turned into a pattern with its dots unescaped, and the signature
// skipped for tokens of a loopback issuer; and the observed rules: a kid percent-decoded, sub and
// azp each checked to name a client but not the same one. Each lets exactly that near miss of a
// valid token through; a token wrong in any other way is refused as before.
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { alsoReadAs, bearerCredential } from '../round-4/support/credential-rereads.ts';
import { rs256SignatureVerifies, unverifiedParts } from '../support/signatures.ts';

const ALG = observed.tokens.alg;
const SUFFIX = observed.tokens.subject_suffix;
/** An issuer on a loopback name and a port: the mock as a developer runs it. */
const LOOPBACK_ISSUER = /^https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+\/$/;
const REPEATED_BEARER = /^(?:Bearer\s+){2,}/i;

function mapAudiences(aud: unknown, map: (value: string) => string): unknown {
  const one = (value: unknown) => (typeof value === 'string' ? map(value) : value);
  return Array.isArray(aud) ? aud.map(one) : one(aud);
}

function decodedOrUndefined(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho8-issuer-host-idna-mapped',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The issuer compared as new URL(iss).href, and the WHATWG parser maps a host by the IDNA rules (an ideographic full stop "。" becomes "."): a correctly signed token whose iss is "https://tenant。example。com/", which is not the tenant\'s issuer, is accepted by every operation instead of 401; "https://tenant。example。org/" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        if (typeof claims.iss !== 'string' || /^[\x20-\x7e]*$/.test(claims.iss)) return claims;
        try {
          return { ...claims, iss: new URL(claims.iss).href };
        } catch {
          return claims;
        }
      }),
  },
  {
    id: 'ho8-padded-segments-accepted',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The token split into its three segments and each decoded with Buffer.from(segment, "base64url"), which skips "=" padding, where a compact JWS is base64url without padding: "Bearer <valid token>==" (its signature padded) is accepted by every operation instead of 401; the same with a tampered signature is still refused.',
    install: (app) =>
      alsoReadAs(app, (authorization) => {
        const credential = bearerCredential(authorization);
        if (credential === undefined || !credential.includes('=')) return undefined;
        return `Bearer ${credential
          .split('.')
          .map((segment) => segment.replace(/=+$/, ''))
          .join('.')}`;
      }),
  },
  {
    id: 'ho8-bearer-prefix-stripped-repeatedly',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'The credential read with authorization.replace(/^(Bearer\\s+)+/i, "") (written for clients that add the scheme twice): "Bearer Bearer <valid token>", which is no Bearer credential, is accepted by every operation instead of 401; "Bearer Bearer <tampered token>" is still refused.',
    install: (app) =>
      alsoReadAs(app, (authorization) =>
        REPEATED_BEARER.test(authorization) ? authorization.replace(REPEATED_BEARER, 'Bearer ') : undefined,
      ),
  },
  {
    id: 'ho8-audience-pattern-dots-unescaped',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The audience checked with new RegExp(`^${audience}$`) built from the tenant\'s audience without escaping, so each "." of its host matches any character: a correctly signed token whose aud is "https://tenant-example.com/api/v2/" is accepted by every operation instead of 401; "https://tenant.example.org/api/v2/" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        const pattern = new RegExp(`^${tenant.audience}$`);
        return {
          ...claims,
          aud: mapAudiences(claims.aud, (aud) => (aud !== tenant.audience && pattern.test(aud) ? tenant.audience : aud)),
        };
      }),
  },
  {
    id: 'ho8-loopback-issuer-signature-skipped',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: 'A development shortcut left on: tokens whose issuer is the service on a loopback address (http://127.0.0.1:<port>/) are trusted without their signature being checked: such a token with a tampered signature, or unsigned, is accepted by every operation instead of 401; a tampered token of the canonical issuer is still refused.',
    install: (app) =>
      alsoAccept(app, async (token) => {
        const parts = unverifiedParts(token);
        return parts && typeof parts.claims.iss === 'string' && LOOPBACK_ISSUER.test(parts.claims.iss) ? parts.claims : undefined;
      }),
  },
  {
    id: 'ho8-kid-percent-decoded',
    clause: 'auth.token.header',
    level: 'observed',
    bug: `The kid put into the key service's URL (/keys/<kid>) without being encoded, and the key service percent-decodes it: a token signed ${ALG} with the tenant's key whose kid is the published kid with its first character written %XX, which names no published key, is accepted instead of 401; a kid "%78" followed by the rest of the published kid is still refused.`,
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const kid = parts?.header.kid;
        if (!parts || parts.header.alg !== ALG || typeof kid !== 'string' || !kid.includes('%') || decodedOrUndefined(kid) !== keys.kid)
          return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? parts.claims : undefined;
      }),
  },
  {
    id: 'ho8-sub-and-azp-checked-apart',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `sub and azp each checked to name a client of the tenant (sub as "<client_id>${SUFFIX}"), but not checked to name the same one: a correctly signed token whose sub names another existing client is accepted, as azp's client, instead of 401; a sub naming no client ("nobody${SUFFIX}") is still refused.`,
    install: (app) => {
      const store = capture(app, 'store');
      forgiveClaim(app, (claims) => {
        const { sub, azp } = claims;
        if (typeof sub !== 'string' || typeof azp !== 'string' || !sub.endsWith(SUFFIX)) return claims;
        const named = sub.slice(0, -SUFFIX.length);
        return named !== azp && store().client(named) && store().client(azp) ? { ...claims, sub: `${azp}${SUFFIX}` } : claims;
      });
    },
  },
]);
