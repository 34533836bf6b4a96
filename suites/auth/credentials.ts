// The credentials a conforming target must refuse, each built from a valid token of the global
// role. Those marked `needsSigningKey` are minted with the target's own key, so their only flaw is
// the one named (an expiry, an audience); the suite holds that key for the embedded mock.
import type { Credential, TargetSession } from '../../harness/index.ts';
import { withAlgNone, withTamperedPayload, withTamperedSignature } from '../../harness/index.ts';

export interface BadCredential {
  name: string;
  /** Whether a signature check is what should catch it (spec 7: "the signature fails validation"). */
  signature: boolean;
  needsSigningKey?: boolean;
  make(target: TargetSession): Promise<Credential>;
}

const globalToken = (target: TargetSession) => target.tokenFor('global');

export const badCredentials: BadCredential[] = [
  { name: 'no Authorization header', signature: false, make: async () => 'none' },
  { name: 'a bearer value that is not a JWT', signature: false, make: async () => ({ authorization: 'Bearer not-a-jwt' }) },
  { name: 'a token sent with the Basic scheme', signature: false, make: async (t) => ({ authorization: `Basic ${await globalToken(t)}` }) },
  { name: 'a token with a tampered signature', signature: true, make: async (t) => ({ token: withTamperedSignature(await globalToken(t)) }) },
  { name: 'a token with a tampered payload', signature: true, make: async (t) => ({ token: withTamperedPayload(await globalToken(t)) }) },
  { name: 'a token signed with a foreign key', signature: true, make: async (t) => ({ token: await t.forge.signedWithForeignKey(await globalToken(t)) }) },
  { name: 'a token with an unknown key id', signature: true, make: async (t) => ({ token: await t.forge.withUnknownKid(await globalToken(t)) }) },
  { name: 'an HS256 token keyed with the published public key', signature: true, make: async (t) => ({ token: await t.forge.hs256WithPublicKey(await globalToken(t)) }) },
  { name: 'an unsigned token (alg none)', signature: false, make: async (t) => ({ token: withAlgNone(await globalToken(t)) }) },
  { name: 'an expired token', signature: false, needsSigningKey: true, make: async (t) => ({ token: await t.forge.expired(await globalToken(t)) }) },
  { name: 'a token that is not yet valid', signature: false, needsSigningKey: true, make: async (t) => ({ token: await t.forge.notYetValid(await globalToken(t)) }) },
  { name: 'a token for another audience', signature: false, needsSigningKey: true, make: async (t) => ({ token: await t.forge.wrongAudience(await globalToken(t)) }) },
  { name: 'a token from another issuer', signature: false, needsSigningKey: true, make: async (t) => ({ token: await t.forge.wrongIssuer(await globalToken(t)) }) },
];

export async function credentialFor(target: TargetSession, bad: BadCredential): Promise<Credential> {
  if (bad.needsSigningKey) target.signingKey();
  return bad.make(target);
}
