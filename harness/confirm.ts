// A gating failure is confirmed before it fails the release: one failed exchange may be the
// target's fault or a one-off of the way there (a gateway's transient 5xx, a reset connection).
// When the test's requests are safe to send again (refusals and reads: no write, no mint, no
// spending the rate limit on purpose), its body runs once more, its shared requests sent afresh.
// Reused rather than sent again: credentials (tokens, the JWKS) and every shared request the target
// accepted that is not a read (a refusal's positive control, a write or a mint: it stands, and
// sending it again would write or mint again). A failure that comes
// back is confirmed; one that does not is "not reproduced", shown with both exchanges, and its
// clause is not verified (the verdict is INCOMPLETE, never PASS). Confirmations spend a reserve of
// requests the plan counts (settings.confirmation.reserve); past it, failures stay as they are.
import { clause, parseClauseTag } from '../specs/index.ts';
import { HarnessError } from './errors.ts';
import { excerpt } from './failure.ts';
import type { Exchange, OutgoingRequest } from './http.ts';
import { sharedKeys, type EvaluatedPlan } from './plan.ts';
import { redactor } from './redact.ts';
import type { Runtime } from './runtime.ts';
import { SkipRequest, TargetSession } from './session.ts';
import { roleNames } from './settings.ts';
import { SharedRequests } from './shared.ts';

export interface Confirmation {
  outcome: 'reproduced' | 'not reproduced' | 'not confirmed';
  /** Requests sent to confirm it. */
  requests: number;
  /** Not confirmed: why. */
  reason?: string;
  /** Not reproduced: the first failure, and what its requests got the second time. */
  first?: string;
  again?: string[];
}

/** Answers of the second time shown in full at most; the rest are counted. */
const SHOWN_AGAIN = 5;
const READS = new Set(['GET', 'HEAD']);

export interface FailedTest {
  title: string;
  plan: EvaluatedPlan;
  runtime: Runtime;
  error: unknown;
  /** The method and status of every answer the failed run got, and the shared key each was for. */
  answers: ReadonlyArray<{ method: string; status: number; sharedKey: string | undefined }>;
  /** The positive control the failed run's refusals stood on: the test asserts refusals. */
  controlled: string | undefined;
  /** Runs the test's body against a session. */
  rerun: (session: TargetSession) => Promise<void>;
}

/** Confirms a gating failure, if the run confirms failures; undefined for a failure that does not gate. */
export async function confirmFailure(failed: FailedTest): Promise<Confirmation | undefined> {
  const { runtime, plan } = failed;
  const reserve = runtime.settings.confirmation?.reserve;
  if (reserve === undefined || !gates(failed.title, runtime.settings.strict)) return undefined;
  const unsafe = whyNotRepeatable(failed);
  if (unsafe) return { outcome: 'not confirmed', requests: 0, reason: unsafe };
  const resent = resentKeys(plan, runtime.shared);
  const cost = plan.requests + resent.reduce((sum, key) => sum + Math.max(1, runtime.shared.answersOf(key).length), 0);
  if (runtime.confirmationSpent + cost > reserve) {
    return {
      outcome: 'not confirmed',
      requests: 0,
      reason: `confirming it would take ${cost} requests, and ${reserve - runtime.confirmationSpent} of the ${reserve} reserved for confirming failures are left`,
    };
  }

  // The same runtime, but the shared requests it sends again fetched anew.
  const confirming = Object.create(runtime, { shared: { value: new ResendingShared(runtime.shared, new Set(resent)) } }) as Runtime;
  const session = new ConfirmingSession(confirming, failed.title, plan);
  const again: Exchange[] = [];
  const usedBefore = runtime.budget.used;
  const current = runtime.current;
  runtime.current = session;
  runtime.observer = (exchange) => again.push(exchange);
  let error: unknown;
  try {
    await failed.rerun(session);
  } catch (caught) {
    error = caught;
  } finally {
    runtime.current = current;
    runtime.observer = undefined;
  }
  const requests = runtime.budget.used - usedBefore;
  runtime.confirmationSpent += requests;
  if (error instanceof SkipRequest || session.stopped) {
    const why = error instanceof SkipRequest ? error.message : session.stopped!.reason;
    return { outcome: 'not confirmed', requests, reason: `sent again, it could not run: ${redactor.redact(why)}` };
  }
  if (error !== undefined) return { outcome: 'reproduced', requests };
  return { outcome: 'not reproduced', requests, first: messageOf(failed.error), again: describeAnswers(again) };
}

/** Whether a test's failure gates the verdict: its clause is contract-level, or observed under --strict. */
function gates(title: string, strict: boolean): boolean {
  const tag = parseClauseTag(title);
  if (!tag) return true;
  try {
    const level = clause(tag.id).level;
    return level === 'contract' || (level === 'observed' && strict);
  } catch {
    return true;
  }
}

/** Why sending a test's requests again could change the target, or spend what is not the suite's. */
function whyNotRepeatable({ plan, answers, controlled }: FailedTest): string | undefined {
  if (plan.exhaustion) return "it spends the target's rate limit on purpose";
  // A test that asserts refusals stands on a positive control, reused; one that does not and
  // writes or reads a mint's exchange is about that write or mint itself.
  if (controlled === undefined && plan.writes) return 'it writes; its requests are not sent twice';
  if (controlled === undefined && plan.shared.some((key) => key.startsWith(sharedKeys.tokenExchange(''))))
    return "it reads a token's issuing exchange: confirming it would mint another token";
  const own = answers.filter((a) => a.sharedKey === undefined).find(accepted);
  return own
    ? `the target accepted one of its own ${own.method} requests (${own.status}): sent again it would write or mint again`
    : undefined;
}

/** An answer that changed something, or minted: a 2xx to anything but a read. */
function accepted(answer: { method: string; status: number }): boolean {
  return !READS.has(answer.method.toUpperCase()) && answer.status >= 200 && answer.status < 300;
}

const CREDENTIALS = new Set([...roleNames, 'other_audience', 'other_tenant'].map((name) => sharedKeys.token(name)).concat(sharedKeys.jwks));

/** The shared requests a confirmation sends again: all but credentials, the exhaustion and what the target accepted as a write or a mint. */
function resentKeys(plan: EvaluatedPlan, shared: SharedRequests): string[] {
  return plan.shared.filter((key) => !CREDENTIALS.has(key) && key !== sharedKeys.exhaustion && !shared.answersOf(key).some(accepted));
}

function messageOf(error: unknown): string {
  const message = error instanceof HarnessError || error instanceof Error ? error.message : String(error);
  return redactor.redact(message);
}

function describeAnswers(answers: readonly Exchange[]): string[] {
  const lines = answers
    .slice(0, SHOWN_AGAIN)
    .map(
      (a) =>
        `${a.request.method} ${new URL(a.request.url).pathname} -> ${a.status} ${a.headers['content-type'] ?? 'no content type'} ${excerpt(a.text)}`,
    );
  if (answers.length === 0) lines.push('(no request: every answer the test read was shared and reused)');
  if (answers.length > SHOWN_AGAIN) lines.push(`and ${answers.length - SHOWN_AGAIN} more answers`);
  return lines.map((line) => redactor.redact(line));
}

/** Shared requests for a confirmation: those in `resent` fetched anew, the others read from the run's. */
class ResendingShared extends SharedRequests {
  readonly #run: SharedRequests;
  readonly #resent: ReadonlySet<string>;

  constructor(run: SharedRequests, resent: ReadonlySet<string>) {
    super();
    this.#run = run;
    this.#resent = resent;
  }

  override once<T>(key: string, identity: string, payer: string | undefined, fetch: () => Promise<T>): Promise<T> {
    return this.#resent.has(key) ? super.once(key, identity, payer, fetch) : this.#run.once(key, identity, payer, fetch);
  }
}

/** A session whose shared requests go to its own SharedRequests: requests sent for them are not its own. */
class ConfirmingSession extends TargetSession {
  override countOwn(request: OutgoingRequest, retry: boolean): void {
    if (this.runtime.shared.attributedTo === undefined) super.countOwn(request, retry);
  }
}
