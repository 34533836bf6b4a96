// Token verification: an issuer compared after a URL parser dropped its default port, an audience
// compared without its scheme; and the observed rules: an iat written as a numeric string coerced
// with Number(), and a token without a kid verified with the only key there is. Each lets its near
// miss through; other tokens are judged as before.
import { SignJWT, type JWTHeaderParameters } from 'jose';
import { operationKeys } from '../../../../specs/index.ts';
import { bearerToken } from '../../../auth/bearer.ts';
import { capture } from '../../support/captured.ts';
import { editRequests } from '../../support/route-edits.ts';
import { forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies, unverifiedParts } from '../support/signatures.ts';

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho19-iss-default-port-dropped',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The issuer compared as new URL(iss).href, which drops an https URL\'s default port: a token whose iss is "https://<tenant host>:443/" is accepted instead of 401; an iss with port 8443 is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.iss === 'string' && /^https:\/\/[^/]+:443\//.test(claims.iss)
          ? { ...claims, iss: claims.iss.replace(':443/', '/') }
          : claims,
      ),
  },
  {
    id: 'ho19-aud-scheme-ignored',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The audience compared on host and path only (a "same resource" helper that ignores the scheme): a token whose aud is "http://<tenant host>/api/v2/" is accepted instead of 401; an aud on another host is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.aud === 'string' && claims.aud.startsWith('http://') ? { ...claims, aud: `https://${claims.aud.slice(7)}` } : claims,
      ),
  },
  {
    id: 'ho19-iat-numeric-string-coerced',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: 'iat read with Number(claims.iat) before it is compared with the clock: "iat": "<seconds>" written as a string is accepted instead of 401 for a time that is not a number; "iat": "yesterday" (NaN) is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.iat === 'string' && /^\d+$/.test(claims.iat) ? { ...claims, iat: Number(claims.iat) } : claims,
      ),
  },
  {
    id: 'ho19-kid-missing-single-key-fallback',
    clause: 'auth.token.header',
    level: 'observed',
    bug: "A token without a kid verified with the tenant's only key (a JWT library's single-key resolver, which falls back when the header names none): such a token is accepted instead of 401; a token naming an unknown kid is still refused.",
    install: (app) => {
      const keys = capture(app, 'keys');
      for (const key of operationKeys)
        editRequests(app, key, async (exchange) => {
          const token = bearerToken(exchange.headers.authorization);
          const parts = token === undefined ? undefined : unverifiedParts(token);
          if (token === undefined || !parts || 'kid' in parts.header || parts.header.alg !== 'RS256') return exchange;
          if (!rs256SignatureVerifies(token, keys().publicKey)) return exchange;
          const resigned = await new SignJWT(parts.claims)
            .setProtectedHeader({ ...(parts.header as JWTHeaderParameters), kid: keys().kid })
            .sign(keys().privateKey);
          return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${resigned}` } };
        });
    },
  },
]);
