// Token verification, each a check that is right for the common form of a request and skipped for
// another, legal one: a NestJS strategy chosen by the token's typ, whose RFC 9068 branch ignores
// expiry; a Kong gateway whose jwt plugin does not see an upper-case scheme and lets the request
// through as its anonymous consumer, to a service that left the issuer to the gateway. Other tokens
// are judged as before.
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { bearerToken } from '../../../auth/bearer.ts';
import { captureAll } from '../../support/captured.ts';
import { editRequests } from '../../support/route-edits.ts';
import { alsoAccept, signedPayload } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { unverifiedParts } from '../support/signatures.ts';

const OPERATIONS = ['redeliver', 'sso-ticket', 'vault'] as const;
/** Kong's jwt plugin finds the token with this pattern; a scheme it does not match is "no credentials". */
const KONG_BEARER = /^\s*[Bb]earer\s+(.+)/;
const ANY_BEARER = /^bearer +/i;

const isAtJwt = (typ: unknown) => typeof typ === 'string' && /^(application\/)?at\+jwt$/i.test(typ);

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho43-nest-at-jwt-strategy-ignores-expiration',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'A NestJS service with two passport-jwt strategies picked by the token\'s typ, "jwt" for the tenant\'s tokens and "at-jwt" added for RFC 9068 access tokens (typ "at+jwt"), the second configured with ignoreExpiration: true (copied from the refresh-token strategy): a correctly signed token of the tenant whose exp has passed and whose header says typ "at+jwt" is accepted (202) instead of 401; the same expired token with typ "JWT", or without typ, is still refused, and an at+jwt token that is not expired is served as it should be.',
    install: (app) =>
      alsoAccept(app, async (token, parts) => {
        if (!isAtJwt(unverifiedParts(token)?.header.typ)) return undefined;
        const claims = await signedPayload(token, parts.keys);
        if (!claims || typeof claims.exp !== 'number') return undefined;
        return { ...claims, exp: Math.floor(parts.clock.now() / 1000) + 3600 };
      }),
  },
  {
    id: 'ho43-kong-uppercase-scheme-anonymous-skips-issuer',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'A Kong gateway whose jwt plugin (key_claim_name iss, one credential for the tenant\'s issuer) is configured with anonymous set, in front of a service that verifies signature, exp and aud itself and leaves the issuer to Kong: the plugin finds the token with \\s*[Bb]earer\\s+(.+), so "Authorization: BEARER <token>" (the scheme is case-insensitive, RFC 9110 11.1) is passed on as the anonymous consumer, and a token signed with the tenant\'s key but naming another issuer is served instead of 401; the same token sent as "Bearer <token>" is refused by Kong, and "BEARER" with a bad signature or an expired token is refused by the service.',
    install: (app) => {
      const components = captureAll(app);
      for (const key of OPERATIONS)
        editRequests(app, key, async (exchange) => {
          const { authorization, host } = exchange.headers;
          if (authorization === undefined || !ANY_BEARER.test(authorization) || KONG_BEARER.test(authorization)) return exchange;
          const token = bearerToken(authorization);
          const { verifier, keys, tenant } = components();
          if (token === undefined || (await verifier.verify(authorization, host)).ok) return exchange;
          const claims = await signedPayload(token, keys);
          const repaired = claims && { ...claims, iss: tenant.issuer };
          if (!repaired || !verifier.checkClaims(repaired, host).ok) return exchange;
          const resigned = await new SignJWT(repaired)
            .setProtectedHeader(decodeProtectedHeader(token) as JWTHeaderParameters)
            .sign(keys.privateKey);
          return { ...exchange, headers: { ...exchange.headers, authorization: `BEARER ${resigned}` } };
        });
    },
  },
]);
