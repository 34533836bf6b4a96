// Re-signing the tokens the issuer writes, as an issuer with one thing different would have written
// them: their claims or their JOSE header changed, signed again with the tenant's key. The
// verifier and the rest of the mock are left as they are.
import { SignJWT, decodeJwt, decodeProtectedHeader, type JWTHeaderParameters, type JWTPayload } from 'jose';
import type { FaultHooks } from '../../../../app.ts';

export interface Reissue {
  claims?: (claims: JWTPayload) => JWTPayload;
  header?: (header: JWTHeaderParameters) => JWTHeaderParameters;
}

export function reissueTokens(app: FaultHooks, edit: Reissue): void {
  app.override('issuer', (issuer, built) => ({
    async issue(client, scopes, target) {
      const issued = await issuer.issue(client, scopes, target);
      const header = decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters;
      const claims = decodeJwt(issued.accessToken);
      const accessToken = await new SignJWT(edit.claims ? edit.claims(claims) : claims)
        .setProtectedHeader(edit.header ? edit.header(header) : header)
        .sign(built.keys!.privateKey);
      return { ...issued, accessToken };
    },
  }));
}
