// The harness of one conformance run: built once per test worker from the run settings and shared
// by every test, so the budget, the pacing state and the token cache span the whole run.
import { RequestBudget } from './budget.ts';
import { TokenForge } from './forge.ts';
import { TargetHttp, type OutgoingRequest } from './http.ts';
import { RateLimitPacer } from './pacer.ts';
import type { RunSettings } from './settings.ts';
import { TokenProvider } from './tokens.ts';

export interface RequestCounter {
  count(request: OutgoingRequest): void;
}

export interface Runtime {
  settings: RunSettings;
  budget: RequestBudget;
  pacer: RateLimitPacer;
  http: TargetHttp;
  tokens: TokenProvider;
  forge: TokenForge;
  /** The counter of the test that is running (tests of a run are sequential). */
  current: RequestCounter | undefined;
}

let runtime: Runtime | undefined;

export function runtimeFor(settings: RunSettings): Runtime {
  if (runtime) return runtime;
  const budget = new RequestBudget(settings.maxRequests);
  const pacer = new RateLimitPacer({ maxWaitMs: settings.maxRateLimitWaitMs });
  const built: Runtime = {
    settings,
    budget,
    pacer,
    current: undefined,
    http: new TargetHttp({
      budget,
      pacer,
      requestTimeoutMs: settings.requestTimeoutMs,
      deadline: settings.deadline,
      onSend: (request) => built.current?.count(request),
    }),
  } as Runtime;
  built.tokens = new TokenProvider(built.http, settings.target);
  built.forge = new TokenForge(built.http, settings.target);
  runtime = built;
  return built;
}
