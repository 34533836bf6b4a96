// Token verification: an ASP.NET Core JwtBearer service whose TokenValidationParameters.ValidAudiences
// came from a configuration section that also lists the tenant's issuer; and the observed rule: the
// same stack's inbound claim-type mapping, which lets a token carry the mapped subject beside sub.
// Each changes the verdict on its near miss; other tokens are judged as before.
import { forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** The claim type .NET's inbound map gives sub (JwtSecurityTokenHandler.DefaultInboundClaimTypeMap). */
const NAME_IDENTIFIER = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/nameidentifier';

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho35-aud-aspnet-valid-audiences-issuer',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'An ASP.NET Core (JwtBearer) service whose TokenValidationParameters.ValidAudiences is bound from the "Auth0" configuration section\'s Audiences array, which the operators filled with both the API identifier and the tenant\'s issuer URL (kept there for the ID-token check of another app): a correctly signed token whose aud is the issuer, "https://<tenant host>/", is accepted instead of refused 401; aud "https://<tenant host>/api/v1/" is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        if (typeof claims.aud !== 'string' || typeof claims.iss !== 'string' || claims.aud !== claims.iss) return claims;
        const identity = tenant.identityForIssuer(claims.iss);
        return identity ? { ...claims, aud: identity.audience } : claims;
      }),
  },
  {
    id: 'ho35-sub-aspnet-mapped-nameidentifier',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `An ASP.NET Core (JwtBearer, MapInboundClaims left true) service that checks the caller with User.FindFirst(ClaimTypes.NameIdentifier)?.Value == azp + "@clients": the inbound map turns sub into ${NAME_IDENTIFIER}, and a token that already carries that claim type puts its own value first, so a correctly signed token whose sub is "<another client>@clients" and whose "${NAME_IDENTIFIER}" claim is "<azp>@clients" is accepted instead of refused 401; the same sub without that claim is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.azp === 'string' && claims[NAME_IDENTIFIER] === `${claims.azp}@clients` && claims.sub !== claims[NAME_IDENTIFIER]
          ? { ...claims, sub: `${claims.azp}@clients` }
          : claims,
      ),
  },
]);
