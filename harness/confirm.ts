// A gating failure is confirmed before it fails the release: one failed exchange may be the
// target's fault or a one-off of the way there (a gateway's transient 5xx, a reset connection).
// When the test's requests are safe to send again (refusals and reads: no write, no mint, no
// spending the rate limit on purpose), its body runs once more, its shared requests sent afresh
// (tokens and the JWKS are reused: they are credentials, not what failed). A failure that comes
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
  /** Runs the test's body against a session. */
  rerun: (session: TargetSession) => Promise<void>;
}

/** Confirms a gating failure, if the run confirms failures; undefined for a failure that does not gate. */
export async function confirmFailure(failed: FailedTest): Promise<Confirmation | undefined> {
  const { runtime, plan } = failed;
  const reserve = runtime.settings.confirmation?.reserve;
  if (reserve === undefined || !gates(failed.title, runtime.settings.strict)) return undefined;
  const unsafe = whyNotRepeatable(plan, failed.answers, runtime.shared);
  if (unsafe) return { outcome: 'not confirmed', requests: 0, reason: unsafe };
  const resent = resentKeys(plan);
  const cost = plan.requests + resent.reduce((sum, key) => sum + Math.max(1, runtime.shared.answersOf(key).length), 0);
  if (runtime.confirmationSpent + cost > reserve) {
    return {
      outcome: 'not confirmed',
      requests: 0,
      reason: `confirming it would take ${cost} requests, and ${reserve - runtime.confirmationSpent} of the ${reserve} reserved for confirming failures are left`,
    };
  }

  // The same runtime, but shared requests fetched anew (tokens and the JWKS still come from the run's).
  const confirming = Object.create(runtime, { shared: { value: new SharedRequests() } }) as Runtime;
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
function whyNotRepeatable(plan: EvaluatedPlan, answers: FailedTest['answers'], shared: SharedRequests): string | undefined {
  if (plan.writes) return 'it writes; its requests are not sent twice';
  if (plan.exhaustion) return "it spends the target's rate limit on purpose";
  if (plan.shared.some((key) => key.startsWith(sharedKeys.tokenExchange(''))))
    return "it reads a token's issuing exchange: confirming it would mint another token";
  const seen = [...answers.filter((a) => !isCredential(a.sharedKey)), ...resentKeys(plan).flatMap((key) => shared.answersOf(key))];
  const accepted = seen.find((a) => !READS.has(a.method.toUpperCase()) && a.status >= 200 && a.status < 300);
  return accepted
    ? `the target accepted one of its ${accepted.method} requests (${accepted.status}): sent again it would write or mint again`
    : undefined;
}

const CREDENTIALS = new Set([...roleNames, 'other_audience', 'other_tenant'].map((name) => sharedKeys.token(name)).concat(sharedKeys.jwks));

/** A shared request for credentials (a role's or an alternative's token, the JWKS): reused, never what failed. */
function isCredential(key: string | undefined): boolean {
  return key !== undefined && CREDENTIALS.has(key);
}

/** The shared requests a confirmation sends afresh: all but credentials and the exhaustion. */
function resentKeys(plan: EvaluatedPlan): string[] {
  return plan.shared.filter((key) => !isCredential(key) && key !== sharedKeys.exhaustion);
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

/** A session whose shared requests go to its own SharedRequests: requests sent for them are not its own. */
class ConfirmingSession extends TargetSession {
  override countOwn(request: OutgoingRequest, retry: boolean): void {
    if (this.runtime.shared.attributedTo === undefined) super.countOwn(request, retry);
  }
}
