// Refusals judged against the input that was sent: path parameters and headers outside the limits
// of spec section 8, ticket bodies against the request schema at both levels. Judged only for a
// request the target could not have refused for its credential (a plausible token carrying the
// scope): then a refusal can only be about the input, and a success despite a bad input breaks the
// clause of that input.
import type { ErrorObject } from 'ajv';
import {
  clause,
  compileNode,
  describeErrors,
  errorFact,
  hasClause,
  HOST_NAME_PATTERN,
  limit,
  parameter,
  type OperationKey,
  validator,
} from '../../specs/index.ts';
import { isRefusal, isSuccess, judge, type Classified, type Judgment } from '../judgment.ts';
import { sharedClauses, type OperationRules } from '../rules.ts';
import { messageOf } from './credentials.ts';

const invalidUri = errorFact('invalid_uri');
const invalidBody = errorFact('invalid_body');

/** What is wrong with the request's path parameters at the contract level (their limit clauses) and at the observed level (their shapes). */
export function pathProblems(
  x: Classified,
  rules: OperationRules,
): { limits: Array<{ clause: string; problem: string }>; shape: string[] } {
  if (x.endpoint.kind !== 'operation') return { limits: [], shape: [] };
  const { operation: op, params } = x.endpoint;
  const limits = rules.pathLimits.flatMap(({ name, clause: id }) => {
    const problem = outsideBounds(params[name] ?? '', id);
    return problem ? [{ clause: id, problem: `${name} ${problem}` }] : [];
  });
  const shape = Object.entries(params).flatMap(([name, value]) =>
    observedPath(op, name)(value) ? [] : [`${name} ${JSON.stringify(value)}`],
  );
  return { limits, shape };
}

const observedPathChecks = new Map<string, ReturnType<typeof compileNode>>();
function observedPath(op: OperationKey, name: string) {
  const key = `${op}:${name}`;
  if (!observedPathChecks.has(key)) observedPathChecks.set(key, compileNode(parameter(op, 'path', name).schema, 'observed'));
  return observedPathChecks.get(key)!;
}

const HOST_NAME = new RegExp(HOST_NAME_PATTERN);

function outsideBounds(value: string, id: string): string | undefined {
  const bounds = limit(id);
  const length = [...value].length;
  if (bounds.min !== undefined && length < bounds.min) return `has ${length} characters, under ${bounds.min}`;
  if (bounds.max !== undefined && length > bounds.max) return `has ${length} characters, over ${bounds.max}`;
  return undefined;
}

export function inputJudgments(x: Classified, rules: OperationRules, customDomainHeader: string | undefined): Judgment[] {
  const { status } = x;
  if (status === 401 || status === 403 || status === 429 || !(isSuccess(status) || isRefusal(status))) return [];
  if (x.credential.kind !== 'plausible' || !x.credential.scopes.includes(rules.scope.value)) return [];
  const refused = (problem: string) => (isSuccess(status) ? `accepted with ${status} (${problem})` : undefined);
  const judgments: Judgment[] = [];
  const path = pathProblems(x, rules);
  for (const { clause: id, problem } of path.limits)
    judgments.push(judge(id, x, `refuses a path whose ${problem}`, 'a refusal', refused(problem)));
  if (path.shape.length > 0) {
    judgments.push(
      judge(
        sharedClauses.path400,
        x,
        `answers 400 ${invalidUri.errorCode} to a malformed path id (${path.shape.join(', ')})`,
        `400 ${invalidUri.errorCode}`,
        errorCodeProblem(x, 400, invalidUri),
      ),
    );
  }
  let headerRefusable = false;
  for (const { name, clause: id } of rules.headerLimits) {
    const header = (name === rules.customDomainHeader ? (customDomainHeader ?? name) : name).toLowerCase();
    const value = x.exchange.request.headers[header];
    // Sent more than once, its lines come joined by a comma, which no domain holds: a singleton
    // header given twice is a reason to refuse, whichever line the target reads.
    if (value?.includes(',')) {
      headerRefusable = true;
      continue;
    }
    // The custom domain becomes the host of the ticket URL: one that is no host name (a space or a
    // slash inside) may be refused whatever its length, or give a ticket on exactly that host.
    if (name === rules.customDomainHeader && value !== undefined && !HOST_NAME.test(value)) {
      headerRefusable = true;
      continue;
    }
    const problem = value === undefined ? undefined : outsideBounds(value, id);
    if (!problem) continue;
    headerRefusable = true;
    judgments.push(judge(id, x, `refuses a ${header} header that ${problem}`, 'a refusal', refused(`${header} ${problem}`)));
  }
  if (rules.body) judgments.push(...bodyJudgments(x, rules.body, headerRefusable || path.limits.length + path.shape.length > 0));
  return judgments;
}

/** A refusal must be `status` with the fact's errorCode and message prefix. */
function errorCodeProblem(x: Classified, status: number, fact: { errorCode?: string; prefix?: string }): string | undefined {
  const body = x.json as { errorCode?: unknown } | undefined;
  const message = messageOf(x);
  if (x.status !== status) return `${x.status} ${message ?? ''}`.trim();
  if (body?.errorCode !== fact.errorCode) return `errorCode ${JSON.stringify(body?.errorCode)}`;
  if (fact.prefix && !message?.startsWith(fact.prefix)) return `message ${JSON.stringify(message)}`;
  return undefined;
}

/** `elsewhereRefusable`: the path or a header gives the target another reason to refuse. */
function bodyJudgments(x: Classified, body: NonNullable<OperationRules['body']>, elsewhereRefusable: boolean): Judgment[] {
  const { request } = x.exchange;
  const type = request.headers['content-type'] ?? '';
  const text = request.body ?? '';
  // A form-encoded body is read by the target's flat form parser; only JSON bodies are judged here.
  if (text !== '' && !type.includes('json')) return [];
  let value: unknown = {};
  if (text !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      return [];
    }
  }
  const refused = (problem: string) => (isSuccess(x.status) ? `accepted with ${x.status} (${problem})` : undefined);
  const contract = validator(body.schema, 'contract');
  const observedCheck = validator(body.schema, 'observed');
  // The spec's types refuse it and the real service's published rules allow it (token_lifetime
  // null): the contract lets a target refuse it, and the observed level asks for acceptance, as
  // the active suite's matrix does (specs/matrix/families/body.ts).
  if (!contract(value) && observedCheck(value)) {
    return [
      judge(
        body.observedClause,
        x,
        "accepts a body the real service's rules allow, though the spec's types refuse it",
        'success',
        isSuccess(x.status) ? undefined : `${x.status} ${messageOf(x) ?? ''}`.trim(),
      ),
    ];
  }
  if (!contract(value)) {
    const byClause = new Map<string, string>();
    for (const error of contract.errors ?? []) {
      const id = bodyClauseOf(body.clausePrefix, error);
      if (id && !byClause.has(id)) byClause.set(id, describe(error));
    }
    return [
      ...[...byClause].map(([id, problem]) => judge(id, x, `refuses a body whose ${problem}`, 'a refusal', refused(problem))),
      // Where the path or a header is wrong too, its 400 may be the one answered (errors.two-causes).
      ...((x.status === 400 && !elsewhereRefusable) || isSuccess(x.status) ? [bodyCodeJudgment(x)] : []),
    ];
  }
  if (!observedCheck(value)) {
    const problem = (observedCheck.errors ?? []).map(describe).join('; ');
    return [
      judge(body.observedClause, x, `refuses a body whose ${problem}`, 'a refusal', refused(problem)),
      ...((x.status === 400 && !elsewhereRefusable) || isSuccess(x.status) ? [bodyCodeJudgment(x)] : []),
    ];
  }
  const empty = value !== null && typeof value === 'object' && Object.keys(value).length === 0;
  if (empty && !elsewhereRefusable && (isSuccess(x.status) || x.status === 400)) {
    return [
      judge(
        body.optionalClause,
        x,
        'creates a ticket for a body with none of the optional fields',
        'success',
        isSuccess(x.status) ? undefined : `400 ${messageOf(x) ?? ''}`.trim(),
      ),
    ];
  }
  return [];
}

function bodyCodeJudgment(x: Classified): Judgment {
  return judge(
    sharedClauses.body400,
    x,
    `answers 400 ${invalidBody.errorCode} to an invalid body`,
    `400 ${invalidBody.errorCode}`,
    errorCodeProblem(x, 400, invalidBody),
  );
}

/**
 * The clause a contract-level body error breaks: ttl_sec's range, the body not being an object, or
 * the type clause of the field it is at (sso-ticket.body.<field>[.<member>].type).
 */
function bodyClauseOf(prefix: string, error: ErrorObject): string | undefined {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .filter((s) => !/^\d+$/.test(s));
  if (segments.length === 0) return error.keyword === 'type' ? `${prefix}.object` : undefined;
  const field = `${prefix}.${segments.join('.')}`;
  const id = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].includes(error.keyword) ? `${field}.range` : `${field}.type`;
  return hasClause(id) && clause(id).level === 'contract' ? id : undefined;
}

const describe = (error: ErrorObject) => describeErrors([error]);
