// The harness of one conformance run: built once per run in the test worker from the run
// settings and shared by every test, so the budget, the pacing state, the token cache and the
// shared requests span the whole run. A new run id (the mutation gate runs many runs in one
// worker) builds a new one.
import { RequestBudget } from './budget.ts';
import { ExchangeLog } from './exchange-log.ts';
import { TokenForge } from './forge.ts';
import { TargetHttp, type Exchange, type OutgoingRequest } from './http.ts';
import { RateLimitPacer } from './pacer.ts';
import { redactor } from './redact.ts';
import type { RunSettings } from './settings.ts';
import { SharedRequests } from './shared.ts';
import { TOKEN_REUSE_MARGIN_MS, TokenProvider } from './tokens.ts';

/** Who is told of each request actually sent: the running test's session. */
export interface RequestCounter {
  readonly name: string;
  /** The positive control the running test's refusals stand on, once it was accepted. */
  readonly controlled: string | undefined;
  /** A request of the test's own (not of a shared key); `retry`: a 429 retried, outside any plan. */
  countOwn(request: OutgoingRequest, retry: boolean): void;
  countLabel(request: OutgoingRequest): void;
}

export interface Runtime {
  settings: RunSettings;
  budget: RequestBudget;
  pacer: RateLimitPacer;
  http: TargetHttp;
  tokens: TokenProvider;
  forge: TokenForge;
  shared: SharedRequests;
  /**
   * Every answer of the management interface in this run, in order (run-wide checks read it), each
   * as its summary: what outlives the test that read an answer is bounded, never its whole body.
   */
  answers: Exchange[];
  /** The counter of the test that is running (tests of a run are sequential). */
  current: RequestCounter | undefined;
  /** Told of every answer while set, with the shared key it was for (the confirmation of failures, harness/confirm.ts). */
  observer: ((exchange: Exchange, sharedKey: string | undefined) => void) | undefined;
  /** Requests spent confirming failures, out of settings.confirmation.reserve. */
  confirmationSpent: number;
}

let runtime: Runtime | undefined;

/** The running test's session, if a conformance test is running. */
export function currentTest(): RequestCounter | undefined {
  return runtime?.current;
}

export function runtimeFor(settings: RunSettings): Runtime {
  if (runtime?.settings.runId === settings.runId) return runtime;
  const budget = new RequestBudget(settings.maxRequests);
  const pacer = new RateLimitPacer({
    share: settings.rateShare,
    testDouble: settings.target.testDouble,
    declared: settings.target.rateLimit,
    deadline: settings.deadline,
    ...(settings.rateLimitProbe ? { initial: settings.rateLimitProbe } : {}),
  });
  const shared = new SharedRequests();
  const log = settings.recordTo === undefined ? undefined : recordingLog(settings);
  const built = {
    settings,
    budget,
    pacer,
    shared,
    answers: [],
    current: undefined,
    observer: undefined,
    confirmationSpent: 0,
  } as unknown as Runtime;
  built.http = new TargetHttp({
    budget,
    pacer,
    requestTimeoutMs: settings.requestTimeoutMs,
    deadline: settings.deadline,
    onSend: (request, { retry }) => {
      // Any token request meant to mint (the token endpoint's tests send their own) keeps to --max-tokens.
      built.tokens.refuseUnaffordable(request);
      built.current?.countLabel(request);
      const key = shared.attributedTo;
      if (key !== undefined) shared.count(key);
      else built.current?.countOwn(request, retry);
    },
    onAnswer: (exchange) => {
      const key = shared.attributedTo;
      if (key !== undefined) shared.witness(key, exchange);
      built.tokens.witness(exchange);
      built.observer?.(exchange, key);
      log?.write({
        startedAt: new Date(exchange.at - exchange.ms).toISOString(),
        durationMs: exchange.ms,
        request: {
          method: exchange.request.method,
          url: exchange.request.url,
          headers: lowerCased(exchange.request.headers),
          ...(exchange.request.body !== undefined ? { body: exchange.request.body } : {}),
        },
        response: { status: exchange.status, headers: exchange.headers, body: exchange.text },
        sender: key !== undefined ? { shared: key } : { test: built.current?.name ?? 'preflight' },
      });
    },
  });
  built.tokens = new TokenProvider(built.http, settings.target, shared, {
    ...(settings.tokenPolicy ? { policy: settings.tokenPolicy } : {}),
    validUntil: settings.deadline + TOKEN_REUSE_MARGIN_MS,
  });
  built.forge = new TokenForge(built.http, settings.target, shared);
  const previous = runtime;
  runtime = built;
  void previous?.http.close();
  return built;
}

/**
 * The run's recording (--record). This worker's redactor is told the target's secrets here, since
 * the target file was read in the runner's process; the tokens the run obtains it learns as they come.
 */
function recordingLog(settings: RunSettings): ExchangeLog {
  const { roles, tokenAlternatives } = settings.target;
  for (const role of Object.values(roles)) redactor.add(role?.clientSecret);
  for (const client of [tokenAlternatives.otherAudience, tokenAlternatives.otherTenant]) redactor.add(client?.clientSecret);
  redactor.add(tokenAlternatives.expiredToken);
  return new ExchangeLog(settings.recordTo!);
}

/** Header names in lower case; a header sent more than once is recorded as its values joined (RFC 9110 5.3). */
function lowerCased(headers: Record<string, string | string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), [value].flat().join(', ')]));
}
