// Token verification: a Kong gateway's jwt plugin finding the token with its unanchored pattern
// \s*[Bb]earer\s+(.+); a Node service comparing exp with Day.js at the granularity of a day; a
// Java service decoding the signature with Base64.getMimeDecoder(), which skips characters outside
// the alphabet; and the observed rules: an Authlib resource server whose numeric check takes
// Python's True for an int, and a jjwt (Jackson) verifier that skips a byte order mark before the
// JOSE header's JSON. Each changes the verdict on its near miss; other tokens are judged as before.
import { operationKeys } from '../../../../specs/index.ts';
import { jsonObjectOf } from '../../../auth/bearer.ts';
import { capture } from '../../support/captured.ts';
import { editRequests } from '../../support/route-edits.ts';
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies } from '../support/signatures.ts';

/** Kong's jwt plugin: re_gmatch(header, [[\s*[Bb]earer\s+(.+)]]), which finds the word anywhere. */
const KONG_PATTERN = /\s*[Bb]earer\s+(.+)/;
/** The scheme as the mock reads it. */
const BEARER_FIRST = /^Bearer +/i;
const DAY_MS = 86_400_000;
const utcDay = (ms: number) => Math.floor(ms / DAY_MS);
/** The base64url alphabet; Java's MIME decoder skips whatever is not in its alphabet. */
const OUTSIDE_ALPHABET = /[^A-Za-z0-9_-]/g;
const BOM = '\ufeff';

/** The JOSE header's text, decoded, when it is valid base64url. */
function headerText(part: string | undefined): string | undefined {
  if (part === undefined || !/^[A-Za-z0-9_-]+$/.test(part)) return undefined;
  return Buffer.from(part, 'base64url').toString('utf8');
}

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho31-bearer-kong-unanchored-pattern',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'A Kong gateway in front of every operation whose jwt plugin takes the token from Authorization with its unanchored pattern \\s*[Bb]earer\\s+(.+) (re_gmatch, not anchored at the start) and forwards it as Bearer: "OAuthBearer <valid token>", whose scheme is not Bearer, is accepted instead of 401; "OAUTHBEARER <valid token>" (no match for [Bb]earer) is still refused.',
    install: (app) => {
      for (const key of operationKeys) {
        editRequests(app, key, (exchange) => {
          const credential = exchange.headers.authorization;
          if (typeof credential !== 'string' || BEARER_FIRST.test(credential)) return exchange;
          const token = KONG_PATTERN.exec(credential)?.[1];
          return token === undefined ? exchange : { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${token}` } };
        });
      }
    },
  },
  {
    id: 'ho31-exp-dayjs-day-granularity',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: "A Node service that checks expiry with Day.js, if (dayjs.utc(exp * 1000).isBefore(dayjs.utc(), 'day')) throw ..., the unit argument (meant for a report's dates) comparing whole days: a correctly signed token that expired two hours ago, earlier the same UTC day, is accepted instead of 401; a token that expired the day before is still refused.",
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const now = clock.now();
        if (typeof claims.exp !== 'number' || claims.exp * 1000 > now || utcDay(claims.exp * 1000) !== utcDay(now)) return claims;
        return { ...claims, exp: Math.floor(now / 1000) + 3600 };
      }),
  },
  {
    id: 'ho31-signature-java-mime-decoder',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: "A Java service that turns the signature into bytes with Base64.getMimeDecoder().decode(sig.replace('-', '+').replace('_', '/')) (the decoder of its PEM code), and the MIME decoder skips every character outside the alphabet: a valid token whose signature has a \"~\" put in its middle is accepted instead of 401; a signature with one character changed is still refused.",
    install: (app) => {
      const keys = capture(app, 'keys');
      for (const key of operationKeys) {
        editRequests(app, key, (exchange) => {
          const credential = exchange.headers.authorization;
          const token = typeof credential === 'string' ? /^Bearer +(\S+)$/i.exec(credential)?.[1] : undefined;
          const [headerPart, payloadPart, signature = '', ...rest] = token?.split('.') ?? [];
          if (rest.length > 0 || !/[^A-Za-z0-9_-]/.test(signature)) return exchange;
          const header = jsonObjectOf(headerPart);
          if (!header || header.alg !== 'RS256' || header.kid !== keys().kid) return exchange;
          const cleaned = `${headerPart}.${payloadPart}.${signature.replace(OUTSIDE_ALPHABET, '')}`;
          if (!rs256SignatureVerifies(cleaned, keys().publicKey)) return exchange;
          return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${cleaned}` } };
        });
      }
    },
  },
  {
    id: 'ho31-iat-authlib-bool-is-int',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'A Python resource server on Authlib, whose JWTClaims check of a time claim is isinstance(value, (int, float)), and Python\'s bool is a subclass of int (True == 1, the first second of 1970): a correctly signed token whose iat (or nbf) is true is accepted instead of 401; iat "1700000000" (a string) is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        let repaired = claims;
        for (const name of ['iat', 'nbf'] as const) if (repaired[name] === true) repaired = { ...repaired, [name]: 1 };
        return repaired;
      }),
  },
  {
    id: 'ho31-header-jjwt-jackson-bom',
    clause: 'auth.token.header',
    level: 'observed',
    bug: 'A Spring service verifying with jjwt and its Jackson deserializer, which reads the JOSE header from bytes and, like every Jackson byte parser, skips a UTF-8 byte order mark before the JSON: a token signed with the tenant\'s key whose header JSON begins with a BOM is accepted instead of 401; a header beginning with "x" is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const [headerPart, payloadPart] = token.split('.');
        const text = headerText(headerPart);
        if (text === undefined || !text.startsWith(BOM)) return undefined;
        let header: unknown;
        try {
          header = JSON.parse(text.slice(BOM.length));
        } catch {
          return undefined;
        }
        if (header === null || typeof header !== 'object') return undefined;
        const { alg, kid } = header as Record<string, unknown>;
        if (alg !== 'RS256' || kid !== keys.kid) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? jsonObjectOf(payloadPart) : undefined;
      }),
  },
]);
