// The token endpoint: the audience compared by an Express endpoint after new URL(audience).href,
// which repairs an https URL written without its slashes; and the observed rule: the lifetime handed
// to fast-jwt's createSigner as expiresIn: 86400, which fast-jwt reads in milliseconds. Each changes
// the answer to one near miss; other requests are answered as before.
import { SignJWT, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { jsonObjectOf } from '../../../auth/bearer.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

const HTTPS_WITHOUT_SLASHES = /^https:(?!\/\/)[^/\\]/i;
const whatwgHref = (text: string): string | undefined => {
  try {
    return new URL(text).href;
  } catch {
    return undefined;
  }
};

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho33-audience-whatwg-missing-slashes',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'An Express token endpoint that normalises the audience with new URL(req.body.audience).href before looking the API up (to fold the host\'s letter case), and the WHATWG parser takes a special scheme written without its slashes: audience "https:<tenant host>/api/v2/" gets a token for the management interface instead of being refused; "https:<another host>/api/v2/" is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) => {
        const audience = params.audience;
        if (audience === undefined || !HTTPS_WITHOUT_SLASHES.test(audience)) return params;
        const href = whatwgHref(audience);
        return href === undefined ? params : { ...params, audience: href };
      }),
  },
  {
    id: 'ho33-token-fast-jwt-expires-in-milliseconds',
    clause: 'token.lifetime',
    level: 'observed',
    bug: "A Node issuer on fast-jwt written createSigner({ key, expiresIn: 86400 }) with the lifetime in seconds, as jsonwebtoken reads it, where fast-jwt reads a number in milliseconds: every token's exp is iat + 86 instead of iat + 86400; expires_in in the answer (written from the setting) is still 86400.",
    install: (app) =>
      app.override('issuer', (issuer, built) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          const claims = jsonObjectOf(issued.accessToken.split('.')[1]);
          if (!claims || typeof claims.iat !== 'number') return issued;
          const accessToken = await new SignJWT({ ...claims, exp: claims.iat + Math.floor(issued.expiresIn / 1000) })
            .setProtectedHeader(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters)
            .sign(built.keys!.privateKey);
          return { ...issued, accessToken };
        },
      })),
  },
]);
