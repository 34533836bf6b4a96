// Refusals judged against the credential that was sent (spec 5 and 7): a request without a valid
// bearer token must be refused, with 401 where the spec or the real service says so; a token the
// recording's own token endpoint issued, still valid, satisfies the security scheme; authentication
// comes before everything else. A 401 to a token that only its signature could make invalid is
// not judged: the recording has no key to check the signature with.
import type { RecordingContext } from '../context.ts';
import { clientOf, NOT_GLOBAL_MESSAGE } from '../context.ts';
import { isRefusal, isSuccess, judge, type Classified, type Judgment } from '../judgment.ts';
import { sharedClauses, type OperationRules } from '../rules.ts';

export function credentialJudgments(x: Classified, rules: OperationRules, context: RecordingContext, inputRefusable: boolean): Judgment[] {
  const { credential, status } = x;
  if (status === 429) return [];
  if (credential.kind === 'unreadable') {
    return [judge(rules.unauthenticated.refused, x, `refuses ${credential.why}`, 'a refusal (4xx other than 429)', refusalProblem(status))];
  }
  if (credential.kind === 'missing' || credential.kind === 'invalid') {
    const what = credential.kind === 'missing' ? 'no Authorization header' : credential.why;
    const named401 =
      credential.kind === 'invalid' && credential.signature ? rules.unauthenticated.unsigned : rules.unauthenticated.answered401;
    return [
      judge(rules.unauthenticated.refused, x, `refuses ${what}`, 'a refusal (4xx other than 429)', refusalProblem(status)),
      judge(named401, x, `answers 401 to ${what}`, '401', status === 401 ? undefined : `${status}`),
      ...(inputRefusable
        ? [
            judge(
              sharedClauses.order,
              x,
              `decides authentication before the path: ${what} and a malformed path`,
              '401',
              status === 401 ? undefined : `${status}`,
            ),
          ]
        : []),
    ];
  }
  if (credential.kind !== 'plausible') return [];
  const issuedAt = context.issuedAt(credential.token);
  if (issuedAt === undefined) return [];
  // A token of the recording's own token endpoint, within its lifetime: the scheme is satisfied
  // unless the global-client rule or the signature (which the endpoint made) says otherwise.
  const what = `a token the token endpoint issued (exchange ${issuedAt})`;
  if (isSuccess(status)) return [judge(sharedClauses.schemes, x, `accepts ${what}`, 'not 401', undefined, [issuedAt])];
  if (status === 401 && messageOf(x) !== NOT_GLOBAL_MESSAGE && !(rules.globalClient && !knownGlobal(credential.token, context))) {
    return [judge(sharedClauses.schemes, x, `accepts ${what}`, 'not 401', `401 ${messageOf(x) ?? ''}`.trim(), [issuedAt])];
  }
  return [];
}

function refusalProblem(status: number): string | undefined {
  return isRefusal(status) ? undefined : isSuccess(status) ? `accepted with ${status}` : `${status}`;
}

export function messageOf(x: { json: unknown }): string | undefined {
  const message = (x.json as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

function knownGlobal(token: Parameters<typeof clientOf>[0], context: RecordingContext): boolean {
  const client = clientOf(token);
  return client !== undefined && (context.hints.globalClients?.includes(client) === true || context.globalRule(client).accepted.length > 0);
}
