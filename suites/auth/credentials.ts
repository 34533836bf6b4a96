// The credentials a conforming target must refuse, each built from a valid token of the global
// role. Each names what it needs: those only the target's signing key or a real-tenant
// alternative can make (expired, another audience, another issuer) declare that token; those only
// the signing key can make declare 'signing-key' and are not applicable to a real tenant.
import type { JWTPayload } from 'jose';
import type { Credential, Need, TargetSession } from '../../harness/index.ts';
import { minted, sharedKeys, withAlgNone, withTamperedPayload, withTamperedSignature } from '../../harness/index.ts';
import type { OperationKey } from '../../specs/index.ts';
import { withCredential, type SharedCall } from '../requests.ts';

export interface BadCredential {
  name: string;
  /** Whether a signature check is what should catch it (spec 7: "the signature fails validation"). */
  signature: boolean;
  /** What making it needs beyond the operation's request (a minted token); none when absent. */
  needs?: Need[];
  /** Shared requests making it reads (the JWKS); none when absent. */
  shared?: string[];
  make: (target: TargetSession) => Promise<Credential>;
}

type ClaimChange = (claims: JWTPayload, nowSeconds: number) => JWTPayload;

/** The global role's token with its claims changed, re-signed with the target's own key (which only the signing key can make). */
export function resigned(name: string, change: ClaimChange): BadCredential {
  return { name, signature: false, needs: [minted('signing-key')], make: async (t) => ({ token: await t.resigned(change) }) };
}

/** A token wrong in one way that the signing key or a real-tenant alternative makes (harness `mint`). */
function mintedCredential(name: string, kind: Parameters<TargetSession['mint']>[0]): BadCredential {
  return { name, signature: false, needs: [minted(kind)], make: async (t) => ({ token: await t.mint(kind) }) };
}

const globalToken = (target: TargetSession) => target.tokenFor('global');

/** A request without any credential. */
const noAuthorization: BadCredential = { name: 'no Authorization header', signature: false, make: async () => 'none' };

export const badCredentials: BadCredential[] = [
  noAuthorization,
  {
    name: 'a bearer value that is not a JWT',
    signature: false,
    make: async () => ({ authorization: 'Bearer not-a-jwt' }),
  },
  {
    name: 'a token sent with the Basic scheme',
    signature: false,
    make: async (t) => ({ authorization: `Basic ${await globalToken(t)}` }),
  },
  {
    name: 'a token with a tampered signature',
    signature: true,
    make: async (t) => ({ token: withTamperedSignature(await globalToken(t)) }),
  },
  {
    name: 'a token with a tampered payload',
    signature: true,
    make: async (t) => ({ token: withTamperedPayload(await globalToken(t)) }),
  },
  {
    name: 'a token signed with a foreign key',
    signature: true,
    make: async (t) => ({ token: await t.forge.signedWithForeignKey(await globalToken(t)) }),
  },
  {
    name: 'a token with an unknown key id',
    signature: true,
    make: async (t) => ({ token: await t.forge.withUnknownKid(await globalToken(t)) }),
  },
  {
    name: 'an HS256 token keyed with the published public key',
    signature: true,
    shared: [sharedKeys.jwks],
    make: async (t) => {
      await t.jwks();
      return { token: await t.forge.hs256WithPublicKey(await globalToken(t)) };
    },
  },
  {
    name: 'an unsigned token (alg none)',
    signature: false,
    make: async (t) => ({ token: withAlgNone(await globalToken(t)) }),
  },
  mintedCredential('an expired token', 'expired'),
  resigned('a token that is not yet valid', (claims, now) => ({ ...claims, iat: now + 3600, nbf: now + 3600, exp: now + 7200 })),
  mintedCredential('a token for another audience', 'wrong-audience'),
  mintedCredential('a token from another issuer', 'wrong-issuer'),
];

export function badCredential(name: string): BadCredential {
  const found = badCredentials.find((bad) => bad.name === name);
  if (!found) throw new Error(`no bad credential "${name}"`);
  return found;
}

/** An operation's valid request with a bad credential: the 401 matrix's request, sent once per run. */
export function withBadCredential(op: OperationKey, bad: BadCredential): SharedCall {
  return withCredential(op, bad.name, bad.make, bad);
}

/** An operation's valid request without any credential: the 401 matrix's request for "no Authorization header". */
export function withoutToken(op: OperationKey): SharedCall {
  return withBadCredential(op, noAuthorization);
}
