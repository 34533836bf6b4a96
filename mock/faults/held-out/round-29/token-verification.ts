// Token verification: the draft-10 "OAuth" scheme still taken by a Ruby (Grape) API behind
// rack-oauth2's legacy token extractor, a CakePHP service taking openssl_verify's -1 (an error, for a
// signature of the wrong length) for a pass, a Go (Fiber) middleware comparing the issuer after
// url.Parse(...).String(), which drops an empty fragment; and the observed rules: a Swift (Vapor)
// service's own crit check, a loop that an empty list passes, and a Java (Javalin) service that
// URL-decodes the subject before comparing it. Each changes the verdict on its near miss; other
// tokens are judged as before.
import { operationKeys } from '../../../../specs/index.ts';
import { jsonObjectOf } from '../../../auth/bearer.ts';
import { editRequests } from '../../support/route-edits.ts';
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies } from '../support/signatures.ts';

/** The scheme of draft-ietf-oauth-v2-10 (section 5.1.1), before RFC 6750 named it Bearer. */
const DRAFT_SCHEME = /^OAuth +(\S+)$/;
/** The length in bytes of an RS256 signature made with the tenant's 2048-bit key. */
const SIGNATURE_BYTES = 256;

/** What Go's url.Parse(iss).String() makes of an issuer that ends with an empty fragment. */
const withoutEmptyFragment = (iss: string) => (iss.endsWith('#') && !iss.slice(0, -1).includes('#') ? iss.slice(0, -1) : iss);

const safelyDecoded = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
};

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho29-bearer-oauth-draft-scheme',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'A Ruby (Grape) API whose token extractor came from rack-oauth2\'s legacy support, which still reads the scheme of draft-ietf-oauth-v2-10 ("Authorization: OAuth <token>") beside Bearer: "OAuth <valid token>", which is no Bearer credential, is accepted by every operation instead of 401; "MAC <valid token>" is still refused.',
    install: (app) => {
      for (const key of operationKeys) {
        editRequests(app, key, (exchange) => {
          const credential = exchange.headers.authorization;
          const token = typeof credential === 'string' ? DRAFT_SCHEME.exec(credential)?.[1] : undefined;
          return token === undefined ? exchange : { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${token}` } };
        });
      }
    },
  },
  {
    id: 'ho29-signature-php-openssl-verify-minus-one',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: `A CakePHP authenticator that checks the signature with if (openssl_verify($input, $signature, $key, OPENSSL_ALGO_SHA256)) { ... }, and openssl_verify answers -1 (an error, which PHP takes for true) where OpenSSL cannot even try the signature, as for one that is not the key's ${SIGNATURE_BYTES} bytes long: a token of the tenant's header whose signature is cut short (any claims) is accepted instead of refused 401; a token whose signature has the right length but one character changed is still refused.`,
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart, signature = ''] = token.split('.');
        const header = jsonObjectOf(headerPart);
        if (!header || header.alg !== 'RS256' || header.kid !== keys.kid || signature === '') return undefined;
        const bytes = Buffer.from(signature, 'base64url').length;
        if (bytes === SIGNATURE_BYTES || rs256SignatureVerifies(token, keys.publicKey)) return undefined;
        return jsonObjectOf(payloadPart);
      }),
  },
  {
    id: 'ho29-iss-go-url-empty-fragment',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A Go (Fiber) middleware that compares the issuer after normalising it with u, _ := url.Parse(iss); u.String(), and a URL whose fragment is empty is written back without its "#": a correctly signed token whose iss is "https://<tenant host>/#" is accepted instead of refused 401; iss "https://<tenant host>/#x" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.iss === 'string' && withoutEmptyFragment(claims.iss) !== claims.iss
          ? { ...claims, iss: withoutEmptyFragment(claims.iss) }
          : claims,
      ),
  },
  {
    id: 'ho29-crit-empty-list-vapor-loop',
    clause: 'auth.token.header',
    level: 'observed',
    bug: 'A Swift (Vapor) service that checks crit itself, for name in header.crit ?? [] where !understood.contains(name) { throw }, and never that the list is not empty (RFC 7515 4.1.11 forbids an empty one): a token signed with the tenant\'s key whose header has "crit": [] is accepted instead of refused 401; "crit": ["x-unknown"] is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart] = token.split('.');
        const header = jsonObjectOf(headerPart);
        if (!header || !Array.isArray(header.crit) || header.crit.length !== 0 || header.alg !== 'RS256' || header.kid !== keys.kid)
          return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? jsonObjectOf(payloadPart) : undefined;
      }),
  },
  {
    id: 'ho29-sub-javalin-url-decoded',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'A Java (Javalin) service that reads the caller with URLDecoder.decode(jwt.getSubject(), UTF_8) before checking it against "<azp>@clients" (its subjects are also used in URL paths): a correctly signed token whose sub is "<azp>%40clients" is accepted instead of refused 401; "<azp>%41clients" (which decodes to "Aclients") is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        if (typeof claims.sub !== 'string' || !claims.sub.includes('%')) return claims;
        const decoded = safelyDecoded(claims.sub);
        return decoded === undefined ? claims : { ...claims, sub: decoded };
      }),
  },
]);
