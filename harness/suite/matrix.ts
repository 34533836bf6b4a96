// The matrix's rows as conformance tests: one test per row and clause it bears on, all reading the
// row's one request (shared), each refusal standing on its positive control (the same request
// without the defect, accepted by the same target in the same run; shared too, so it costs nothing
// where the success is sent anyway). A row with no expectation has no test: `--list` shows it.
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { ClauseCheck, OperationCard, Outcome, RequestTemplate } from '../../specs/cards/card.ts';
import { checkScopeString, clause as clauseOf, errorFact, observed, validator, type OperationKey } from '../../specs/index.ts';
import { cards } from '../../specs/cards/index.ts';
import {
  baseTemplate,
  expectsRefusal,
  fieldName,
  matrix,
  withLenientText,
  withUnusualText,
  type MatrixRow,
  type MatrixNeed,
  type TokenMatrixRow,
  TOKEN_TWINS,
} from '../../specs/matrix/index.ts';
import { validTokenRequest } from '../../specs/cards/token-request.ts';
import { conformance } from '../conformance.ts';
import {
  expectClause,
  expectEqual,
  expectNoProblems,
  expectNotEqual,
  expectOneOf,
  expectObservedError,
  expectPresent,
  expectRefused,
  expectSchema,
  expectStatus,
  expectSuccess,
} from '../expect.ts';
import type { Exchange } from '../http.ts';
import { fixture, minted, role, sharedKeys, type Need, type PlanContext } from '../plan.ts';
import { requestContextOf, tokenContextOf } from '../realize.ts';
import type { TargetSession } from '../session.ts';
import { keyClientTokenOf, operationNeeds, sharedRequest, validTokenRequestOf, type SharedCall } from './requests.ts';

/** The second positive control of a row made with the key client's key: the tenant knows that key. */
export const KEY_CLIENT_CONTROL = "the key client's token request with a client assertion signed with its key";

/** The rows run here: every one against a test double, the core ones elsewhere, unless --matrix says. */
export function matrixScopeOf(context: PlanContext): 'core' | 'full' {
  return context.matrixScope ?? (context.target.testDouble ? 'full' : 'core');
}

/**
 * What keeps a test off a real tenant's core run (extended): it runs against test doubles, or with
 * --matrix full. `what` names the test; `elsewhere` says what checks its clause on the core run.
 */
export function extendedOnly(what: string, elsewhere: string): Need {
  return {
    check: (context) =>
      matrixScopeOf(context) === 'core' ? `${what}: it runs against test doubles, or with --matrix full; ${elsewhere}` : undefined,
    category: 'extended',
  };
}

const extendedRows = extendedOnly('an extended row of the matrix', 'the core rows check its element and clause here');

function needOf(need: MatrixNeed): Need | undefined {
  if ('token' in need) return minted(need.token);
  if ('role' in need) return role(need.role as Parameters<typeof role>[0]);
  if ('fixture' in need) return fixture(need.fixture);
  if ('context' in need) return { check: (context) => need.context(requestContextOf(context.target)), category: 'config' };
  return undefined;
}

/** How a title says what a check expects of the answer. */
function verbOf(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'accept':
      return 'accepts';
    case 'refuse':
      return 'refuses';
    case 'status':
      return `answers ${outcome.status} to`;
    case 'either':
      return `answers ${outcome.statuses.join(' or ')} to`;
    case 'observed-error': {
      const fact = errorFact(outcome.error);
      const naming = outcome.naming ? ` naming ${outcome.naming}${outcome.notNaming ? ", no other operation's scope" : ''}` : '';
      return `answers ${fact.status} ${fact.errorCode ?? JSON.stringify(fact.message ?? fact.prefix)}${naming} to`;
    }
    case 'token-error':
      return `answers ${observed.tokens.errors[outcome.error]!.status} ${outcome.error} to`;
    case 'token-without-scope':
      return `issues no token carrying ${outcome.scope} for`;
    case 'token-with-scopes':
      return `refuses, or issues a token carrying ${outcome.scopes.join(' ')}, for`;
    case 'token-of-catalogue':
      return 'refuses, or issues a token whose scope claim lists catalogue scopes one space apart, for';
  }
}

/** How a title says which body a row varies. */
export const BASE_NOTES = {
  valid: '',
  alone: ' (alone in the body)',
  every: ' (among every body field)',
  'alone-form': ' (alone in a form-encoded body)',
  'every-other-group': ' (among every body field, the other exclusive group swapped in)',
  'both-groups': ' (among every body field, both exclusive groups together)',
  unusual: ' (beside every optional part in a less common valid form)',
  lenient: ' (beside forms the spec leaves open, which this target takes)',
} as const;

/** A test's title: "[§8 redeliver.path.id.length] redelivery refuses a request with the stream id of 25 characters". */
export function rowTitle(subject: string, check: ClauseCheck, what: string): string {
  return `[§${clauseOf(check.clause).section} ${check.clause}] ${subject} ${verbOf(check.outcome)} a request with ${what}`;
}

/** Checks an answer against what a clause requires of it. */
export function checkOutcome(exchange: Exchange, outcome: Outcome): void {
  switch (outcome.kind) {
    case 'accept':
      return expectSuccess(exchange);
    case 'refuse':
      return expectRefused(exchange);
    case 'status':
      return expectStatus(exchange, outcome.status);
    case 'either':
      return expectOneOf(exchange, outcome.statuses);
    case 'observed-error':
      return expectObservedError(exchange, outcome.error, outcome.naming, outcome.notNaming);
    case 'token-error':
      return expectTokenError(exchange, outcome.error);
    case 'token-without-scope':
      return expectNoTokenWithScope(exchange, outcome.scope);
    case 'token-with-scopes':
      return expectNoTokenWithout(exchange, outcome.scopes);
    case 'token-of-catalogue':
      return expectCatalogueScopes(exchange);
  }
}

/**
 * A refusal, or a token whose scope claim is scopes of the catalogue written action:resource, one
 * space between each and none around them (RFC 6749 3.3): the claim as the server writes it, not as
 * the request wrote it.
 */
function expectCatalogueScopes(exchange: Exchange): void {
  const token = (exchange.json as { access_token?: unknown } | undefined)?.access_token;
  // Refused, or answered without a token: no claim to judge (as expectNoTokenWithScope).
  if (exchange.status >= 300 || typeof token !== 'string') return expectNoProblems([], 'no token issued', { exchange });
  let claim: unknown;
  try {
    claim = decodeJwt(token).scope;
  } catch {
    claim = undefined;
  }
  const check = typeof claim === 'string' ? checkScopeString(claim) : undefined;
  const problems = !check
    ? [`scope claim ${JSON.stringify(claim)}`]
    : [
        ...check.malformed.map((scope) => `${JSON.stringify(scope)} not action:resource`),
        ...check.unknown.map((scope) => `${scope} not of the catalogue`),
        ...(check.scopes.join(' ') === claim ? [] : [`the claim ${JSON.stringify(claim)} not written one space apart`]),
      ];
  expectNoProblems(problems, "the issued token's scope claim: catalogue scopes, one space apart", { exchange });
}

/** A refusal, or a token whose scope claim carries every one of `scopes`. */
function expectNoTokenWithout(exchange: Exchange, scopes: string[]): void {
  if (exchange.status >= 400 && exchange.status < 500 && exchange.status !== 429) return;
  expectSuccess(exchange);
  const token = (exchange.json as { access_token?: unknown } | undefined)?.access_token;
  const carried = typeof token === 'string' ? scopesOfToken(token) : [];
  expectEqual(
    scopes.filter((scope) => !carried.includes(scope)).join(' '),
    '',
    'the scopes the issued token lacks (a token without them is refused everywhere)',
    { exchange },
  );
}

/** A refusal, or a token whose scope claim lacks `scope`. */
function expectNoTokenWithScope(exchange: Exchange, scope: string): void {
  const token = (exchange.json as { access_token?: unknown } | undefined)?.access_token;
  const scopes = typeof token === 'string' && exchange.status < 300 ? scopesOfToken(token) : [];
  expectNotEqual(scopes.includes(scope), true, `whether the issued token carries ${scope}`, { exchange });
}

function scopesOfToken(token: string): string[] {
  try {
    const claim = decodeJwt(token).scope;
    return typeof claim === 'string' ? claim.split(' ') : [];
  } catch {
    return [];
  }
}

/** An error of the token endpoint: its status, its own shape {error, error_description}, and its error code. */
function expectTokenError(exchange: Exchange, error: string): void {
  expectStatus(exchange, observed.tokens.errors[error]!.status);
  expectSchema(exchange, validator('TokenError', 'observed'), `{error: "${error}", error_description}`);
  expectEqual((exchange.json as { error?: unknown } | undefined)?.error, error, 'error', { exchange });
}

interface Control {
  what: string;
  key: (context: PlanContext) => string;
  template: (target: TargetSession) => RequestTemplate;
  /** The control is a form the spec leaves open: where the target refuses it, the row is not applicable. */
  open?: true;
}

/**
 * The positive control of a row beside the less common or the open forms: that request (with every
 * body field, the row's field valid, where it varies one), its token re-signed unchanged where the
 * row re-signs. Beside the open forms a refused control makes the row not applicable: the target
 * need not take them.
 */
function twinControl(card: OperationCard, row: MatrixRow, base: 'unusual' | 'lenient'): Control {
  const field = row.element.kind === 'body-field' ? `every body field, ${fieldName(row.element.path!)} valid, ` : '';
  const forms = base === 'unusual' ? 'its less common forms' : 'the forms the spec leaves open';
  const what = `${field}the valid request in ${forms}${row.variant.resigned ? ', its token re-signed unchanged' : ''}`;
  const finish = base === 'unusual' ? withUnusualText : withLenientText;
  return {
    what,
    key: () => `${card.key}: ${what}`,
    template: (t) => {
      const made = baseTemplate(card, base, row.element, t.context);
      return finish(row.variant.resigned ? { ...made, credential: { kind: 'role', role: 'global', edit: { resign: {} } } } : made);
    },
    ...(base === 'lenient' ? { open: true } : {}),
  };
}

/** The positive control of a row: the same request without its defect. */
function controlOf(card: OperationCard, row: MatrixRow): Control {
  const op = card.key;
  if (row.base === 'unusual' || row.base === 'lenient') return twinControl(card, row, row.base);
  if (row.variant.resigned) {
    return {
      what: 'the valid request with its token re-signed unchanged',
      key: () => sharedRequest.resignedUnchanged(op),
      template: (t) => ({
        ...baseTemplate(card, 'valid', row.element, t.context),
        credential: { kind: 'role', role: 'global', edit: { resign: {} } },
      }),
    };
  }
  if (row.base === 'valid')
    return {
      what: 'the valid request',
      key: () => sharedRequest.success(op),
      template: (t) => baseTemplate(card, 'valid', row.element, t.context),
    };
  const field = fieldName(row.element.path!);
  if (row.base === 'alone' || row.base === 'alone-form') {
    const form = row.base === 'alone-form';
    return {
      what: `${field} alone at a valid value${form ? ', form-encoded' : ''}`,
      key: () => `${sharedRequest.alone(op, field)}${form ? ', form-encoded' : ''}`,
      template: (t) => baseTemplate(card, row.base, row.element, t.context),
    };
  }
  if (row.base === 'every-other-group')
    return {
      what: `every body field at a valid value, the other exclusive group swapped in, ${field} valid`,
      key: () => `${op}: every body field, the other exclusive group swapped in, ${field} valid`,
      template: (t) => baseTemplate(card, 'every-other-group', row.element, t.context),
    };
  if (row.base === 'both-groups')
    return {
      what: `every body field at a valid value, both exclusive groups together, ${field} valid`,
      key: () => `${op}: every body field, both exclusive groups together, ${field} valid`,
      template: (t) => baseTemplate(card, 'both-groups', row.element, t.context),
    };
  const top = row.element.path![0]!;
  const swapped = (context: PlanContext) =>
    !(top in card.body!.full(context.target.fixtures, { global: context.target.roles.global?.clientId ?? '' }));
  return {
    what: 'every body field at a valid value',
    key: (context) => `${op}: every body field${swapped(context) ? ` with ${top}` : ''}`,
    template: (t) => baseTemplate(card, 'every', row.element, t.context),
  };
}

/** Runs one check of a row against the target. */
async function checkRow(
  target: TargetSession,
  card: OperationCard,
  row: MatrixRow,
  check: ClauseCheck,
  control: Control | undefined,
): Promise<void> {
  const context = target.context;
  const varied = row.variant.apply(baseTemplate(card, row.base, row.element, context), context);
  if (row.variant.judge) {
    // The row is described on a target of the observed id shapes; one whose fixtures differ may land elsewhere.
    const here = row.variant.judge(varied, context);
    const same =
      'checks' in here && here.checks.some((c) => c.clause === check.clause && JSON.stringify(c.outcome) === JSON.stringify(check.outcome));
    target.needs(
      same,
      `with this target's fixtures the variation is judged otherwise (${'none' in here ? here.none : here.source})`,
      'config',
    );
  }
  if (control) {
    const key = control.key(target.settings);
    await target.control(control.what, () => target.sendTemplate(control.template(target), { shared: key, label: card.key }), {
      ...(control.open ? { refused: 'not-applicable' as const } : {}),
    });
    if (row.variant.keyClientControl) await target.controlByToken(KEY_CLIENT_CONTROL, () => keyClientTokenOf(target));
  }
  checkOutcome(await target.sendTemplate(varied, { shared: row.id, label: card.key }), check.outcome);
}

/** The plan's needs of a row: the operation's, the variation's, and the scope's for an extended row. */
function rowNeeds(card: OperationCard, row: MatrixRow): Need[] {
  return [
    ...operationNeeds(card.key),
    ...(row.variant.needs ?? []).flatMap((n) => needOf(n) ?? []),
    ...(row.variant.extended ? [extendedRows] : []),
  ];
}

/** The row of an operation's matrix with this id ("<op> <element> <operator>:<key> <base>"); a suite bug where there is none. */
export function matrixRow(op: OperationKey, id: string): MatrixRow {
  const row = matrix().operations[op].find((r) => r.id === id);
  if (!row) throw new Error(`the matrix has no row "${id}"`);
  return row;
}

/** One row's request as a shared call, for tests that read it for another clause (error bodies, rate-limit headers). */
export function matrixRowCall(op: OperationKey, id: string): SharedCall {
  const card: OperationCard = cards[op];
  const row = matrixRow(op, id);
  return {
    plan: { operation: op, needs: rowNeeds(card, row), requests: 0, shared: [row.id] },
    send: (target) => {
      const context = target.context;
      return target.sendTemplate(row.variant.apply(baseTemplate(card, row.base, row.element, context), context), {
        shared: row.id,
        label: op,
      });
    },
  };
}

/**
 * A row's request changed by `edit` (a header added, say), sent as one of the test's own: for tests
 * that compare a target's answer to a row's request with its answer to the same request changed.
 */
export function matrixRowEdited(op: OperationKey, id: string, edit: (template: RequestTemplate) => RequestTemplate): SharedCall {
  const card: OperationCard = cards[op];
  const row = matrixRow(op, id);
  return {
    plan: { operation: op, needs: rowNeeds(card, row), requests: 1 },
    send: (target) => {
      const context = target.context;
      return target.sendTemplate(edit(row.variant.apply(baseTemplate(card, row.base, row.element, context), context)), { label: op });
    },
  };
}

/** Registers the tests of one row of an operation's matrix. */
export function rowTests(card: OperationCard, row: MatrixRow): void {
  if (!('checks' in row.expectation)) return;
  const control = expectsRefusal(row.expectation) ? controlOf(card, row) : undefined;
  const plan = {
    operation: card.key,
    needs: rowNeeds(card, row),
    requests: 0,
    shared: (context: PlanContext) => [
      row.id,
      ...(control ? [control.key(context)] : []),
      ...(control && row.variant.keyClientControl ? [sharedRequest.keyClientToken] : []),
      ...((row.variant.needs ?? []).some((n) => 'jwks' in n) ? [sharedKeys.jwks] : []),
    ],
  };
  const what = `${row.element.label} ${row.variant.says}${BASE_NOTES[row.base]}`;
  for (const check of row.expectation.checks) {
    conformance(rowTitle(card.name, check, what), plan, ({ target }) => checkRow(target, card, row, check, control));
  }
}

/** Checks a token endpoint answer: a success issues a token. */
function checkTokenOutcome(exchange: Exchange, outcome: Outcome): void {
  if (outcome.kind !== 'accept') return checkOutcome(exchange, outcome);
  expectStatus(exchange, 200);
  expectPresent((exchange.json as { access_token?: unknown } | undefined)?.access_token, 'access_token', { exchange });
}

/** The Authorization header the request carried, or "". */
function sentAuthorization(exchange: Exchange): string {
  const value = Object.entries(exchange.request.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  return Array.isArray(value) ? String(value[0] ?? '') : String(value ?? '');
}

/** RFC 6749 5.1: an answer that holds a token carries Cache-Control: no-store. */
export function expectNoStore(exchange: Exchange): void {
  const directives = (exchange.headers['cache-control'] ?? '').split(',').map((directive) => directive.trim().toLowerCase());
  expectClause({
    pass: directives.includes('no-store'),
    expected: 'Cache-Control: no-store, as RFC 6749 5.1 asks of every answer that holds a token',
    actual:
      exchange.headers['cache-control'] === undefined ? 'no Cache-Control header' : `Cache-Control: ${exchange.headers['cache-control']}`,
    exchange,
    headers: ['cache-control'],
  });
}

/** How a title names the form a token row's control is made in ("" for the valid request's). */
const twinSays = (row: TokenMatrixRow) => (row.variant.twin ? ` (${TOKEN_TWINS[row.variant.twin].says})` : '');

/** The shared request a token row's refusal stands on: the valid request, in the row's form. */
const controlKeyOf = (row: TokenMatrixRow) => `${sharedRequest.validTokenRequest}${twinSays(row)}`;

/** The positive control of a token row: the run's valid token request, or the valid request in the row's other form. */
function tokenControlOf(target: TargetSession, row: TokenMatrixRow): Promise<Exchange> {
  const twin = row.variant.twin;
  if (twin === undefined) return validTokenRequestOf(target);
  return target.sendTokenTemplate(TOKEN_TWINS[twin].edit(validTokenRequest(tokenContextOf(target.target))), { shared: controlKeyOf(row) });
}

/** Registers the tests of one row of the token endpoint's matrix. */
export function tokenRowTests(row: TokenMatrixRow): void {
  if (!('checks' in row.expectation)) return;
  const refusal = expectsRefusal(row.expectation);
  const plan = {
    operation: 'token' as const,
    needs: [
      ...(row.variant.needs ?? []).map((n): Need =>
        'role' in n
          ? role(n.role as Parameters<typeof role>[0])
          : {
              check: (context) =>
                context.target.roles.global ? n.context(tokenContextOf(context.target)) : 'no global role is configured',
              category: 'config',
            },
      ),
      ...(row.variant.extended ? [extendedRows] : []),
    ],
    requests: 0,
    shared: [
      row.id,
      ...(refusal ? [controlKeyOf(row)] : []),
      ...(refusal && row.variant.keyClientControl ? [sharedRequest.keyClientToken] : []),
    ],
  };
  for (const check of row.expectation.checks) {
    conformance(rowTitle('the token endpoint', check, `${row.element.label} ${row.variant.says}`), plan, async ({ target }) => {
      if (refusal) await target.control(`a valid client-credentials request${twinSays(row)}`, () => tokenControlOf(target, row));
      if (refusal && row.variant.keyClientControl) await target.controlByToken(KEY_CLIENT_CONTROL, () => keyClientTokenOf(target));
      const context = {
        ...tokenContextOf(target.target),
        ...(row.variant.clientToken ? { clientToken: await target.tokenFor('global') } : {}),
      };
      const exchange = await target.sendTokenTemplate(row.variant.apply(validTokenRequest(context), context), { shared: row.id });
      checkTokenOutcome(exchange, check.outcome);
      // The answer of an accepted request is the endpoint's answer, whole (observed shape).
      if (check.clause === 'token.observed.response' && check.outcome.kind === 'accept') {
        expectSchema(exchange, validator('TokenResponse', 'observed'), '{access_token, token_type: "Bearer", expires_in, scope}');
        expectNoStore(exchange);
        expectAnswerScopeOfToken(exchange);
      }
      // RFC 6749 5.2: a client that authenticated with the Authorization header and failed is
      // answered 401 with a WWW-Authenticate challenge of the scheme it used.
      if (
        check.outcome.kind === 'token-error' &&
        check.outcome.error === 'invalid_client' &&
        /^basic /i.test(sentAuthorization(exchange))
      ) {
        expectClause({
          pass: /^basic\b/i.test(exchange.headers['www-authenticate'] ?? ''),
          expected: 'a WWW-Authenticate challenge of the Basic scheme, as RFC 6749 5.2 asks of a failed Basic authentication',
          actual:
            exchange.headers['www-authenticate'] === undefined
              ? 'no WWW-Authenticate header'
              : `WWW-Authenticate: ${exchange.headers['www-authenticate']}`,
          exchange,
          headers: ['www-authenticate'],
        });
      }
    });
  }
  if (row.expectation.checks.some((check) => ISSUING.has(check.outcome.kind))) issuedTokenTest(row, plan);
}

/** The requests whose issued token a test reads already, by what they say. */
const issuedTested = new Set<string>();

/** Outcomes under which the endpoint may issue a token. */
const ISSUING = new Set<Outcome['kind']>(['accept', 'token-with-scopes', 'token-without-scope', 'token-of-catalogue']);

/** What of a token and its answer is the same for every request of the global client: all but times, jti and scope. */
function tokenKind(exchange: Exchange): Record<string, unknown> | undefined {
  const body = exchange.json as { access_token?: unknown; token_type?: unknown; expires_in?: unknown } | undefined;
  if (exchange.status !== 200 || typeof body?.access_token !== 'string') return undefined;
  try {
    const header = decodeProtectedHeader(body.access_token);
    const { iss, aud, sub, azp, gty, exp, iat } = decodeJwt(body.access_token);
    return {
      alg: header.alg,
      kid: header.kid,
      typ: header.typ,
      iss,
      aud,
      sub,
      azp,
      gty,
      'exp - iat': typeof exp === 'number' && typeof iat === 'number' ? exp - iat : undefined,
      token_type: body.token_type,
      expires_in: body.expires_in,
    };
  } catch {
    return { access_token: 'not a JWS' };
  }
}

/**
 * A request the endpoint may accept, where it did: the token is of the kind the valid request gets
 * (the same header, issuer, audience, subject, grant and lifetime; its scope claim catalogue scopes
 * one space apart), and the answer has the observed shape (its scope included, even where it is the
 * one asked for), whatever made the request differ. A server that issues by another path for
 * another form of request (a JSON body, HTTP Basic, a charset) issues another kind of token there.
 */
function issuedTokenTest(row: TokenMatrixRow, plan: { operation: 'token'; needs: Need[]; requests: number; shared: string[] }): void {
  const accepted = `where it accepts a request with ${row.element.label} ${row.variant.says}`;
  // Two rows that say the same request (a near miss of a granted scope that is also another
  // element's case variation) get one test of what it issued.
  if (issuedTested.has(accepted)) return;
  issuedTested.add(accepted);
  const issuedBy = async (target: TargetSession): Promise<Exchange> => {
    const context = {
      ...tokenContextOf(target.target),
      ...(row.variant.clientToken ? { clientToken: await target.tokenFor('global') } : {}),
    };
    const exchange = await target.sendTokenTemplate(row.variant.apply(validTokenRequest(context), context), { shared: row.id });
    target.needs(
      tokenKind(exchange) !== undefined,
      `the target answered ${exchange.status} without a token: none to read`,
      'not-applicable',
    );
    return exchange;
  };
  const tag = (id: string) => `[§${clauseOf(id).section} ${id}]`;
  conformance(
    `${tag('token.observed.claims')} the token endpoint issues, ${accepted}, the kind of token the valid request gets`,
    { ...plan, shared: [...plan.shared, sharedRequest.validTokenRequest] },
    async ({ target }) => {
      const exchange = await issuedBy(target);
      const valid = tokenKind(await validTokenRequestOf(target));
      target.needs(valid !== undefined, 'the valid token request got no token: none to compare with (see token.endpoint)');
      expectEqual(
        tokenKind(exchange),
        valid,
        "the token's header, claims but times, jti and scope, and its answer's token_type and expires_in",
        {
          exchange,
        },
      );
      expectCatalogueScopes(exchange);
    },
  );
  // The answer whole (observed shape): its scope too, even where it is the one asked for. Where the
  // row's own checks hold it to the shape already (token.observed.response accepted), not again.
  if (
    !('checks' in row.expectation) ||
    row.expectation.checks.some((c) => c.clause === 'token.observed.response' && c.outcome.kind === 'accept')
  )
    return;
  conformance(
    `${tag('token.observed.response')} the token endpoint answers, ${accepted}, a token response of the observed shape`,
    plan,
    async ({ target }) => {
      const exchange = await issuedBy(target);
      expectSchema(exchange, validator('TokenResponse', 'observed'), '{access_token, token_type: "Bearer", expires_in, scope}');
      expectAnswerScopeOfToken(exchange);
    },
  );
}

/**
 * The answer's scope is the issued token's scope claim, as written (observed: the token's scopes,
 * one space apart): an answer built from the client's grant while the token was narrowed to the
 * scopes asked for tells the client it holds what its token does not carry.
 */
function expectAnswerScopeOfToken(exchange: Exchange): void {
  const body = exchange.json as { access_token?: unknown; scope?: unknown } | undefined;
  if (typeof body?.access_token !== 'string' || typeof body.scope !== 'string') return;
  let claim: unknown;
  try {
    claim = decodeJwt(body.access_token).scope;
  } catch {
    return;
  }
  expectEqual(body.scope, claim, "the answer's scope, against the issued token's scope claim", { exchange });
}
