// Observed: a token is let through for a tolerance of clock skew after its exp (the mock's 30 s; the
// real service publishes none), and refused after it. A verifier that keeps what it verified (a cache
// keyed by the Authorization value) must not keep it past that: the same token, accepted in the last
// seconds of its tolerance, is refused once the tolerance has passed. Only the target's signing key
// makes such a token (test doubles); a target whose tolerance is shorter refuses it at once, and the
// test has nothing to read.
import { conformance, expectClause, minted, role } from '../../harness/index.ts';
import { operationNeeds } from '../../harness/suite/requests.ts';
import { observed } from '../../specs/index.ts';

const SKEW_SECONDS = observed.tokens.clock_skew_seconds.value;
/** How long the token has left of its tolerance when it is first sent. */
const LEFT_SECONDS = 2;
/** After the tolerance, time for the clocks of the suite and the target to disagree a little. */
const MARGIN_MS = 1_500;

conformance(
  `[§5 auth.token.claims] a token accepted in the last seconds of its ${SKEW_SECONDS} s tolerance after exp is refused with 401 once the tolerance has passed (no verification kept past it)`,
  { operation: 'vault', needs: [...operationNeeds('vault'), minted('signing-key'), role('global')], requests: 2 },
  async ({ target }) => {
    let expSeconds = 0;
    const token = await target.resigned((claims, now) => {
      expSeconds = now - SKEW_SECONDS + LEFT_SECONDS;
      // Issued as the tenant issues them, a lifetime before its exp.
      return { ...claims, iat: expSeconds - observed.tokens.expires_in, exp: expSeconds };
    });
    const params = { id: target.target.fixtures.vaultConnections[0]! };
    const first = await target.call('vault', { params, as: { token } });
    target.needs(
      first.status === 200,
      `the token ${SKEW_SECONDS - LEFT_SECONDS} s past its exp was answered ${first.status}: the target's tolerance is shorter, so nothing was verified to keep`,
    );
    const waitMs = Math.max(0, (expSeconds + SKEW_SECONDS) * 1000 - Date.now()) + MARGIN_MS;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    const again = await target.call('vault', { params, as: { token } });
    expectClause({
      pass: again.status === 401,
      expected: `401 for the same token ${Math.round(Date.now() / 1000 - expSeconds)} s past its exp, beyond the ${SKEW_SECONDS} s tolerance`,
      actual: `${again.status} (it was answered 200 ${Math.round(waitMs / 1000)} s earlier, within the tolerance)`,
      exchange: again,
    });
  },
);
