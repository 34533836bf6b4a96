// The credentials a conforming target must refuse, each built from a valid token of the global
// role. Each names what it needs: those only the target's signing key or a real-tenant
// alternative can make (expired, another audience, another issuer) declare that token; those only
// the signing key can make declare 'signing-key' and are not applicable to a real tenant.
import type { Credential, Need, TargetSession } from '../../harness/index.ts';
import { minted, sharedKeys, withAlgNone, withTamperedPayload, withTamperedSignature } from '../../harness/index.ts';

export interface BadCredential {
  name: string;
  /** Whether a signature check is what should catch it (spec 7: "the signature fails validation"). */
  signature: boolean;
  needs: Need[];
  shared: string[];
  make: (target: TargetSession) => Promise<Credential>;
}

const globalToken = (target: TargetSession) => target.tokenFor('global');

export const badCredentials: BadCredential[] = [
  { name: 'no Authorization header', signature: false, needs: [], shared: [], make: async () => 'none' },
  {
    name: 'a bearer value that is not a JWT',
    signature: false,
    needs: [],
    shared: [],
    make: async () => ({ authorization: 'Bearer not-a-jwt' }),
  },
  {
    name: 'a token sent with the Basic scheme',
    signature: false,
    needs: [],
    shared: [],
    make: async (t) => ({ authorization: `Basic ${await globalToken(t)}` }),
  },
  {
    name: 'a token with a tampered signature',
    signature: true,
    needs: [],
    shared: [],
    make: async (t) => ({ token: withTamperedSignature(await globalToken(t)) }),
  },
  {
    name: 'a token with a tampered payload',
    signature: true,
    needs: [],
    shared: [],
    make: async (t) => ({ token: withTamperedPayload(await globalToken(t)) }),
  },
  {
    name: 'a token signed with a foreign key',
    signature: true,
    needs: [],
    shared: [],
    make: async (t) => ({ token: await t.forge.signedWithForeignKey(await globalToken(t)) }),
  },
  {
    name: 'a token with an unknown key id',
    signature: true,
    needs: [],
    shared: [],
    make: async (t) => ({ token: await t.forge.withUnknownKid(await globalToken(t)) }),
  },
  {
    name: 'an HS256 token keyed with the published public key',
    signature: true,
    needs: [],
    shared: [sharedKeys.jwks],
    make: async (t) => {
      await t.jwks();
      return { token: await t.forge.hs256WithPublicKey(await globalToken(t)) };
    },
  },
  {
    name: 'an unsigned token (alg none)',
    signature: false,
    needs: [],
    shared: [],
    make: async (t) => ({ token: withAlgNone(await globalToken(t)) }),
  },
  {
    name: 'an expired token',
    signature: false,
    needs: [minted('expired')],
    shared: [],
    make: async (t) => ({ token: await t.mint('expired') }),
  },
  {
    name: 'a token that is not yet valid',
    signature: false,
    needs: [minted('signing-key')],
    shared: [],
    make: async (t) => ({ token: await t.resigned((claims, now) => ({ ...claims, iat: now + 3600, nbf: now + 3600, exp: now + 7200 })) }),
  },
  {
    name: 'a token for another audience',
    signature: false,
    needs: [minted('wrong-audience')],
    shared: [],
    make: async (t) => ({ token: await t.mint('wrong-audience') }),
  },
  {
    name: 'a token from another issuer',
    signature: false,
    needs: [minted('wrong-issuer')],
    shared: [],
    make: async (t) => ({ token: await t.mint('wrong-issuer') }),
  },
];

export function badCredential(name: string): BadCredential {
  const found = badCredentials.find((bad) => bad.name === name);
  if (!found) throw new Error(`no bad credential "${name}"`);
  return found;
}
