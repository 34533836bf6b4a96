// Before the suite: one token request for the global role. A target that cannot be reached, or
// credentials it refuses, stop the run with a clear message instead of a wall of failed tests.
import { RequestBudget } from '../harness/budget.ts';
import { TargetHttp } from '../harness/http.ts';
import { RateLimitPacer } from '../harness/pacer.ts';
import type { ResolvedTarget } from '../harness/settings.ts';
import { TokenProvider } from '../harness/tokens.ts';

export async function preflight(target: ResolvedTarget, requestTimeoutMs: number): Promise<number> {
  const budget = new RequestBudget(3);
  const http = new TargetHttp({
    budget,
    pacer: new RateLimitPacer({ maxWaitMs: 5_000 }),
    requestTimeoutMs,
    deadline: Date.now() + 4 * requestTimeoutMs,
  });
  try {
    await new TokenProvider(http, target).tokenFor('global');
    return budget.used;
  } finally {
    await http.close();
  }
}
