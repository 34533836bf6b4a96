// What a passive judge holds each operation to, read off its operation card (specs/cards/): every
// value from specs/ and every clause an id of specs/clauses.yaml (a test checks each resolves).
import type { OperationCard } from '../specs/cards/card.ts';
import { cards } from '../specs/cards/index.ts';
import { clauses, observed, operation, operationKeys, type OperationKey } from '../specs/index.ts';

export interface OperationRules {
  /** The scope a token needs (observed.yaml; the spec's for redelivery) and the clauses its refusal bears on. */
  scope: { value: string; clauses: readonly string[] };
  /** A request without a valid bearer token: the clause it must be refused by, and the one that names its 401. */
  unauthenticated: { refused: string; answered401: string; unsigned: string };
  /** The global-client rule (openapi x-requires-global-client): the rule and the clause of its 401. */
  globalClient?: { rule: string; refusal: string };
  /** The success status: the spec's, where it states one, and the real service's. */
  success: { contract?: { status: number; clause: string }; observed: { status: number; clause: string } };
  /** The ticket's host is the custom domain the request named (observed): the clause. */
  customDomainHostClause?: string;
  /** The success body: its schema in openapi.yaml, the clause of its content type and of its observed shape. */
  successBody?: {
    schema: string;
    contentTypeClause: string;
    contractClause: (property: string) => string | undefined;
    shapeClause: string;
  };
  /** Redelivery's 202 body (observed: {} as JSON). */
  emptySuccessClause?: string;
  /** The success answers the resource its path names: the path parameter, the body field and the clause. */
  echoes?: { param: string; field: string; clause: string };
  /** Limits on the path and headers, from the clauses whose limit sits on this operation. */
  pathLimits: ReadonlyArray<{ name: string; clause: string }>;
  headerLimits: ReadonlyArray<{ name: string; clause: string }>;
  /** The spec's name of the custom-domain header, which a target may call otherwise (--custom-domain-header). */
  customDomainHeader?: string;
  /** The request body: its schema, where its clauses start, the observed rules' clause, and "every field optional". */
  body?: { schema: string; clausePrefix: string; observedClause: string; optionalClause: string };
  /** The message of a 404 of this operation, when it has one message (observed.yaml errors). */
  notFound?: { error: string; clause: string };
}

function limitsOf(op: OperationKey, where: 'path' | 'header'): Array<{ name: string; clause: string }> {
  return clauses
    .filter((c) => c.limit?.location.operation === op && c.limit.location.in === where)
    .map((c) => ({ name: c.limit!.location.name!, clause: c.id }));
}

/** The one message of a 404, where the operation has one path id and its unknown value gets an observed error. */
function notFoundOf(card: OperationCard): OperationRules['notFound'] {
  const params = Object.values(card.params);
  if (params.length !== 1) return undefined;
  const check = params[0]!.unknown.find((c) => c.outcome.kind === 'observed-error');
  return check && check.outcome.kind === 'observed-error' ? { error: check.outcome.error, clause: check.clause } : undefined;
}

/** What the passive judge holds an operation to, read off its card (specs/cards/). */
function rulesOf(card: OperationCard): OperationRules {
  const op = card.key;
  const { answer } = card;
  const observedSuccess = { status: observed.operations[op].success.status, clause: answer.statusClause };
  const contractStatus = Number(operation(op).responseStatuses.find((s) => /^2\d\d$/.test(s)));
  const notFound = notFoundOf(card);
  const customDomain = card.spec.parameters.find((p) => p.in === 'header' && p.name !== 'Authorization');
  return {
    scope: { value: card.scope.value, clauses: [...new Set([card.scope.clause, ...card.scope.statusClauses])] },
    unauthenticated: {
      refused: 'auth.bearer.required',
      answered401: card.unauthenticated.clause,
      unsigned: card.unauthenticated.signatureClause,
    },
    ...(card.globalClient ? { globalClient: { rule: card.globalClient.clause, refusal: card.globalClient.statusClause } } : {}),
    success: {
      ...(answer.level === 'contract' && Number.isInteger(contractStatus)
        ? { contract: { status: contractStatus, clause: answer.statusClause } }
        : {}),
      observed: observedSuccess,
    },
    ...(answer.customDomainHostClause ? { customDomainHostClause: answer.customDomainHostClause } : {}),
    ...(answer.body
      ? {
          successBody: {
            schema: answer.body.schema,
            contentTypeClause: answer.body.contentTypeClause,
            contractClause: answer.body.fieldClause,
            shapeClause: answer.body.shapeClause,
          },
        }
      : {}),
    ...(answer.emptyBodyClause ? { emptySuccessClause: answer.emptyBodyClause } : {}),
    ...(answer.echoes ? { echoes: answer.echoes } : {}),
    pathLimits: limitsOf(op, 'path'),
    headerLimits: limitsOf(op, 'header'),
    ...(customDomain && limitsOf(op, 'header').length > 0 ? { customDomainHeader: customDomain.name } : {}),
    ...(card.body
      ? {
          body: {
            schema: card.body.schema,
            clausePrefix: `${op}.body`,
            observedClause: card.body.rulesClause,
            optionalClause: card.body.optionalClause,
          },
        }
      : {}),
    ...(notFound ? { notFound } : {}),
  };
}

export const operationRules = Object.fromEntries(operationKeys.map((op) => [op, rulesOf(cards[op])])) as Record<
  OperationKey,
  OperationRules
>;

/** Clauses of the rules that hold for every operation alike. */
export const sharedClauses = {
  order: 'auth.order',
  schemes: 'auth.schemes',
  errorShape: 'errors.body.shape',
  errorContentType: 'errors.body.content-type',
  message401: 'errors.401.message',
  message403: 'errors.403.scope-named',
  path400: 'errors.400.path',
  body400: 'errors.400.body',
  body429: 'errors.429.body',
  headers429: 'rate-limit.429.headers',
  headersOnSuccess: 'rate-limit.headers.on-success',
  headersConsistent: 'rate-limit.headers.consistent',
  limitConstant: 'rate-limit.limit.constant',
  remainingFalls: 'rate-limit.remaining.falls',
  resetSeconds: 'rate-limit.reset.unix-seconds',
  redeliver429: 'redeliver.errors.429',
} as const;

/** Clauses of the token endpoint. */
export const tokenClauses = {
  issues: 'token.endpoint',
  wrongSecret: 'token.endpoint.wrong-secret',
  audience: 'token.endpoint.audience',
  scopes: 'token.scopes',
  lifetime: 'token.lifetime',
  response: 'token.observed.response',
  claims: 'token.observed.claims',
  errors: 'token.observed.errors',
  catalogue: 'scopes.catalogue',
  jsonRequest: 'token.observed.json-request',
  jwks: 'token.observed.jwks',
} as const;
