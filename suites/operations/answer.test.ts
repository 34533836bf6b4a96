// What every operation's success answers, from its card's answer rule (specs/cards/): its status;
// its JSON content type, each field of its body's schema and the real service's shape of it; the
// record its path names; or the empty body the real service sends. Where the success names one of
// a list of records (the vault read's connections), every record of the target is read. A card
// added to the project gets these tests at once.
import {
  conformance,
  expectClause,
  expectEqual,
  expectJsonMediaType,
  expectNoProblems,
  expectObservedContentType,
  expectSchema,
  expectStatus,
  expectSuccess,
  fixture,
  shown,
  type Exchange,
  type Need,
  type TargetSession,
} from '../../harness/index.ts';
import { BASE_NOTES, matrixRowCall } from '../../harness/suite/matrix.ts';
import { recordIds, recordRead, recordReads, successOf } from '../../harness/suite/requests.ts';
import { cards } from '../../specs/cards/index.ts';
import type { OperationCard } from '../../specs/cards/card.ts';
import { fixtureField, fixtureTable, recordsOf, type StatedRecord } from '../../specs/cards/fixtures.ts';
import { clause, compileNode, hasClause, observed, schema, validator, type JsonObject, type OperationKey } from '../../specs/index.ts';
import { asFormTemplate, baseTemplate, matrix, validTemplate, withBody, type MatrixRow } from '../../specs/matrix/index.ts';

/** A test's title tag: `[§<section> <clause>]`. */
const tag = (id: string) => `[§${clause(id).section} ${id}]`;

/** The field of a record's creation time, which no other time of it precedes. */
const CREATED = 'created_at';

/** Where the success names one of a list of records, every record is read: " for every connection". */
function forEachOf(card: OperationCard): string {
  const { echoes } = card.answer;
  return echoes && 'list' in fixtureTable[card.params[echoes.param]!.fixture] ? ` for every ${card.params[echoes.param]!.names}` : '';
}

/** Every success a test of the answer reads: one per record the target names, else the valid request. */
async function successes(target: TargetSession, op: OperationKey): Promise<Array<{ id?: string; exchange: Exchange }>> {
  const records = recordIds(op, target);
  if (!records) return [{ exchange: await successOf(op).send(target) }];
  const read = [];
  for (const id of records.ids) read.push({ id, exchange: await recordRead(target, op, id) });
  return read;
}

/** A schema keyword's value as it reads in a title. */
function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** A field's schema in words: "string, format date-time, length 1..30". */
function describe(fieldSchema: JsonObject): string {
  const parts = [String(fieldSchema.type)];
  if (fieldSchema.format) parts.push(`format ${text(fieldSchema.format)}`);
  if (fieldSchema.minLength !== undefined || fieldSchema.maxLength !== undefined) {
    parts.push(`length ${text(fieldSchema.minLength ?? 0)}..${text(fieldSchema.maxLength ?? '∞')}`);
  }
  return parts.join(', ');
}

for (const card of Object.values(cards) as OperationCard[]) {
  const op = card.key;
  const { answer } = card;
  const success = successOf(op);
  /** Every success the target names, each read once per run. */
  const readsAll = { ...success.plan, shared: recordReads(op) };
  const forEach = forEachOf(card);

  conformance(`${tag(answer.statusClause)} ${card.name} answers ${card.success.status}`, success.plan, async ({ target }) => {
    expectStatus(await success.send(target), card.success.status);
  });

  if (answer.emptyBodyClause) {
    const emptyBodyClause = answer.emptyBodyClause;
    conformance(
      `${tag(emptyBodyClause)} the ${card.success.status} of ${card.name} carries ${JSON.stringify(observed.operations[op].success.body)} as JSON`,
      success.plan,
      async ({ target }) => {
        const exchange = await success.send(target);
        expectStatus(exchange, card.success.status);
        expectObservedContentType(exchange);
        expectEqual(exchange.json, observed.operations[op].success.body, 'body', { exchange });
      },
    );
    // A POST that takes no body, sent one all the same (a client's {"reason": "retry"}): what the
    // service does with it is not stated, but if it accepts it, its answer is the success's, not the
    // request's body echoed back (a stub's res.json(req.body) left in). It performs the operation
    // once more, so against test doubles only, after the valid request.
    if (!card.body && card.spec.method === 'POST') {
      const testDoublesOnly = {
        check: (context: { target: { testDouble: boolean } }) =>
          context.target.testDouble ? undefined : `${card.name} performed once more: against test doubles only`,
        category: 'extended' as const,
      };
      conformance(
        `${tag(emptyBodyClause)} the ${card.success.status} of ${card.name}, if it accepts a request carrying a JSON body it does not take, carries ${JSON.stringify(observed.operations[op].success.body)}`,
        { ...success.plan, needs: [...(success.plan.needs as []), testDoublesOnly], requests: 1 },
        async ({ target }) => {
          await target.control(`the valid request of ${card.name}`, () => success.send(target));
          const template = validTemplate(card, target.context);
          const exchange = await target.sendTemplate(
            withBody(
              { ...template, headers: { ...template.headers, 'content-type': ['application/json'] } },
              { json: { reason: 'retry' } },
            ),
            { label: op },
          );
          if (exchange.status !== card.success.status) return expectClientRefusal(exchange);
          expectEqual(exchange.json, observed.operations[op].success.body, 'body', { exchange });
        },
      );
    }
  }

  if (answer.body) {
    const body = answer.body;
    conformance(`${tag(body.contentTypeClause)} ${card.name} answers with a JSON body`, success.plan, async ({ target }) => {
      const exchange = await success.send(target);
      // The success's answer: a refusal with a JSON body says nothing of it.
      expectSuccess(exchange);
      expectJsonMediaType(exchange);
    });

    const contract = schema(body.schema, 'contract');
    const required = new Set((contract.required as string[] | undefined) ?? []);
    for (const [field, fieldSchema] of Object.entries(contract.properties as Record<string, JsonObject>)) {
      const validate = compileNode({
        type: 'object',
        ...(required.has(field) ? { required: [field] } : {}),
        properties: { [field]: fieldSchema },
      });
      const rule = `${required.has(field) ? 'required' : 'optional'} ${field}: ${describe(fieldSchema)}`;
      conformance(`${tag(body.fieldClause(field))} ${card.name} answers a valid ${field}${forEach}`, readsAll, async ({ target }) => {
        for (const { exchange } of await successes(target, op)) {
          expectSuccess(exchange);
          expectSchema(exchange, validate, rule);
        }
      });
    }

    conformance(`${tag(body.shapeClause)} ${card.name} answers the real service's shape${forEach}`, readsAll, async ({ target }) => {
      for (const { exchange } of await successes(target, op)) {
        expectSuccess(exchange);
        expectSchema(exchange, validator(body.schema, 'observed'), body.shape);
      }
    });
  }

  if (answer.echoes) {
    const echoes = answer.echoes;
    const names = card.params[echoes.param]!.names;
    conformance(`${tag(echoes.clause)} ${card.name} answers the ${names} named in the path`, readsAll, async ({ target }) => {
      for (const { id, exchange } of await successes(target, op)) {
        expectSuccess(exchange);
        expectEqual(
          (exchange.json as Record<string, unknown> | undefined)?.[echoes.field],
          id ?? fixtureOf(target, card, echoes.param),
          `${echoes.field}`,
          {
            exchange,
          },
        );
      }
    });

    // A read is a function of its path: each record of a list read again, after the others in the
    // reverse order, answers what it answered the first time (a serializer that reuses one object
    // carries one record's optional fields into the next).
    if (!('list' in fixtureTable[card.params[echoes.param]!.fixture])) continue;
    conformance(
      `${tag(echoes.clause)} ${card.name} answers the same record for every ${names} read again, after the others in reverse order`,
      { ...readsAll, requests: (context) => recordIds(op, context)?.ids.length ?? 0 },
      async ({ target }) => {
        const records = recordIds(op, target)!;
        const first = new Map<string, unknown>();
        for (const id of records.ids) first.set(id, recordOf(await recordRead(target, op, id)));
        for (const id of [...records.ids].reverse()) {
          const again = await recordRead(target, op, id, { again: true });
          expectSuccess(again);
          expectEqual(recordOf(again), first.get(id), `the record of ${id} read again`, { exchange: again });
        }
      },
    );

    // Reads arriving together: every record of the list asked for at the same moment, in the
    // reverse order, each answered with its own record (a loader that batches the reads of several
    // requests into one query must hand each key its own row, not the rows in the table's order).
    conformance(
      `${tag(echoes.clause)} ${card.name} answers each ${names} its own record, every one read at the same moment in reverse order`,
      { ...readsAll, requests: (context) => recordIds(op, context)?.ids.length ?? 0 },
      async ({ target }) => {
        const records = recordIds(op, target)!;
        target.needs(records.ids.length > 1, `the target file names one ${names}: none to read beside it`);
        const first = new Map<string, unknown>();
        for (const id of records.ids) first.set(id, recordOf(await recordRead(target, op, id)));
        const reversed = [...records.ids].reverse();
        const together = await Promise.all(reversed.map((id) => recordRead(target, op, id, { again: true })));
        reversed.forEach((id, i) => {
          const exchange = together[i]!;
          expectSuccess(exchange);
          expectEqual(recordOf(exchange), first.get(id), `the record of ${id}, read beside the others`, { exchange });
        });
      },
    );
  }
}

/** The fixture value a path parameter takes in the valid request. */
function fixtureOf(target: TargetSession, card: OperationCard, param: string): unknown {
  return (target.target.fixtures as Record<string, unknown>)[card.params[param]!.fixture];
}

/** What a read answered: its record where the body is JSON, else its text. */
function recordOf(exchange: { json: unknown; text: string }): unknown {
  return exchange.json ?? exchange.text;
}

// --- Every accepted answer ----------------------------------------------------------------------
// A request the service accepts is answered as its success is, whatever made it differ from the
// valid one: each accepted row of the matrix (its request shared with the row's own test) is
// answered with JSON, and where the success is a record, with the whole record its path names (an
// id percent-encoded names the id it decodes to, RFC 3986 2.3). A request the operation does not
// describe (a query parameter it does not have, a form-encoded body) gets no expectation of
// acceptance; if accepted, it is answered the same way.

/** A request the operation does not describe, refused: a client error, never a 5xx or a redirect. */
function expectClientRefusal(exchange: Exchange): void {
  expectClause({
    pass: exchange.status >= 400 && exchange.status < 500,
    expected: 'a success, or a refusal with a 4xx status',
    actual: `status ${exchange.status}`,
    exchange,
  });
}

/** A row's request as it is sent to a target. */
function variedOf(target: TargetSession, card: OperationCard, row: MatrixRow) {
  return row.variant.apply(baseTemplate(card, row.base, row.element, target.context), target.context);
}

/** The id a path parameter of a template names, decoded where the template sends it encoded. */
function namedId(template: ReturnType<typeof validTemplate>, param: string): string | undefined {
  const part = template.path.find((p) => 'param' in p && p.param === param);
  if (!part || !('param' in part)) return undefined;
  try {
    return part.encoded ? decodeURIComponent(part.value) : part.value;
  } catch {
    return undefined;
  }
}

/** A query parameter the operation does not have: the field selection of the service's list endpoints. */
const UNDEFINED_QUERY: Array<[string, string]> = [
  ['fields', 'id,name'],
  ['include_fields', 'true'],
];

for (const card of Object.values(cards) as OperationCard[]) {
  const op = card.key;
  const { body, echoes } = card.answer;
  if (!body) continue;
  // Rows the contract expects accepted: one the real service alone accepts (an observed clause) may
  // be refused by a target the spec allows to.
  const accepted = matrix().operations[op].filter(
    (row) =>
      'checks' in row.expectation &&
      row.expectation.checks.some((check) => check.outcome.kind === 'accept' && clause(check.clause).level === 'contract'),
  );
  const whole = validator(body.schema, 'contract');
  for (const row of accepted) {
    const call = matrixRowCall(op, row.id);
    const what = `${row.element.label} ${row.variant.says}${BASE_NOTES[row.base]}`;
    conformance(
      `${tag(body.contentTypeClause)} ${card.name} answers with JSON its acceptance of a request with ${what}`,
      call.plan,
      async ({ target }) => {
        const exchange = await call.send(target);
        expectSuccess(exchange);
        expectJsonMediaType(exchange);
      },
    );
    if (!echoes) continue;
    conformance(
      `${tag(echoes.clause)} ${card.name} answers the whole record named in the path to an accepted request with ${what}`,
      call.plan,
      async ({ target }) => {
        const exchange = await call.send(target);
        expectSuccess(exchange);
        expectEqual(
          (exchange.json as Record<string, unknown> | undefined)?.[echoes.field],
          namedId(variedOf(target, card, row), echoes.param),
          echoes.field,
          {
            exchange,
          },
        );
        expectSchema(exchange, whole, `the whole record (${body.schema})`);
      },
    );
  }

  if (echoes) {
    const success = successOf(op);
    const plan = { ...success.plan, requests: 1 };
    conformance(
      `${tag(echoes.clause)} ${card.name} answers the whole record, or refuses, with a query parameter it does not have (${UNDEFINED_QUERY.map(([n, v]) => `${n}=${v}`).join('&')})`,
      plan,
      async ({ target }) => {
        const valid = await success.send(target);
        expectSuccess(valid);
        const exchange = await target.sendTemplate({ ...validTemplate(card, target.context), query: UNDEFINED_QUERY }, { label: op });
        if (exchange.status >= 300) return expectClientRefusal(exchange);
        expectEqual(exchange.json, valid.json, 'the record answered without the parameter', { exchange });
      },
    );
  }

  if (card.body) {
    const cardBody = card.body;
    conformance(
      `${tag(body.contentTypeClause)} ${card.name} answers with JSON, if it accepts it, the valid request with a form-encoded body`,
      { operation: op, needs: successOf(op).plan.needs, requests: 1 },
      async ({ target }) => {
        const global = target.target.roles.global?.clientId ?? '';
        const full = cardBody.full(target.target.fixtures, { global });
        const flat = Object.fromEntries(Object.entries(full).filter(([, value]) => value !== null && typeof value !== 'object'));
        const exchange = await target.sendTemplate(asFormTemplate(validTemplate(card, target.context, flat)), { label: op });
        if (exchange.status >= 300) return expectClientRefusal(exchange);
        expectJsonMediaType(exchange);
      },
    );
  }
}

// A body under a Content-Type other than the spec's (none at all, text/plain, in capitals,
// form-encoded and empty): how the service answers it is not stated (spec 4.2 obliges the client),
// so each such row of the matrix has no expectation of its own; if accepted, it is answered with
// JSON as any success is, and if refused, with a client error, never a 5xx.
for (const card of Object.values(cards) as OperationCard[]) {
  const op = card.key;
  const { body } = card.answer;
  if (!body || !card.body) continue;
  const unjudged = matrix().operations[op].filter((row) => row.element.kind === 'content-type' && 'none' in row.expectation);
  for (const row of unjudged) {
    const call = matrixRowCall(op, row.id);
    conformance(
      `${tag(body.contentTypeClause)} ${card.name} answers with JSON, if it accepts it, a request with ${row.element.label} ${row.variant.says}`,
      call.plan,
      async ({ target }) => {
        const exchange = await call.send(target);
        if (exchange.status >= 300) return expectClientRefusal(exchange);
        expectJsonMediaType(exchange);
      },
    );
  }
}

// Another method on an operation's path is refused (routes.method, 404 or 405). Where the refusal
// is 405 Method Not Allowed, its Allow header names the methods the path takes (RFC 9110 15.5.6:
// the server MUST send one), so it names the operation's own method. Read on the matrix's rows of
// another method: no request of its own.
for (const card of Object.values(cards) as OperationCard[]) {
  const own = card.spec.method;
  const others = matrix().operations[card.key].filter(
    (row) => row.base === 'valid' && row.variant.operator === 'method' && /^[A-Z]+$/.test(row.variant.key),
  );
  for (const row of others) {
    const call = matrixRowCall(card.key, row.id);
    conformance(
      `${tag('routes.method')} ${card.name} sent as ${row.variant.says}: a 405 names ${own} in its Allow header`,
      call.plan,
      async ({ target }) => {
        const exchange = await call.send(target);
        const allow = exchange.headers.allow;
        const methods = allow === undefined ? [] : allow.split(',').map((method) => method.trim());
        expectClause({
          pass: exchange.status !== 405 || methods.includes(own),
          expected: `not 405, or 405 with an Allow header that names ${own} (RFC 9110 15.5.6)`,
          actual: `${exchange.status} with ${allow === undefined ? 'no Allow header' : `Allow: ${shown(allow)}`}`,
          exchange,
          headers: ['allow'],
        });
      },
    );
  }
}

// --- The records the target file states ---------------------------------------------------------
// Where the target file states what the records of a list hold (fixtures.vault_connection_records),
// the read of each answers exactly that: every stated field equal (a time as the same instant: the
// contract's date-time allows any offset), every field stated unset absent (the real service omits
// unset optional fields: observed). Without it, a record's values are not checked (the tests are
// skipped, naming the field). Whatever the file states, no time of a record is before its creation.

/** A value as the answer and the statement are compared: a date-time as its instant, where it reads as one. */
function comparable(value: unknown, fieldSchema: JsonObject): unknown {
  if (fieldSchema.format !== 'date-time' || typeof value !== 'string' || Number.isNaN(Date.parse(value))) return value;
  return new Date(Date.parse(value)).toISOString();
}

for (const card of Object.values(cards) as OperationCard[]) {
  const op = card.key;
  const { body, echoes } = card.answer;
  if (!body || !echoes) continue;
  const names = card.params[echoes.param]!.names;
  const statedName = recordsOf(card.params[echoes.param]!.fixture);
  const contract = schema(body.schema, 'contract');
  const properties = contract.properties as Record<string, JsonObject>;
  const readsAll = { ...successOf(op).plan, shared: recordReads(op) };

  if (statedName) {
    const stated = (target: TargetSession) => target.target.fixtures[statedName] as StatedRecord[];
    const plan = { ...readsAll, needs: [...(readsAll.needs as Need[]), fixture(statedName)] };
    const file = `fixtures.${fixtureField(statedName)}`;
    for (const [field, fieldSchema] of Object.entries(properties)) {
      if (field === echoes.field) continue;
      conformance(
        `${tag(echoes.clause)} ${card.name} answers the ${field} the target file states of every ${names}`,
        plan,
        async ({ target }) => {
          // A file that states none of this field checks nothing of it: skipped, not passed.
          target.needs(
            stated(target).some((record) => field in record),
            `${file} states no ${field} of any ${names}`,
          );
          for (const record of stated(target)) {
            if (!(field in record)) continue;
            const exchange = await recordRead(target, op, record.id);
            expectSuccess(exchange);
            const answered = (exchange.json as Record<string, unknown> | undefined)?.[field];
            expectEqual(comparable(answered, fieldSchema), comparable(record[field], fieldSchema), `${field} of ${record.id} (${file})`, {
              exchange,
            });
          }
        },
      );
    }

    conformance(
      `${tag(body.shapeClause)} ${card.name} answers no field the target file states unset, of every ${names}`,
      plan,
      async ({ target }) => {
        for (const record of stated(target)) {
          const exchange = await recordRead(target, op, record.id);
          expectSuccess(exchange);
          const answered = (exchange.json ?? {}) as Record<string, unknown>;
          const present = (record.unset ?? []).filter((field) => field in answered);
          expectNoProblems(
            present.map((field) => `${field} ${shown(answered[field])}`),
            `no ${(record.unset ?? []).join(', ') || 'field'} in the record of ${record.id}: stated unset (${file}), and the real service omits unset optional fields`,
            { exchange },
          );
        }
      },
    );
  }

  // No time of a record is before its creation (observed, inferred): a record of a schema with a
  // created_at date-time has every other date-time at or after it.
  const created = properties[CREATED]?.format === 'date-time' ? CREATED : undefined;
  const order = `${op}.record.timestamps-order`;
  if (created && hasClause(order)) {
    const later = Object.keys(properties).filter((field) => field !== created && properties[field]!.format === 'date-time');
    conformance(
      `${tag(order)} ${card.name} answers no ${later.join(' or ')} before ${created}${forEachOf(card)}`,
      readsAll,
      async ({ target }) => {
        for (const { exchange } of await successes(target, op)) {
          expectSuccess(exchange);
          const record = (exchange.json ?? {}) as Record<string, unknown>;
          const instant = (field: string) => (typeof record[field] === 'string' ? Date.parse(record[field]) : Number.NaN);
          const before = later.filter((field) => instant(field) < instant(created));
          expectNoProblems(
            before.map((field) => `${field} ${shown(record[field])} before ${created} ${shown(record[created])}`),
            `${later.join(' and ')}, where present, not before ${created}`,
            { exchange },
          );
        }
      },
    );
  }
}
