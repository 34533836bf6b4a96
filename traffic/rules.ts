// What a passive judge holds each operation to, one typed row per operation, every value read from
// specs/ and every clause an id of specs/clauses.yaml (a test checks each resolves). This is the
// table the operation cards will one day give: until then it is written once here.
import { clause, clauses, observed, operation, type OperationKey } from '../specs/index.ts';

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

const scopeOf = (op: OperationKey) => observed.operations[op].scope.value;

export const operationRules: Record<OperationKey, OperationRules> = {
  redeliver: {
    scope: { value: scopeOf('redeliver'), clauses: ['redeliver.scope', 'redeliver.errors.403.scope'] },
    unauthenticated: {
      refused: 'auth.bearer.required',
      answered401: 'redeliver.errors.401.invalid-token',
      unsigned: 'redeliver.errors.401.signature',
    },
    ...(operation('redeliver').requiresGlobalClient
      ? { globalClient: { rule: 'redeliver.global-client', refusal: 'redeliver.errors.401.not-global' } }
      : {}),
    success: {
      contract: { status: Number(operation('redeliver').responseStatuses.find((s) => s.startsWith('2'))), clause: 'redeliver.success.202' },
      observed: { status: observed.operations.redeliver.success.status, clause: 'redeliver.success.202' },
    },
    emptySuccessClause: 'redeliver.response.body',
    pathLimits: limitsOf('redeliver', 'path'),
    headerLimits: limitsOf('redeliver', 'header'),
  },
  'sso-ticket': {
    scope: { value: scopeOf('sso-ticket'), clauses: ['sso-ticket.scope'] },
    unauthenticated: { refused: 'auth.bearer.required', answered401: 'errors.401.all-operations', unsigned: 'errors.401.all-operations' },
    success: { observed: { status: observed.operations['sso-ticket'].success.status, clause: 'sso-ticket.success.status' } },
    successBody: {
      schema: 'SsoTicket',
      contentTypeClause: 'sso-ticket.response.content-type',
      contractClause: () => 'sso-ticket.response.ticket',
      shapeClause: 'sso-ticket.response.shape',
    },
    pathLimits: limitsOf('sso-ticket', 'path'),
    headerLimits: limitsOf('sso-ticket', 'header'),
    customDomainHeader: clause('sso-ticket.header.custom-domain.length').limit!.location.name!,
    customDomainHostClause: 'sso-ticket.custom-domain.host',
    body: {
      schema: 'SsoTicketRequest',
      clausePrefix: 'sso-ticket.body',
      observedClause: 'sso-ticket.body.nested-rules',
      optionalClause: 'sso-ticket.body.optional',
    },
  },
  vault: {
    scope: { value: scopeOf('vault'), clauses: ['vault.scope'] },
    unauthenticated: { refused: 'auth.bearer.required', answered401: 'errors.401.all-operations', unsigned: 'errors.401.all-operations' },
    success: { observed: { status: observed.operations.vault.success.status, clause: 'vault.success.status' } },
    successBody: {
      schema: 'FlowsVaultConnection',
      contentTypeClause: 'vault.response.content-type',
      contractClause: (property) => `vault.record.${property}`,
      shapeClause: 'vault.response.shape',
    },
    echoes: { param: 'id', field: 'id', clause: 'vault.response.record' },
    pathLimits: limitsOf('vault', 'path'),
    headerLimits: limitsOf('vault', 'header'),
    notFound: { error: 'vault_connection_not_found', clause: 'errors.404.vault' },
  },
};

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
