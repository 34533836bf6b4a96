// How the bearer token is read and verified: claims replicated into the JOSE header trusted over
// the payload, exp compared as text, a not-before claim read by the first match of a pattern over
// the payload's text, the signature checked over the JSON as re-serialised, a credential that holds
// the token endpoint's whole answer unwrapped, and a kid matched against the keys' x5t as well.
// Each lets exactly that near miss of a valid token through; a token wrong in any other way is
// refused as before.
import { observed } from '../../../../specs/index.ts';
import { jsonObjectOf } from '../../../auth/bearer.ts';
import { editRequests } from '../../support/route-edits.ts';
import { alsoAccept, forgiveClaim, signedPayload } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies, unverifiedParts } from '../support/signatures.ts';
import { segmentOf, segmentsOf, segmentText } from './support/token-text.ts';

const ALG = observed.tokens.alg;
const CLOCK_SKEW_MS = observed.tokens.clock_skew_seconds.value * 1000;
/** The first "nbf" member of a JSON text and its number, as a fast-path pattern finds it. */
const NBF_MEMBER = /"nbf"\s*:\s*(-?\d+(?:\.\d+)?)/g;
/** A credential that is a JSON object: the token endpoint's answer pasted whole. */
const JSON_CREDENTIAL = /^Bearer +(\{.*\})$/i;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho5-exp-replicated-in-header-trusted',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A verifier written for tokens that replicate claims in the JOSE header (RFC 7519 section 5.3) reads "header.exp ?? payload.exp": a correctly signed token whose payload exp has passed and whose header carries an exp still ahead is accepted by every operation instead of 401; the same expired token without exp in its header is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const exp = unverifiedParts(token)?.header.exp;
        if (typeof exp !== 'number') return undefined;
        const claims = await signedPayload(token, keys);
        return claims && { ...claims, exp };
      }),
  },
  {
    id: 'ho5-exp-compared-as-text',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'exp compared with the current time as text, the claims having come through a gateway that forwards them as header values ("999999999" > "1735689600" is true): a correctly signed token that expired before September 2001, its exp of nine digits, is accepted by every operation instead of 401; a token that expired an hour ago (ten digits) is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const { exp } = claims;
        const nowSeconds = Math.floor(clock.now() / 1000);
        if (typeof exp !== 'number' || exp * 1000 + CLOCK_SKEW_MS > clock.now()) return claims;
        return String(exp) > String(nowSeconds) ? { ...claims, exp: nowSeconds + 60 } : claims;
      }),
  },
  {
    id: 'ho5-signature-over-reserialised-json',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: 'The signature checked over the header and payload as the verifier re-serialises them (base64url(JSON.stringify(JSON.parse(segment)))) instead of over the segments as sent: a valid token whose payload segment is re-encoded with white space between its members, which its signature does not sign, is accepted by every operation instead of 401; a payload whose claims were changed is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const segments = segmentsOf(token);
        const header = segments && jsonObjectOf(segments.header);
        const payload = segments && jsonObjectOf(segments.payload);
        if (!segments || !header || !payload || header.alg !== ALG || header.kid !== keys.kid) return undefined;
        const canonical = `${segmentOf(header)}.${segmentOf(payload)}`;
        if (canonical === `${segments.header}.${segments.payload}`) return undefined;
        return rs256SignatureVerifies(`${canonical}.${segments.signature}`, keys.publicKey) ? payload : undefined;
      }),
  },
  {
    id: 'ho5-vault-token-answer-unwrapped',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'The vault read\'s credential parser falls back, when the credential is not a JWS, to JSON.parse(credential).access_token, for a client that stored the token endpoint\'s whole answer: "Bearer {"access_token": "<token>", ...}", which is no bearer credential, is accepted there instead of 401; such an answer holding anything but a valid token is still refused, and the other operations refuse it.',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const text = JSON_CREDENTIAL.exec(exchange.headers.authorization ?? '')?.[1];
        let answer: unknown;
        try {
          answer = text === undefined ? undefined : JSON.parse(text);
        } catch {
          return exchange;
        }
        const token = (answer as { access_token?: unknown } | undefined)?.access_token;
        return typeof token === 'string' ? { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${token}` } } : exchange;
      }),
  },
  {
    id: 'ho5-nbf-read-by-first-match',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'nbf read on a fast path with the pattern /"nbf"\\s*:\\s*(\\d+)/ over the payload\'s text, which finds the first of two nbf members where JSON.parse (and RFC 7519 section 4) takes the last: a correctly signed token whose payload says nbf twice, a past time first and an hour ahead last, is accepted by every operation instead of 401; a token with the one nbf an hour ahead is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const segments = segmentsOf(token);
        const found = segments ? [...segmentText(segments.payload).matchAll(NBF_MEMBER)] : [];
        if (found.length < 2) return undefined;
        const claims = await signedPayload(token, keys);
        return claims && { ...claims, nbf: Number(found[0]![1]) };
      }),
  },
  {
    id: 'ho5-kid-matched-against-x5t',
    clause: 'auth.token.header',
    level: 'observed',
    bug: "Keys found with keys.find((key) => key.kid === kid || key.x5t === kid), a finder written for clients that name keys by their certificate thumbprint: a token signed with the tenant's key whose kid is the JWKS entry's x5t, a kid no published key has, is accepted by every operation instead of 401; a kid that is neither is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const key = keys.jwks.keys.find((jwk) => jwk.x5t === parts?.header.kid);
        const publicKey = key && keys.publicKeyFor(key.kid);
        if (!parts || !publicKey || parts.header.alg !== ALG || parts.header.kid === keys.kid) return undefined;
        return rs256SignatureVerifies(token, publicKey) ? parts.claims : undefined;
      }),
  },
]);
