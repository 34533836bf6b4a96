// Refusals judged against what the token says it may do: its scope (spec 5 for redelivery, the
// real service's scopes for the other two) and, for redelivery, whether its client is global. A
// client's global-ness is not in its token: the recording shows it (the same client refused as not
// global and accepted elsewhere cannot be both) or the user says it (--global-client,
// --non-global-client).
import { errorFact } from '../../specs/index.ts';
import { clientOf, NOT_GLOBAL_MESSAGE, type RecordingContext } from '../context.ts';
import { isRefusal, isSuccess, judge, type Classified, type Judgment } from '../judgment.ts';
import { sharedClauses, type OperationRules } from '../rules.ts';
import { messageOf } from './credentials.ts';

const insufficientScope = errorFact('insufficient_scope');

/** Whether a 403 says the scope was insufficient (not, say, that the subscription lacks a feature). */
function isScopeRefusal(x: Classified): boolean {
  const body = x.json as { errorCode?: unknown } | undefined;
  return body?.errorCode === insufficientScope.errorCode || (messageOf(x)?.startsWith(insufficientScope.prefix!) ?? false);
}

export function scopeJudgments(x: Classified, rules: OperationRules, inputRefusable: boolean): Judgment[] {
  const { credential, status } = x;
  if (credential.kind !== 'plausible' || status === 429 || status === 401) return [];
  const needed = rules.scope.value;
  const carries = credential.scopes.includes(needed);
  if (!carries) {
    const what = `a token without ${needed} (scope "${credential.scopes.join(' ')}")`;
    if (isSuccess(status)) return rules.scope.clauses.map((c) => judge(c, x, `refuses ${what}`, '403', `accepted with ${status}`));
    if (status === 403) {
      return [
        ...rules.scope.clauses.map((c) => judge(c, x, `answers 403 to ${what}`, '403', undefined)),
        ...(inputRefusable
          ? [judge(sharedClauses.order, x, `decides the scope before the path: ${what} and a malformed path`, '403', undefined)]
          : []),
      ];
    }
    if (isRefusal(status)) {
      return [
        judge(
          sharedClauses.order,
          x,
          `decides the scope before path, body and state: ${what}`,
          '403',
          `${status} ${messageOf(x) ?? ''}`.trim(),
        ),
      ];
    }
    return [];
  }
  if (status === 403 && isScopeRefusal(x)) {
    return rules.scope.clauses.map((c) =>
      judge(c, x, `accepts a token that carries ${needed}`, 'not a 403 for insufficient scope', `403 ${messageOf(x) ?? ''}`.trim()),
    );
  }
  return [];
}

export function globalClientJudgments(x: Classified, rules: OperationRules, context: RecordingContext): Judgment[] {
  const { credential, status } = x;
  if (!rules.globalClient || credential.kind !== 'plausible' || status === 429) return [];
  const client = clientOf(credential.token);
  if (!client) return [];
  const { rule, refusal } = rules.globalClient;
  const seen = context.globalRule(client);
  const refusedElsewhere = seen.refusedAsNotGlobal.filter((p) => p !== x.position);
  const acceptedElsewhere = seen.accepted.filter((p) => p !== x.position);
  const saidGlobal = context.hints.globalClients?.includes(client) === true;
  const saidNotGlobal = context.hints.nonGlobalClients?.includes(client) === true;
  const notGlobal = status === 401 && messageOf(x) === NOT_GLOBAL_MESSAGE;
  if (isSuccess(status) && (saidNotGlobal || refusedElsewhere.length > 0)) {
    const why = saidNotGlobal ? `client ${client}, not global (--non-global-client)` : `client ${client}, refused as not global elsewhere`;
    return [judge(rule, x, `refuses a token of ${why}`, `401 ${NOT_GLOBAL_MESSAGE}`, `accepted with ${status}`, refusedElsewhere)];
  }
  if (notGlobal && (saidGlobal || acceptedElsewhere.length > 0)) {
    const why = saidGlobal ? `client ${client}, global (--global-client)` : `client ${client}, accepted elsewhere`;
    return [rule, refusal].map((c) =>
      judge(c, x, `accepts a token of ${why}`, 'not 401 Client is not global', `401 ${NOT_GLOBAL_MESSAGE}`, acceptedElsewhere),
    );
  }
  if (notGlobal && saidNotGlobal) {
    return [rule, refusal].map((c) =>
      judge(c, x, `answers 401 to a token of client ${client}, not global`, `401 ${NOT_GLOBAL_MESSAGE}`, undefined),
    );
  }
  if (isSuccess(status) && saidGlobal) return [judge(rule, x, `accepts a token of client ${client}, global`, 'success', undefined)];
  return [];
}
