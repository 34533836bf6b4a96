// The answers themselves, whatever was sent: a success has the status, content type and body the
// spec and the real service give it (spec 2.1, 2.2, 4; observed.yaml); an error has the error
// body of the management interface, and the message its cause is known by.
import type { ErrorObject } from 'ajv';
import { REDACTED } from '../../harness/redact.ts';
import { describeErrors, errorFact, hasClause, hasPrefixedForm, observed, validator } from '../../specs/index.ts';
import { isSuccess, judge, type Classified, type Judgment } from '../judgment.ts';
import { sharedClauses, type OperationRules } from '../rules.ts';
import { messageOf } from './credentials.ts';

export function successJudgments(x: Classified, rules: OperationRules, customDomainHeader: string | undefined): Judgment[] {
  if (!isSuccess(x.status) || x.endpoint.kind !== 'operation') return [];
  const judgments: Judgment[] = [];
  const { contract, observed: seen } = rules.success;
  if (contract)
    judgments.push(
      judge(
        contract.clause,
        x,
        `answers a success ${contract.status}`,
        `${contract.status}`,
        x.status === contract.status ? undefined : `${x.status}`,
      ),
    );
  if (!contract || seen.clause !== contract.clause) {
    judgments.push(
      judge(seen.clause, x, `answers a success ${seen.status}`, `${seen.status}`, x.status === seen.status ? undefined : `${x.status}`),
    );
  }
  const contentType = x.exchange.response.headers['content-type'];
  if (rules.emptySuccessClause) {
    const body = x.exchange.response.body ?? '';
    const problem =
      contentType !== observed.content_type
        ? `content type ${JSON.stringify(contentType)}`
        : JSON.stringify(x.json) !== '{}'
          ? `body ${JSON.stringify(body.slice(0, 80))}`
          : undefined;
    judgments.push(judge(rules.emptySuccessClause, x, `answers {} as ${observed.content_type}`, `{} as ${observed.content_type}`, problem));
  }
  const body = rules.successBody;
  if (!body) return judgments;
  judgments.push(
    judge(
      body.contentTypeClause,
      x,
      'answers with a JSON body',
      'application/json',
      contentType?.startsWith('application/json') ? undefined : `content type ${JSON.stringify(contentType)}`,
    ),
  );
  judgments.push(...schemaJudgments(x, body));
  const domain = rules.customDomainHeader && x.exchange.request.headers[(customDomainHeader ?? rules.customDomainHeader).toLowerCase()];
  const ticket = (x.json as { ticket?: unknown } | undefined)?.ticket;
  if (rules.customDomainHostClause && domain && typeof ticket === 'string') {
    let host: string | undefined;
    try {
      host = new URL(ticket.split(REDACTED).join('redacted')).host;
    } catch {
      host = undefined;
    }
    judgments.push(
      judge(
        rules.customDomainHostClause,
        x,
        'puts the ticket on the custom domain the request named',
        domain,
        host === domain.toLowerCase() ? undefined : `${host ?? 'no URL'}`,
      ),
    );
  }
  if (rules.echoes && x.endpoint.params[rules.echoes.param] !== undefined) {
    const named = x.endpoint.params[rules.echoes.param];
    const got = (x.json as Record<string, unknown> | undefined)?.[rules.echoes.field];
    judgments.push(
      judge(
        rules.echoes.clause,
        x,
        `answers the ${rules.echoes.field} its path names`,
        JSON.stringify(named),
        got === named ? undefined : JSON.stringify(got),
      ),
    );
  }
  return judgments;
}

function schemaJudgments(x: Classified, body: NonNullable<OperationRules['successBody']>): Judgment[] {
  const value = x.json;
  const contract = validator(body.schema, 'contract');
  // A redacted ticket code is still the query value of a URL: held to the contract as a word.
  contract(
    JSON.parse(
      JSON.stringify(value ?? null)
        .split(REDACTED)
        .join('redacted'),
    ),
  );
  const errors = contract.errors ?? [];
  const record = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const properties = Object.keys((contract.schema as { properties?: object }).properties ?? {});
  const required = new Set((contract.schema as { required?: string[] }).required ?? []);
  // One judgment per clause, over the properties present or required (an optional field that is
  // absent says nothing of its clause).
  const byClause = new Map<string, string[]>();
  for (const property of properties) {
    const id = body.contractClause(property);
    if (!id || !hasClause(id) || (!(property in record) && !required.has(property))) continue;
    const mine = errors.filter((e) => propertyOf(e) === property).map(describe);
    byClause.set(id, [...(byClause.get(id) ?? []), ...mine]);
  }
  const whole = errors.filter((e) => propertyOf(e) === undefined).map(describe);
  const judgments = [...byClause].map(([id, problems]) => {
    const all = [...whole, ...problems];
    return judge(
      id,
      x,
      `answers a body valid against ${body.schema} (contract)`,
      `valid ${body.schema}`,
      all.length ? all.join('; ') : undefined,
    );
  });
  // A ticket's code is a credential: redacted in a recording, it cannot be held to its shape.
  if (typeof record.ticket === 'string' && record.ticket.includes(REDACTED)) return judgments;
  const observedCheck = validator(body.schema, 'observed');
  const ok = observedCheck(value);
  judgments.push(
    judge(
      body.shapeClause,
      x,
      `answers a body of the observed shape of ${body.schema}`,
      `valid ${body.schema} (observed)`,
      ok ? undefined : (observedCheck.errors ?? []).map(describe).join('; '),
    ),
  );
  return judgments;
}

function propertyOf(error: ErrorObject): string | undefined {
  if (error.instancePath !== '') return error.instancePath.split('/')[1];
  return error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
}

const describe = (error: ErrorObject) => describeErrors([error]);

/** The 401 messages observed.yaml knows: a 401 that says anything else does not name its cause. */
const known401 = Object.values(observed.errors).filter((fact) => fact.status === 401);
const errorBody = () => validator('ErrorBody', 'observed');

/**
 * Long: one judgment per rule an error answer is held to (status, reason phrase, body shape, the
 * 401 and 403 wordings), each a few lines that read in the order the clauses list them.
 */
export function errorJudgments(x: Classified, rules: OperationRules): Judgment[] {
  if (x.status < 400 || x.endpoint.kind !== 'operation') return [];
  const body = x.json as { statusCode?: unknown; error?: unknown; errorCode?: unknown } | undefined;
  const phrase = observed.reason_phrases[String(x.status)];
  const shapeOk = errorBody()(body);
  const shapeProblem = !shapeOk
    ? (errorBody().errors ?? []).map(describe).join('; ') || 'not a JSON object'
    : body!.statusCode !== x.status
      ? `statusCode ${JSON.stringify(body!.statusCode)}`
      : phrase !== undefined && body!.error !== phrase
        ? `error ${JSON.stringify(body!.error)}`
        : undefined;
  const contentType = x.exchange.response.headers['content-type'];
  const judgments = [
    judge(
      sharedClauses.errorShape,
      x,
      'answers the error body {statusCode, error, message}',
      `{statusCode: ${x.status}, error: ${phrase ?? '?'}, message}`,
      shapeProblem,
    ),
    judge(
      sharedClauses.errorContentType,
      x,
      `answers an error as ${observed.content_type}`,
      observed.content_type,
      contentType === observed.content_type ? undefined : JSON.stringify(contentType),
    ),
  ];
  const message = messageOf(x);
  if (x.status === 401) {
    const named = known401.some((f) => (f.message !== undefined ? message === f.message : hasPrefixedForm(f, message)));
    judgments.push(
      judge(
        sharedClauses.message401,
        x,
        'names the cause of a 401',
        'a message of observed.yaml',
        named ? undefined : JSON.stringify(message),
      ),
    );
  }
  if (x.status === 403 && x.credential.kind === 'plausible' && !x.credential.scopes.includes(rules.scope.value)) {
    const fact = errorFact('insufficient_scope');
    const problem =
      body?.errorCode !== fact.errorCode
        ? `errorCode ${JSON.stringify(body?.errorCode)}`
        : !hasPrefixedForm(fact, message) || !message!.includes(rules.scope.value)
          ? JSON.stringify(message)
          : undefined;
    judgments.push(
      judge(
        sharedClauses.message403,
        x,
        `names the scope it needed (${rules.scope.value})`,
        `${fact.errorCode}, "${fact.prefix}${rules.scope.value}"`,
        problem,
      ),
    );
  }
  if (x.status === 404 && rules.notFound) {
    const fact = errorFact(rules.notFound.error);
    judgments.push(
      judge(
        rules.notFound.clause,
        x,
        'answers 404 with its message',
        JSON.stringify(fact.message),
        message === fact.message ? undefined : JSON.stringify(message),
      ),
    );
  }
  if (x.status === 429) {
    const fact = errorFact('too_many_requests');
    const problem =
      message !== fact.message
        ? JSON.stringify(message)
        : body?.errorCode !== fact.errorCode
          ? `errorCode ${JSON.stringify(body?.errorCode)}`
          : undefined;
    judgments.push(
      judge(sharedClauses.body429, x, 'answers 429 with its message and code', `${fact.errorCode}, "${fact.message}"`, problem),
    );
  }
  return judgments;
}
