// Observed: every error of the management interface has one body shape and one content type, on
// every operation. One table over errors a conforming target gives, each read from a request the
// matrix already sends (suites/matrix/), each standing on the operation's valid request as its
// positive control. A path under the interface that no route takes is answered by the interface
// too: where the answer is an error, it is the same body (a framework's default HTML 404 is not).
import {
  conformance,
  errorBodyProblems,
  expectNoProblems,
  expectObservedContentType,
  expectObservedError,
  expectObservedErrorBody,
} from '../../harness/index.ts';
import { bearerTokenOf, decodeToken } from '../../harness/exchange-record.ts';
import { matrixRowCall, matrixRowEdited } from '../../harness/suite/matrix.ts';
import { sharedRequest, successOf, type SharedCall } from '../../harness/suite/requests.ts';
import { card as cardOf, cards } from '../../specs/cards/index.ts';
import { basePath, clause as clauseOf, observed, type OperationKey } from '../../specs/index.ts';
import { matrix } from '../../specs/matrix/index.ts';

/** The errors of each operation, each a row of its matrix: what the error is, and the row's id. */
function errorsOf(op: OperationKey): Array<{ error: string; row: string }> {
  const card = cardOf(op);
  const param = Object.keys(card.params)[0]!;
  const rows = [
    { error: '401 (no token)', row: 'authorization absent:absent valid' },
    { error: '403 (scope missing)', row: `token.scope.${card.scope.value} other-owner:role-without-scope valid` },
    { error: `400 (${param} of another resource's shape)`, row: `path.{${param}} other-owner:another-kind valid` },
    { error: `404 (unknown ${card.params[param]!.names})`, row: `path.{${param}} near-value:unknown valid` },
  ];
  if (card.body) rows.push({ error: '400 (ttl_sec of another type)', row: 'body.ttl_sec other-type:type-string alone' });
  return rows.map(({ error, row }) => ({ error, row: `${op} ${row}` }));
}

for (const card of Object.values(cards)) {
  const control = successOf(card.key);
  for (const { error, row } of errorsOf(card.key)) {
    const request: SharedCall = matrixRowCall(card.key, row);
    const plan = { ...request.plan, shared: [...(request.plan.shared as string[]), sharedRequest.success(card.key)] };
    conformance(`[§7 errors.body.shape] the ${error} error of ${card.key} has the error body shape`, plan, async ({ target }) => {
      await target.control('the valid request', () => control.send(target));
      expectObservedErrorBody(await request.send(target));
    });
    conformance(
      `[§7 errors.body.content-type] the ${error} error of ${card.key} is application/json; charset=utf-8`,
      plan,
      async ({ target }) => {
        await target.control('the valid request', () => control.send(target));
        expectObservedContentType(await request.send(target));
      },
    );
  }
}

// Nor with the type the caller prefers: the service's answers are JSON whatever Accept names (spec
// 4), so an error to a request whose Accept prefers HTML, as a browser's does, is still the JSON
// error body. A framework that picks its error page by content negotiation answers HTML.
const PREFERS_HTML = 'text/html, application/json;q=0.9';
for (const card of Object.values(cards)) {
  const control = successOf(card.key);
  for (const { error, row } of errorsOf(card.key).slice(0, 1)) {
    const request = matrixRowEdited(card.key, row, (template) => ({
      ...template,
      headers: { ...template.headers, accept: [PREFERS_HTML] },
    }));
    const plan = { ...request.plan, shared: [sharedRequest.success(card.key)] };
    conformance(
      `[§7 errors.body.content-type] the ${error} error of ${card.key} to a request whose Accept prefers HTML is application/json; charset=utf-8`,
      plan,
      async ({ target }) => {
        await target.control('the valid request', () => control.send(target));
        expectObservedContentType(await request.send(target));
      },
    );
  }
}

// The errors do not change with the language the caller prefers: the service's messages are its
// own, in one language (observed: each error's message is one text, errors.yaml), so the 404 of an
// unknown resource asked for with Accept-Language preferring German, then French, is the answer
// the same request gets without it, status and body alike. A server that translates its messages
// by Accept-Language (an i18n middleware) gives callers another text to match.
const OTHER_LANGUAGES = 'de-DE, de;q=0.9, fr;q=0.8';
for (const card of Object.values(cards).map((c) => cardOf(c.key))) {
  const param = Object.keys(card.params)[0]!;
  const row = `${card.key} path.{${param}} near-value:unknown valid`;
  const without = matrixRowCall(card.key, row);
  const withLanguage = matrixRowEdited(card.key, row, (template) => ({
    ...template,
    headers: { ...template.headers, 'accept-language': [OTHER_LANGUAGES] },
  }));
  const control = successOf(card.key);
  const plan = { ...withLanguage.plan, shared: [...(without.plan.shared as string[]), sharedRequest.success(card.key)] };
  // Filed under the operation's observed clause of that 404 (its message), or the body's shape.
  const tag =
    card.params[param]!.unknown.map((check) => check.clause).find((id) => clauseOf(id).level === 'observed') ?? 'errors.body.shape';
  conformance(
    `[§${clauseOf(tag).section} ${tag}] the 404 (unknown ${card.params[param]!.names}) error of ${card.key} is the same whatever language Accept-Language prefers`,
    plan,
    async ({ target }) => {
      // A target that answers 404 to everything would compare two alike refusals: the valid request must succeed.
      await target.control('the valid request', () => control.send(target));
      const plain = await without.send(target);
      target.needs(
        plain.status === 404,
        `the target answered ${plain.status} to the unknown ${card.params[param]!.names}: no 404 to compare`,
      );
      const asked = await withLanguage.send(target);
      expectNoProblems(
        asked.status === plain.status && JSON.stringify(asked.json) === JSON.stringify(plain.json)
          ? []
          : [
              `${asked.status} ${JSON.stringify(asked.json)} with Accept-Language: ${OTHER_LANGUAGES}, where the same request without it got ${plain.status} ${JSON.stringify(plain.json)}`,
            ],
        `the same status and error body as without Accept-Language`,
        { exchange: asked },
      );
    },
  );
}

/** The operation's path with its first segment after the base path in capitals: a path under the interface that no route takes. */
function unroutedRow(op: OperationKey): string {
  const depth = basePath.split('/').length - 1;
  const row = matrix().operations[op].find(
    (r) => r.element.kind === 'path-literal' && r.element.segment!.index === depth && r.variant.key === 'case',
  );
  if (!row) throw new Error(`the matrix of ${op} has no row for its first segment in capitals`);
  return row.id;
}

for (const card of Object.values(cards)) {
  const control = successOf(card.key);
  const request: SharedCall = matrixRowCall(card.key, unroutedRow(card.key));
  const plan = { ...request.plan, shared: [...(request.plan.shared as string[]), sharedRequest.success(card.key)] };
  const checks = [
    { clause: 'errors.body.shape', says: 'has the error body shape', check: expectObservedErrorBody },
    { clause: 'errors.body.content-type', says: 'is application/json; charset=utf-8', check: expectObservedContentType },
  ];
  for (const { clause, says, check } of checks) {
    conformance(
      `[§7 ${clause}] the error of a path under the interface that no route takes (${card.key}'s, its first segment in capitals) ${says}`,
      plan,
      async ({ target }) => {
        await target.control('the valid request', () => control.send(target));
        const answer = await request.send(target);
        target.needs(answer.status >= 400, `the target answered ${answer.status} to the path in capitals: no error to read`);
        check(answer);
      },
    );
  }
}

// A method an operation's path does not take, where the target refuses it 405, is refused with the
// same error body, its error "Method Not Allowed", and the same content type (a proxy's or
// framework's own 405 page, or its text/plain default, is not).
// Read on the matrix's rows of another method (routes.method sends them): no request of its own.
// A method whose answer the matrix leaves open (HEAD: GET without its body) has no row to read.
for (const card of Object.values(cards)) {
  const others = matrix().operations[card.key].filter(
    (row) => row.base === 'valid' && row.variant.operator === 'method' && /^[A-Z]+$/.test(row.variant.key) && !('none' in row.expectation),
  );
  for (const row of others) {
    const call = matrixRowCall(card.key, row.id);
    conformance(
      `[§7 errors.body.shape] ${card.name} sent as ${row.variant.says}, where refused 405, has the error body shape`,
      call.plan,
      async ({ target }) => {
        const exchange = await call.send(target);
        target.needs(exchange.status === 405, `the target answered ${exchange.status}, not 405: no 405 to read`, 'not-applicable');
        expectNoProblems(
          errorBodyProblems(exchange),
          `an error body {statusCode: 405, error: "${observed.reason_phrases[405]!}", message[, errorCode]}`,
          {
            exchange,
          },
        );
      },
    );
    conformance(
      `[§7 errors.body.content-type] ${card.name} sent as ${row.variant.says}, where refused 405, is application/json; charset=utf-8`,
      call.plan,
      async ({ target }) => {
        const exchange = await call.send(target);
        target.needs(exchange.status === 405, `the target answered ${exchange.status}, not 405: no 405 to read`, 'not-applicable');
        expectObservedContentType(exchange);
      },
    );
  }
}

// A token for another API is answered 401 "Bad audience: <audience>" (observed errors bad_audience),
// the audience being the token's: what was wrong with it. A message naming the audience the
// interface requires instead (the value the parser wanted, not the one it was given) tells the
// caller nothing about its token. Read on the matrix's row of a token for another API.
for (const card of Object.values(cards)) {
  const call = matrixRowCall(card.key, `${card.key} token.claims.aud other-owner:other valid`);
  conformance(
    `[§7 errors.401.message] ${card.name} with a token for another API answers 401 "${observed.errors.bad_audience!.prefix!}" naming the token's audience, not the interface's`,
    { ...call.plan, shared: [...(call.plan.shared as string[]), sharedRequest.success(card.key)] },
    async ({ target }) => {
      await target.control('the valid request', () => successOf(card.key).send(target));
      const exchange = await call.send(target);
      const { authorization } = exchange.request.headers;
      const aud = decodeToken(bearerTokenOf({ authorization: typeof authorization === 'string' ? authorization : '' }))?.claims.aud;
      const listed = (Array.isArray(aud) ? aud : [aud]).filter((value): value is string => typeof value === 'string');
      const claimed = listed.length > 0 ? listed : undefined;
      target.needs(claimed !== undefined, 'the token for another API carries no audience to name');
      const required = target.target.audience;
      const named = claimed!.filter((aud) => aud !== required);
      expectObservedError(exchange, 'bad_audience', undefined, named.length === claimed!.length ? [required] : []);
      const message = String((exchange.json as { message?: unknown } | undefined)?.message);
      expectNoProblems(
        named.filter((aud) => !message.includes(aud)).map((aud) => `${aud} not named`),
        "the message names the token's audience",
        { exchange },
      );
    },
  );
}
