// How the bearer token is read and verified: extra segments after the signature dropped, a
// signature in standard base64 decoded all the same, a signature compared by its start with the one
// the verifier computes, the caller's client found ignoring letter case, a quoted credential
// unquoted, a kid compared with ==, and an iat that is not a number compared all the same. Each
// lets exactly that near miss of a valid token through; a token wrong in any other way is refused
// as before.
import { KeyObject, sign } from 'node:crypto';
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies, signingInput, unverifiedParts } from '../support/signatures.ts';
import { alsoReadAs, bearerCredential } from './support/credential-rereads.ts';

const ALG = observed.tokens.alg;
const SUFFIX = observed.tokens.subject_suffix;
const CLOCK_SKEW_MS = observed.tokens.clock_skew_seconds.value * 1000;
/** The alphabet Buffer.from(text, 'base64') reads besides base64url's, with its padding. */
const STANDARD_BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** An auth-param value written as a quoted-string. */
const QUOTED = /^Bearer +"([^"\s]+)"$/i;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho4-token-extra-segments-ignored',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A token parser written "const [header, payload, signature] = token.split(\'.\')", which drops whatever follows a third dot: a valid token followed by ".x" (four segments, no compact JWS) is accepted by every operation instead of 401; a token whose signature is wrong is still refused, whatever follows it.',
    install: (app) =>
      alsoReadAs(app, (authorization) => {
        const segments = bearerCredential(authorization)?.split('.') ?? [];
        return segments.length > 3 ? `Bearer ${segments.slice(0, 3).join('.')}` : undefined;
      }),
  },
  {
    id: 'ho4-signature-in-standard-base64',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The signature segment decoded with Buffer.from(segment, \'base64\'), which reads the standard alphabet ("+", "/") and "=" padding as well as base64url: a valid token whose signature is written in standard base64 with its padding, which is no compact JWS (RFC 7515 section 2), is accepted by every operation instead of 401; a wrong signature in either alphabet is still refused.',
    install: (app) =>
      alsoReadAs(app, (authorization) => {
        const segments = bearerCredential(authorization)?.split('.') ?? [];
        const [header, payload, signature] = segments;
        if (segments.length !== 3 || !header || !payload || !signature || !STANDARD_BASE64.test(signature) || !/[+/=]/.test(signature))
          return undefined;
        return `Bearer ${header}.${payload}.${Buffer.from(signature, 'base64').toString('base64url')}`;
      }),
  },
  {
    id: 'ho4-signature-compared-by-its-start',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: "Signatures checked by signing the token's input again (RS256 is deterministic) and comparing the texts with expected.startsWith(sent), written to forgive a client that drops trailing padding: a valid token with the last characters of its signature cut off is accepted by every operation instead of 401; a signature with a character changed, or an empty one, is still refused.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const sent = token.split('.')[2] ?? '';
        if (!parts || parts.header.alg !== ALG || parts.header.kid !== keys.kid || sent === '') return undefined;
        const expected = sign('sha256', Buffer.from(signingInput(token)), KeyObject.from(keys.privateKey)).toString('base64url');
        return sent !== expected && expected.startsWith(sent) ? parts.claims : undefined;
      }),
  },
  {
    id: 'ho4-token-client-found-ignoring-case',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: "The verifier finds the caller's client in a table with a case-insensitive collation: a correctly signed token whose azp (and sub) name a client id in the other letter case, a client that does not exist, is accepted by every operation as that client's instead of 401; an azp with a character changed is still refused.",
    install(app) {
      const store = capture(app, 'store');
      forgiveClaim(app, (claims) => {
        const { azp, sub } = claims;
        if (typeof azp !== 'string' || typeof sub !== 'string' || store().client(azp)) return claims;
        const client = store()
          .clients()
          .find((candidate) => candidate.clientId.toLowerCase() === azp.toLowerCase());
        if (!client || sub.toLowerCase() !== `${client.clientId}${SUFFIX}`.toLowerCase()) return claims;
        return { ...claims, azp: client.clientId, sub: `${client.clientId}${SUFFIX}` };
      });
    },
  },
  {
    id: 'ho4-bearer-token-in-quotes',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'The Authorization value read with a parser of auth-params, which takes a quoted-string off its quotes: \'Bearer "<token>"\', which is no bearer credential (RFC 6750 section 2.1 allows no quotes), is accepted by every operation instead of 401; quotes around anything but a valid token are still refused.',
    install: (app) =>
      alsoReadAs(app, (authorization) => {
        const match = QUOTED.exec(authorization);
        return match ? `Bearer ${match[1]}` : undefined;
      }),
  },
  {
    id: 'ho4-kid-compared-loosely',
    clause: 'auth.token.header',
    level: 'observed',
    bug: 'Keys looked up with keys.find((key) => key.kid == header.kid), loose equality: a token signed with the tenant\'s key whose kid is a list holding the published kid (["<kid>"] == "<kid>" is true) is accepted by every operation instead of 401; a list holding another kid is still refused.',
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const kid = parts?.header.kid;
        if (!parts || parts.header.alg !== ALG || !Array.isArray(kid) || String(kid) !== keys.kid) return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? parts.claims : undefined;
      }),
  },
  {
    id: 'ho4-iat-not-a-number-compared',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'iat checked with "if (claims.iat * 1000 > now + skew) refuse", without asking whether it is a number: a correctly signed token whose iat is a word ("yesterday", NaN once multiplied, and NaN > x is false) or null is accepted by every operation instead of 401; an iat in the future, even written as a numeric string, is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const { iat, ...rest } = claims;
        if (iat === undefined || typeof iat === 'number') return claims;
        const seconds = Number(iat);
        return Number.isNaN(seconds) || seconds * 1000 <= clock.now() + CLOCK_SKEW_MS ? rest : claims;
      }),
  },
]);
