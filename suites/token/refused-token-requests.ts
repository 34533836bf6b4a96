// Client-credentials requests of the global role that a conforming token endpoint refuses, each
// changed in one way from the right request and sent once per run: the contract clause (no token)
// and the observed one (the endpoint's error) read the same answer. Wrong secrets near the real
// one (one character short, one more, other letter case) catch comparisons that forgive them;
// audiences near the management interface's catch audience matching that does.
import { otherCase } from '../../generators/index.ts';
import type { TargetSession, TestPlan } from '../../harness/index.ts';
import { urlNearMisses } from '../auth/near-miss-credentials.ts';
import { sharedRequest } from '../requests.ts';

export interface RefusedTokenRequest {
  /** What is wrong, read after "a request with". */
  what: string;
  plan: TestPlan;
  send(target: TargetSession): ReturnType<TargetSession['tokenRequest']>;
}

function refused(what: string, overrides: (target: TargetSession) => Parameters<TargetSession['tokenRequest']>[1]): RefusedTokenRequest {
  const key = sharedRequest.tokenRequestWith(what);
  return {
    what,
    plan: { operation: 'token', requests: 0, shared: [key] },
    send: (target) =>
      target.shared(key, `a client-credentials request of role global with ${what}`, () =>
        target.tokenRequest('global', overrides(target)),
      ),
  };
}

const secretOf = (target: TargetSession) => target.target.roles.global!.clientSecret;

/** Every letter of a text in the other case. */
function swapCase(text: string): string {
  return [...text].map(otherCase).join('');
}

/** A secret that is nobody's: the far case. */
export const wrongSecret = refused('a wrong client secret', () => ({ clientSecret: 'a-wrong-secret-for-the-conformance-suite' }));

export const nearMissSecrets: RefusedTokenRequest[] = [
  refused('the client secret without its last character', (t) => ({ clientSecret: secretOf(t).slice(0, -1) })),
  refused('the client secret with its first character added at the end', (t) => ({ clientSecret: `${secretOf(t)}${secretOf(t)[0]}` })),
  refused('the client secret in the other letter case', (t) => ({ clientSecret: swapCase(secretOf(t)) })),
];

export const nearMissAudiences: RefusedTokenRequest[] = urlNearMisses.map(({ what, change }) =>
  refused(`the management audience ${what}`, (t) => ({ audience: change(t.target.audience) })),
);
