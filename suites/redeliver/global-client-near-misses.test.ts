// Spec section 5 rule 4: redelivery needs a token of a global client. A token names its client
// twice, in azp and in sub (<client>@clients); one whose two names disagree, the global client in
// one and a client that is not global in the other, is no global client's token, however it is
// read. The global role's token re-signed with the target's key: not applicable to a real tenant,
// where the role non_global checks the far case (authorization.test.ts).
import type { JWTPayload } from 'jose';
import { conformance, expectRefused, minted, role } from '../../harness/index.ts';
import { observed } from '../../specs/index.ts';
import { withCredential } from '../requests.ts';

const halves: Array<{ what: string; change: (claims: JWTPayload, other: string) => JWTPayload }> = [
  {
    what: 'whose sub names the global client and whose azp names a client that is not global',
    change: (claims, other) => ({ ...claims, azp: other }),
  },
  {
    what: 'whose azp names the global client and whose sub names a client that is not global',
    change: (claims, other) => ({ ...claims, sub: `${other}${observed.tokens.subject_suffix}` }),
  },
];

for (const { what, change } of halves) {
  const request = withCredential(
    'redeliver',
    `a token ${what}`,
    async (t) => {
      const other = t.target.roles[t.role('non_global')]!.clientId;
      return { token: await t.resigned((claims) => change(claims, other)) };
    },
    { needs: [role('non_global'), minted('signing-key')] },
  );
  conformance(`[§5 redeliver.global-client] redelivery refuses a token ${what}`, request.plan, async ({ target }) => {
    expectRefused(await request.send(target));
  });
}
