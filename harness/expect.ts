// Conformance assertions. The clause is the one the running test cites in its title, so a test
// reads `expectStatus(exchange, 404)` and its failure still prints clause, expected, actual, a body
// excerpt and a replay line.
import type { ValidateFunction } from 'ajv';
import { expect } from 'vitest';
import { describeErrors, hasPrefixedForm, observed, parseClauseTag, validator } from '../specs/index.ts';
import { HarnessError } from './errors.ts';
import { describeCheck, shownValue, type ClauseCheck } from './failure.ts';
import type { Exchange } from './http.ts';
import { currentTest } from './runtime.ts';

/** Clause checks that failed in this worker so far: a test error after one is the target's. */
let failedChecks = 0;

/** How many clause checks have failed so far (conformance.ts tells a failed clause from a suite error by it). */
export function failedClauseChecks(): number {
  return failedChecks;
}

expect.extend({
  toMeetClause(received: ClauseCheck) {
    if (!received.pass) failedChecks += 1;
    return { pass: received.pass, message: () => describeCheck(received) };
  },
});

declare module 'vitest' {
  interface Assertion<T> {
    toMeetClause(): T;
  }
}

/** The clause the running test cites: "[§7 redeliver.errors.404.stream] ..." gives its id. */
export function currentClause(): string {
  const name = expect.getState().currentTestName ?? '';
  const title = name.split(' > ').pop() ?? '';
  const tag = parseClauseTag(title);
  if (!tag) throw new Error(`test "${name}" cites no clause: its title must start with [§<section> <clause-id>]`);
  return tag.id;
}

export interface Check {
  pass: boolean;
  expected: string;
  actual: string;
  exchange?: Exchange;
  headers?: string[];
}

/**
 * A refusal proves something only against a target that accepted the same request without its
 * defect in the same run (the test's positive control, TargetSession.control): a target that
 * refuses everything would pass it. Asserting one without a control is a suite bug. A 429 is not a
 * refusal of the request, and nothing is required outside a conformance run (the harness's own tests).
 */
function requireControl(status: number | undefined, what: string): void {
  if (status === undefined || status < 400 || status >= 500 || status === 429) return;
  const test = currentTest();
  if (test !== undefined && test.controlled === undefined) {
    throw new HarnessError(
      'PLAN_VIOLATION',
      `suite bug: the test asserts ${what} without a positive control (target.control(...)); against a target that refuses everything it would prove nothing`,
    );
  }
}

/** The general form: whether the clause holds, and what was expected and seen. */
export function expectClause(check: Check): void {
  expect({ clause: currentClause(), ...check } satisfies ClauseCheck).toMeetClause();
}

/** Where a value was seen: the exchange (for the excerpt and the replay line) and headers worth showing. */
export interface Seen {
  exchange?: Exchange;
  headers?: string[];
}

/** How a value reads in a failure message: JSON (capped), with undefined said as absent. */
export function shown(value: unknown): string {
  return shownValue(value);
}

function isEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => key in b && isEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

const context = (seen: Seen) => ({
  ...(seen.exchange ? { exchange: seen.exchange } : {}),
  ...(seen.headers ? { headers: seen.headers } : {}),
});

/** `what` of the target is `expected` (deep equality of JSON values); the message shows both values. */
export function expectEqual(actual: unknown, expected: unknown, what: string, seen: Seen = {}): void {
  expectClause({
    pass: isEqual(actual, expected),
    expected: `${what} ${shown(expected)}`,
    actual: `${what} ${shown(actual)}`,
    ...context(seen),
  });
}

/** `what` of the target is anything but `unexpected`. */
export function expectNotEqual(actual: unknown, unexpected: unknown, what: string, seen: Seen = {}): void {
  expectClause({
    pass: !isEqual(actual, unexpected),
    expected: `${what} other than ${shown(unexpected)}`,
    actual: `${what} ${shown(actual)}`,
    ...context(seen),
  });
}

/** `what` of the target holds every one of `expected` (in any order, among others). */
export function expectIncludes(actual: readonly unknown[] | undefined, expected: readonly unknown[], what: string, seen: Seen = {}): void {
  const missing = expected.filter((item) => !(actual ?? []).some((candidate) => isEqual(candidate, item)));
  expectClause({
    pass: actual !== undefined && missing.length === 0,
    expected: `${what} holding ${expected.map(shown).join(', ')}`,
    actual: `${what} ${shown(actual)}${missing.length > 0 && actual !== undefined ? `, without ${missing.map(shown).join(', ')}` : ''}`,
    ...context(seen),
  });
}

/** `what` of the target is present (not undefined, not null). */
export function expectPresent(actual: unknown, what: string, seen: Seen = {}): void {
  expectClause({
    pass: actual !== undefined && actual !== null,
    expected: `${what} present`,
    actual: `${what} ${shown(actual)}`,
    ...context(seen),
  });
}

/** `what` of the target matches a pattern (a string rule, e.g. a path prefix). */
export function expectMatch(actual: string | undefined, pattern: RegExp, what: string, seen: Seen = {}): void {
  expectClause({
    pass: actual !== undefined && pattern.test(actual),
    expected: `${what} matching ${pattern}`,
    actual: `${what} ${shown(actual)}`,
    ...context(seen),
  });
}

/** A list of what is wrong is empty; the message lists it. `rule` says what was expected. */
export function expectNoProblems(problems: readonly string[], rule: string, seen: Seen = {}): void {
  expectClause({
    pass: problems.length === 0,
    expected: rule,
    actual: problems.length === 0 ? 'as expected' : problems.join('; '),
    ...context(seen),
  });
}

export function expectStatus(exchange: Exchange, expected: number, headers?: string[]): void {
  requireControl(expected, `status ${expected}`);
  expectClause({
    pass: exchange.status === expected,
    expected: `status ${expected}`,
    actual: `status ${exchange.status}`,
    exchange,
    ...(headers ? { headers } : {}),
  });
}

/** One of several statuses: two causes of a refusal whose order neither the spec nor the reference gives. */
export function expectOneOf(exchange: Exchange, statuses: readonly number[]): void {
  requireControl(statuses[0], `one of the statuses ${statuses.join(', ')}`);
  expectClause({
    pass: statuses.includes(exchange.status),
    expected: `status ${statuses.join(' or ')}`,
    actual: `status ${exchange.status}`,
    exchange,
  });
}

/** A refusal: a 4xx other than 429 (a rate limit says nothing about the request itself). */
export function expectRefused(exchange: Exchange): void {
  requireControl(400, 'a refusal');
  expectClause({
    pass: exchange.status >= 400 && exchange.status < 500 && exchange.status !== 429,
    expected: 'a refusal (a 4xx status other than 429)',
    actual: `status ${exchange.status}`,
    exchange,
  });
}

export function expectSuccess(exchange: Exchange): void {
  expectClause({
    pass: exchange.status >= 200 && exchange.status < 300,
    expected: 'a success (a 2xx status)',
    actual: `status ${exchange.status}`,
    exchange,
  });
}

/** RFC 9110 5.6.2: a token. */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
/** RFC 9110 5.6.4: a quoted string (its escapes taken as any visible character). */
const QUOTED = '"(?:[\\t !#-\\[\\]-~\\x80-\\xff]|\\\\[\\t -~\\x80-\\xff])*"';
/** RFC 9110 8.3.1: one media type, type "/" subtype, then each parameter as name=value. */
const MEDIA_TYPE = new RegExp(`^(${TOKEN})/(${TOKEN})(?:[ \\t]*;[ \\t]*(?:${TOKEN}=(?:${TOKEN}|${QUOTED}))?)*$`);

/**
 * The type/subtype of a Content-Type, lower case, when the whole value is one media type (RFC 9110
 * 8.3.1); undefined for anything else: two values folded into one field ("a/b, a/b"), a parameter
 * without "=", a stray character.
 */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const match = MEDIA_TYPE.exec(contentType?.trim() ?? '');
  return match ? `${match[1]!}/${match[2]!}`.toLowerCase() : undefined;
}

/** The Content-Type is one media type, application/json (parameters such as charset are allowed), and the body parses. */
export function expectJsonMediaType(exchange: Exchange): void {
  const contentType = exchange.headers['content-type'];
  const mediaType = mediaTypeOf(contentType);
  expectClause({
    pass: mediaType === 'application/json' && exchange.json !== undefined,
    expected: 'content type application/json (one media type, RFC 9110 8.3.1) and a JSON body',
    actual: `content type ${contentType ?? '(absent)'}${exchange.json === undefined ? ', body is not JSON' : ''}`,
    exchange,
    headers: ['content-type'],
  });
}

/** The exact content type the real service sends. */
/** Whether a Content-Type is the observed one (application/json; charset=utf-8), case and white space aside. */
export function isObservedContentType(contentType: string | undefined): boolean {
  const normalise = (value: string) => value.toLowerCase().replace(/\s+/g, '');
  return contentType !== undefined && normalise(contentType) === normalise(observed.content_type);
}

export function expectObservedContentType(exchange: Exchange): void {
  const contentType = exchange.headers['content-type'];
  expectClause({
    pass: isObservedContentType(contentType),
    expected: `content type ${observed.content_type}`,
    actual: `content type ${contentType ?? '(absent)'}`,
    exchange,
    headers: ['content-type'],
  });
}

/** A value (by default the JSON body) matches a schema. */
export function expectSchema(exchange: Exchange, validate: ValidateFunction, what: string, value: unknown = exchange.json): void {
  const valid = validate(value);
  expectClause({ pass: valid, expected: what, actual: valid ? 'valid' : describeErrors(validate.errors), exchange });
}

/** How an answer's body differs from the observed error body of its status (none where it is one). */
export function errorBodyProblems(exchange: Exchange): string[] {
  const validate = validator('ErrorBody', 'observed');
  const body = exchange.json as { statusCode?: unknown; error?: unknown } | undefined;
  const problems: string[] = [];
  if (!validate(body)) problems.push(describeErrors(validate.errors));
  if (body?.statusCode !== exchange.status) problems.push(`statusCode ${shown(body?.statusCode)} is not the status ${exchange.status}`);
  const phrase = observed.reason_phrases[exchange.status];
  if (body?.error !== phrase) problems.push(`error ${shown(body?.error)} is not the reason phrase ${JSON.stringify(phrase)}`);
  return problems;
}

/** The observed error body: {statusCode = status, error = reason phrase, message[, errorCode]}. */
export function expectObservedErrorBody(exchange: Exchange): void {
  requireControl(exchange.status, 'an error body');
  const problems = errorBodyProblems(exchange);
  const phrase = observed.reason_phrases[exchange.status];
  expectClause({
    pass: problems.length === 0,
    expected: `an error body {statusCode: ${exchange.status}, error: "${phrase}", message[, errorCode]}`,
    actual: problems.length === 0 ? 'as expected' : problems.join('; '),
    exchange,
  });
}

/** An observed error message and code, from specs/observed.yaml; its details naming `details` and none of `notNaming`. */
export function expectObservedError(exchange: Exchange, kind: string, details?: string, notNaming: readonly string[] = []): void {
  const fact = observed.errors[kind];
  if (!fact) throw new Error(`observed.yaml has no error ${kind}`);
  requireControl(fact.status, `the ${kind} error`);
  const body = exchange.json as { message?: unknown; errorCode?: unknown } | undefined;
  const message = typeof body?.message === 'string' ? body.message : undefined;
  const messageOk =
    fact.message !== undefined
      ? message === fact.message
      : hasPrefixedForm(fact, message) &&
        (details === undefined || new RegExp(`\\b${details}\\b`).test(message!)) &&
        notNaming.every((name) => !message!.includes(name));
  // A recorded answer without an errorCode is one (most 404s carry none, observed): a body that adds
  // one is another answer, as a framework's default code is.
  const noCode = fact.errorCode === undefined && fact.strength === 'rec';
  const codeOk = fact.errorCode === undefined ? !noCode || body?.errorCode === undefined : body?.errorCode === fact.errorCode;
  const expectedMessage =
    fact.message !== undefined
      ? JSON.stringify(fact.message)
      : `starting ${JSON.stringify(fact.prefix)} (once)${fact.details ? `, then /${fact.details}/` : ''}${details ? ` naming ${details}` : ''}${
          notNaming.length > 0 ? ` and none of ${notNaming.join(', ')}` : ''
        }`;
  expectClause({
    pass: exchange.status === fact.status && messageOk && codeOk,
    expected: `status ${fact.status}, message ${expectedMessage}${fact.errorCode ? `, errorCode ${fact.errorCode}` : noCode ? ', no errorCode (as recorded)' : ''}`,
    actual: `status ${exchange.status}, message ${shown(message)}${fact.errorCode || (noCode && body?.errorCode !== undefined) ? `, errorCode ${shown(body?.errorCode)}` : ''}`,
    exchange,
  });
}
