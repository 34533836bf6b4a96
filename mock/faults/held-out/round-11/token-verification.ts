// How the bearer token is read and verified: a token taken from the Sec-WebSocket-Protocol header
// by a shim meant for WebSocket upgrades, and a cache of verified tokens keyed by the lowercased
// header value; and the observed rules: exp given as an ISO 8601 date
// read with Date.parse, and the iat check written by copying the exp check above it. Each lets
// exactly its near miss of a valid token through (or, for the copied line, refuses a valid one);
// a token wrong in any other way is refused as before.
import { observed } from '../../../../specs/index.ts';
import type { OperationKey } from '../../../../specs/index.ts';
import { bearerToken } from '../../../auth/bearer.ts';
import { editRequests } from '../../support/route-edits.ts';
import { editVerifier, forgiveClaim, signedPayload } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const SKEW_MS = observed.tokens.clock_skew_seconds.value * 1000;
const OPERATIONS: readonly OperationKey[] = ['redeliver', 'sso-ticket', 'vault'];
/** The subprotocol list a browser WebSocket client sends its token in: "access_token, <token>". */
const WEBSOCKET_TOKEN = /^access_token,\s*(\S+)$/;
/** An ISO 8601 date-time, as a "NumericDate or date string" normaliser recognises one. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho11-token-from-websocket-protocol',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'A shim for browser WebSocket clients (which cannot set Authorization) mounted in front of every route: with no Authorization header, the token is read from "Sec-WebSocket-Protocol: access_token, <token>" whether or not the request is an upgrade. A plain request carrying a valid token only there is answered by the operation instead of 401; the same header with a tampered token is still refused.',
    install: (app) => {
      for (const key of OPERATIONS)
        editRequests(app, key, (exchange) => {
          const protocol = exchange.headers['sec-websocket-protocol'];
          const token = typeof protocol === 'string' ? WEBSOCKET_TOKEN.exec(protocol)?.[1] : undefined;
          return exchange.headers.authorization === undefined && token !== undefined
            ? { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${token}` } }
            : exchange;
        });
    },
  },
  {
    id: 'ho11-exp-date-string-parsed',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'exp read by a claims normaliser that takes a NumericDate or a date string (typeof exp === "string" ? Date.parse(exp) / 1000 : exp), as some libraries do for their own options: a correctly signed token whose exp is "<an hour ahead, ISO 8601>" is accepted by every operation instead of 401; an exp of "<an hour ago, ISO 8601>" or of "soon" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const { exp } = claims;
        if (typeof exp !== 'string' || !ISO_DATE_TIME.test(exp)) return claims;
        const seconds = Date.parse(exp) / 1000;
        return Number.isFinite(seconds) ? { ...claims, exp: Math.floor(seconds) } : claims;
      }),
  },
  {
    id: 'ho11-iat-check-copied-from-exp',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'iat checked by a line copied from the exp check above it, the name changed and the comparison kept (if (now >= iat * 1000 + skew) refuse): a token issued an hour ago (exp still ahead) is refused 401 instead of accepted, and a correctly signed token whose iat is an hour ahead is accepted instead of 401; a fresh token from the endpoint is accepted as before.',
    install: (app) =>
      editVerifier(app, (verifier, { keys, clock }) => {
        const copied = (iat: unknown) => typeof iat === 'number' && clock.now() >= iat * 1000 + SKEW_MS;
        return {
          ...verifier,
          async verify(authorization, host) {
            const verification = await verifier.verify(authorization, host);
            const token = bearerToken(authorization);
            const claims = token === undefined ? undefined : await signedPayload(token, keys);
            if (!claims) return verification;
            if (verification.ok)
              return copied(claims.iat)
                ? { ok: false, error: 'invalid_token', reason: 'iat has passed (the copied exp check)' }
                : verification;
            if (typeof claims.iat !== 'number' || copied(claims.iat)) return verification;
            const { iat: _copied, ...rest } = claims;
            const again = verifier.checkClaims(rest, host);
            return again.ok ? { ok: true, principal: { ...again.principal, claims } } : verification;
          },
        };
      }),
  },
  {
    id: 'ho11-verified-cache-key-lowercased',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: 'The cache of verified tokens keyed by the Authorization value passed through the header normaliser, which lowercases (meant for header names): once a valid token has been used, the same token with the letters of its signature in other case (a signature that does not verify) is accepted by every operation from the cache instead of 401; such a token never preceded by its original is still refused.',
    install: (app) =>
      editVerifier(app, (verifier) => {
        const seen = new Map<string, Readonly<Record<string, unknown>>>();
        return {
          ...verifier,
          async verify(authorization, host) {
            const verification = await verifier.verify(authorization, host);
            if (authorization === undefined) return verification;
            if (verification.ok) {
              seen.set(authorization.toLowerCase(), verification.principal.claims);
              return verification;
            }
            const cached = seen.get(authorization.toLowerCase());
            return cached ? verifier.checkClaims(cached, host) : verification;
          },
        };
      }),
  },
]);
