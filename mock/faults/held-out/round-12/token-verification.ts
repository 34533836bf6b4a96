// How the bearer token is verified: "now" taken from the request's Date header (a clock-skew
// compensation), exp checked against a coarse clock floored to the minute, and a cache of verified
// signatures keyed by the signature segment alone; and the observed rule: the sub = <azp>@clients
// rule applied only to tokens of the client-credentials grant. Each lets exactly its near miss of
// a valid token through; a token wrong in any other way is refused as before.
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { observed } from '../../../../specs/index.ts';
import type { OperationKey } from '../../../../specs/index.ts';
import { bearerToken } from '../../../auth/bearer.ts';
import { captureAll } from '../../support/captured.ts';
import { editRequests } from '../../support/route-edits.ts';
import { editVerifier, forgiveClaim, signedPayload } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { unverifiedParts } from '../support/signatures.ts';

const SKEW_MS = observed.tokens.clock_skew_seconds.value * 1000;
const OPERATIONS: readonly OperationKey[] = ['redeliver', 'sso-ticket', 'vault'];
const SUFFIX = observed.tokens.subject_suffix;
const GTY = observed.tokens.gty;
const MINUTE_MS = 60_000;
const TIME_CLAIMS = ['exp', 'nbf', 'iat'];

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho12-now-from-date-header',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The verifier\'s "now" taken from the request\'s Date header when it has one, a compensation written for clients whose clocks drift: a token that expired an hour ago, sent with a Date header two hours old, is accepted by every operation instead of 401; the same token without a Date header, or with the real time in it, is still refused.',
    install: (app) => {
      const components = captureAll(app);
      for (const key of OPERATIONS)
        editRequests(app, key, async (exchange) => {
          const date = exchange.headers.date;
          const sent = typeof date === 'string' ? Date.parse(date) : Number.NaN;
          const { authorization, host } = exchange.headers;
          const token = bearerToken(authorization);
          if (!Number.isFinite(sent) || token === undefined) return exchange;
          const { verifier, keys, clock } = components();
          if ((await verifier.verify(authorization, host)).ok) return exchange;
          const claims = await signedPayload(token, keys);
          if (!claims) return exchange;
          const shift = Math.round((clock.now() - sent) / 1000);
          const shifted = { ...claims };
          for (const name of TIME_CLAIMS) if (typeof claims[name] === 'number') shifted[name] = claims[name] + shift;
          if (!verifier.checkClaims(shifted, host).ok) return exchange;
          const resigned = await new SignJWT(shifted)
            .setProtectedHeader(decodeProtectedHeader(token) as JWTHeaderParameters)
            .sign(keys.privateKey);
          return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${resigned}` } };
        });
    },
  },
  {
    id: 'ho12-exp-against-minute-clock',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: `exp compared with a coarse clock, the time floored to the minute (Math.floor(now / ${MINUTE_MS}) * ${MINUTE_MS}) that the token cache uses for its buckets: at 55 seconds past a minute, a token that expired 50 seconds ago (past the ${SKEW_MS / 1000} s skew) is accepted by every operation instead of 401; one that expired two minutes ago is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const { exp } = claims;
        if (typeof exp !== 'number') return claims;
        const now = clock.now();
        const coarse = Math.floor(now / MINUTE_MS) * MINUTE_MS;
        return now >= exp * 1000 + SKEW_MS && coarse < exp * 1000 + SKEW_MS ? { ...claims, exp: Math.ceil(now / 1000) + 60 } : claims;
      }),
  },
  {
    id: 'ho12-verified-signatures-cache',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: 'A cache of verified tokens keyed by their signature segment alone (the longest, most distinctive part, and the one whose check costs an RSA operation): once a valid token has been used, its header and an edited payload sent with its signature are accepted by every operation instead of 401; the same edited token sent before the original was ever used is still refused.',
    install: (app) =>
      editVerifier(app, (verifier) => {
        const seen = new Set<string>();
        return {
          ...verifier,
          async verify(authorization, host) {
            const verification = await verifier.verify(authorization, host);
            const token = bearerToken(authorization);
            const signature = token?.split('.')[2];
            if (token === undefined || !signature) return verification;
            if (verification.ok) {
              seen.add(signature);
              return verification;
            }
            const parts = seen.has(signature) ? unverifiedParts(token) : undefined;
            return parts ? verifier.checkClaims(parts.claims, host) : verification;
          },
        };
      }),
  },
  {
    id: 'ho12-subject-rule-per-grant-type',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `The rule sub = <azp>${SUFFIX} applied only inside if (claims.gty === "${GTY}"), as written for machine tokens beside a branch meant for user tokens that was never written: a correctly signed token with gty "password" (or without gty) and sub "auth0|someone" is accepted by every operation instead of 401; the same sub with gty "${GTY}" is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims) =>
        claims.gty !== GTY && typeof claims.azp === 'string' && claims.sub !== `${claims.azp}${SUFFIX}`
          ? { ...claims, sub: `${claims.azp}${SUFFIX}` }
          : claims,
      ),
  },
]);
