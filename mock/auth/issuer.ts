// Issues access tokens as the real service does (observed.tokens): RS256 JWS with typ JWT and the
// key's kid; claims iss, aud (the identity or API the token request named), sub = <client_id>@clients, azp, iat, exp = iat + expires_in, scope
// (one space-separated string) and gty. Time comes from the injected clock.
import { SignJWT } from 'jose';
import { observed } from '../../specs/index.ts';
import type { Clock } from '../clock.ts';
import type { Client } from '../store.ts';
import type { Tenant } from '../tenant.ts';
import type { SigningKeys } from './keys.ts';

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  scope: string;
}

/** What a token is for: its issuer and audience (by default the tenant's canonical identity). */
export interface TokenTarget {
  issuer: string;
  audience: string;
}

export interface TokenIssuer {
  issue(client: Client, scopes: readonly string[], target?: TokenTarget): Promise<IssuedToken>;
}

export function createTokenIssuer({ keys, clock, tenant }: { keys: SigningKeys; clock: Clock; tenant: Tenant }): TokenIssuer {
  return {
    async issue(client, scopes, target = tenant) {
      const iat = Math.floor(clock.now() / 1000);
      const expiresIn = observed.tokens.expires_in;
      const scope = scopes.join(' ');
      const accessToken = await new SignJWT({
        iss: target.issuer,
        sub: `${client.clientId}${observed.tokens.subject_suffix}`,
        aud: target.audience,
        iat,
        exp: iat + expiresIn,
        scope,
        gty: observed.tokens.gty,
        azp: client.clientId,
      })
        .setProtectedHeader({ alg: observed.tokens.alg, typ: observed.tokens.typ, kid: keys.kid })
        .sign(keys.privateKey);
      return { accessToken, expiresIn, scope };
    },
  };
}
