// The claims of access tokens: a verifier that checks a claim only when it is there, reads its
// type loosely, compares the issuer by host, or lets a claim's absence exempt the caller from a
// rule. Each lets exactly that near miss through (some at one route only); the far wrong value
// (another audience, an expired number, a non-global client's own token) is still refused.
import { forgiveClaim, forgiveClaimAt, editPrincipal } from '../support/verifier-edits.ts';
import { heldOutFamily } from './held-out-fault.ts';

/** Seconds of validity a verifier that finds no exp behaves as if the token had left. */
const NO_EXP_GRACE_SECONDS = 60;

const nowSeconds = (clock: { now(): number }) => Math.floor(clock.now() / 1000);

export const tokenClaimFaults = heldOutFamily([
  {
    id: 'ho-token-without-aud-accepted',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'An audience check written "if (claims.aud && ...)", as libraries do when no audience option is set: a correctly signed token of the tenant with no aud claim at all is accepted by every operation (a token for another audience is still refused).',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        if (claims.aud !== undefined || typeof claims.iss !== 'string') return claims;
        const identity = tenant.identityForIssuer(claims.iss);
        return identity ? { ...claims, aud: identity.audience } : claims;
      }),
  },
  {
    id: 'ho-token-without-exp-accepted',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'exp checked only when present (RFC 7519 makes the claim optional): a correctly signed token with no exp, which never expires, is accepted by every operation (an expired one is still refused).',
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) =>
        claims.exp === undefined ? { ...claims, exp: nowSeconds(clock) + NO_EXP_GRACE_SECONDS } : claims,
      ),
  },
  {
    id: 'ho-exp-as-numeric-string',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'Time claims read with Number(...): a correctly signed token whose exp is a numeric string ("1767225600", not a NumericDate, RFC 7519 section 2) is accepted by every operation while that time is ahead (an expired string is still refused).',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.exp === 'string' && /^\d+$/.test(claims.exp) ? { ...claims, exp: Number(claims.exp) } : claims,
      ),
  },
  {
    id: 'ho-redeliver-iat-in-future-unchecked',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'Redelivery\'s own token check takes nbf as the only "not yet valid" claim and never looks at iat: a correctly signed token issued an hour from now, without nbf, is accepted there (one with nbf ahead is still refused; the other operations refuse both).',
    install: (app) =>
      forgiveClaimAt(app, 'redeliver', (claims, { clock }) =>
        claims.nbf === undefined && typeof claims.iat === 'number' && claims.iat > nowSeconds(clock)
          ? { ...claims, iat: nowSeconds(clock) }
          : claims,
      ),
  },
  {
    id: 'ho-ticket-issuer-scheme-ignored',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: "Ticket creation's own token check compares the issuer's host and path, parsed as a URL, and not its scheme: a token whose iss is the tenant's issuer over http:// is accepted there (401 elsewhere; another host is still refused).",
    install: (app) =>
      forgiveClaimAt(app, 'sso-ticket', (claims, { tenant }) => {
        const iss = claims.iss;
        if (typeof iss !== 'string' || !iss.startsWith('http://')) return claims;
        const secure = `https://${iss.slice('http://'.length)}`;
        return tenant.identityForIssuer(secure) ? { ...claims, iss: secure } : claims;
      }),
  },
  {
    id: 'ho-global-rule-skipped-without-gty',
    clause: 'redeliver.global-client',
    level: 'contract',
    bug: "Tokens without gty taken for the tenant's legacy API-explorer tokens, which the global-client rule exempts: a correctly signed token of a non-global client that lacks the gty claim is accepted by redelivery (the client's own tokens, which carry gty, are still refused with 401).",
    install: (app) =>
      editPrincipal(app, (principal) =>
        principal.claims.gty === undefined && !principal.client.global
          ? { ...principal, client: { ...principal.client, global: true } }
          : principal,
      ),
  },
]);
