// Faults in the tokens the tenant issues: each issued token is re-signed, with the tenant's key,
// after `change` has edited its header and claims.
import { SignJWT, decodeJwt, decodeProtectedHeader, type JWTHeaderParameters, type JWTPayload } from 'jose';
import type { FaultHooks } from '../../app.ts';
import type { IssuedToken } from '../../auth/issuer.ts';

export interface TokenChange {
  header?(header: JWTHeaderParameters): JWTHeaderParameters;
  claims?(claims: JWTPayload): JWTPayload;
  /** expires_in of the token response, from the (changed) claims. */
  expiresIn?(claims: JWTPayload, issued: IssuedToken): number;
}

export function reissueTokens(app: FaultHooks, change: TokenChange): void {
  app.override('issuer', (issuer, built) => ({
    async issue(client, scopes) {
      const issued = await issuer.issue(client, scopes);
      const header = (change.header ?? same)(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters);
      const claims = (change.claims ?? same)(decodeJwt(issued.accessToken));
      const accessToken = await new SignJWT(claims).setProtectedHeader(header).sign(built.keys!.privateKey);
      return { ...issued, accessToken, expiresIn: change.expiresIn ? change.expiresIn(claims, issued) : issued.expiresIn };
    },
  }));
}

function same<T>(value: T): T {
  return value;
}
