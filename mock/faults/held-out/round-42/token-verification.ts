// Token verification across requests: a Go middleware whose sync.Map of verified callers is keyed by
// the client the payload names; a keyfunc JWKS wrapper that falls back to the key it used last; a
// Spring entry point that words a 401 from the last failure it was told of. Each shows only after an
// earlier request; a first request is judged as before.
import { observed } from '../../../../specs/index.ts';
import { bearerToken } from '../../../auth/bearer.ts';
import type { KeyObject } from 'node:crypto';
import type { CryptoKey } from 'jose';
import { editReplies, isErrorBody } from '../../support/route-edits.ts';
import { editVerifier } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies, unverifiedParts } from '../support/signatures.ts';

const OPERATIONS = ['redeliver', 'sso-ticket', 'vault'] as const;
const MISSING = observed.errors.missing_authentication!.message!;
const UNAUTHORIZED = 401;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho42-go-sync-map-caller-by-azp',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: 'A Go middleware that keeps verified callers in a sync.Map keyed by the azp it reads from the payload before verifying (to spare an RSA check per request), and on a hit checks only the claims (exp, iss, aud, sub): once a client has been served, a token naming that client whose signature fails (one character changed) is accepted (202) instead of 401; the same tampered token of a client not yet seen is still refused, and an expired token of a seen client is still refused.',
    install: (app) =>
      editVerifier(app, (verifier) => {
        const seen = new Set<string>();
        return {
          ...verifier,
          async verify(authorization, host) {
            const token = bearerToken(authorization);
            const parts = token === undefined ? undefined : unverifiedParts(token);
            const azp = parts?.claims.azp;
            if (parts && typeof azp === 'string' && seen.has(azp)) return verifier.checkClaims(parts.claims, host);
            const verification = await verifier.verify(authorization, host);
            if (verification.ok) seen.add(verification.principal.client.clientId);
            return verification;
          },
        };
      }),
  },
  {
    id: 'ho42-keyfunc-unknown-kid-last-key',
    clause: 'auth.token.header',
    level: 'observed',
    bug: "A Go service on keyfunc whose JWKS refresh for an unknown kid is rate-limited (RefreshUnknownKID with a rate limit), wrapped by a Keyfunc that, on keyfunc's ErrKIDNotFound, answers the key it used last (written for JWKS outages): once any valid token has been verified, a token signed with the tenant key under a kid no published key has is accepted instead of 401; before any, it is refused, and a kid-less token, or one with an unknown kid whose signature fails, is still refused.",
    install: (app) =>
      editVerifier(app, (verifier, parts) => {
        let lastKey: CryptoKey | KeyObject | undefined;
        return {
          ...verifier,
          async verify(authorization, host) {
            const verification = await verifier.verify(authorization, host);
            if (verification.ok) {
              lastKey = parts.keys.publicKeyFor(parts.keys.kid);
              return verification;
            }
            const token = bearerToken(authorization);
            const decoded = token === undefined ? undefined : unverifiedParts(token);
            const kid = decoded?.header.kid;
            if (!decoded || !lastKey || typeof kid !== 'string' || parts.keys.publicKeyFor(kid) || decoded.header.alg !== 'RS256')
              return verification;
            if (!rs256SignatureVerifies(token!, lastKey)) return verification;
            const again = verifier.checkClaims(decoded.claims, host);
            return again.ok ? again : verification;
          },
        };
      }),
  },
  {
    id: 'ho42-spring-entry-point-last-exception',
    clause: 'errors.401.message',
    level: 'observed',
    bug: `A Spring Security service whose AuthenticationEntryPoint is a singleton bean holding the last AuthenticationException the JWT filter handed it (a field, for its log line), and which words every 401 from that field; a request with no Authorization at all throws nothing, so its 401 carries the message of the last failure: after a request with an expired token, a request without a token is answered 401 "Expired token received for JSON Web Token validation" instead of "${MISSING}"; before any failure it says "${MISSING}", and a bad token's 401 names its own cause.`,
    install: (app) => {
      let last: string | undefined;
      editReplies(app, OPERATIONS, (reply, exchange) => {
        if (reply.status !== UNAUTHORIZED || !isErrorBody(reply.body)) return reply;
        const message = String(reply.body.message);
        if (exchange.headers.authorization !== undefined) {
          last = message;
          return reply;
        }
        if (message !== MISSING || last === undefined) return reply;
        const body: Record<string, unknown> = { ...reply.body, message: last };
        if (body.attributes !== undefined) body.attributes = { error: last };
        return { ...reply, body };
      });
    },
  },
]);
