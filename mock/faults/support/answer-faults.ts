// The faults of each operation's answer and path limits, made from its card (specs/cards/) and the
// registry's limits: its success with another 2xx status, or written as text or with a content type that is no media type, each field of its body written as null, one record answered for every id it echoes,
// an unknown id answered as the last one found, and each path id cut to the width its limit names. operation-answers.ts lists them for every card; a
// card added to the project gets them at once, like its scope faults (scope-faults.ts).
import type { OperationCard } from '../../../specs/cards/card.ts';
import { fixtureTable } from '../../../specs/cards/fixtures.ts';
import { clauses, schema } from '../../../specs/index.ts';
import type { FaultRow } from '../fault.ts';
import { fixedWidthColumn } from './path-limits.ts';
import { editSuccessReplies, withContentType } from './route-edits.ts';

const OK = 200;
const NON_AUTHORITATIVE = 203;

/** The faults of one operation's answer and path limits. */
export function answerFaultsOf(card: OperationCard): FaultRow[] {
  const rows: FaultRow[] = [];
  const { answer } = card;
  // Another success status: the framework's default 200, or for a 200 a cache's 203.
  const other = card.success.status === OK ? NON_AUTHORITATIVE : OK;
  rows.push({
    id: `${card.faultPrefix}-${other}-instead-of-${card.success.status}`,
    clause: answer.statusClause,
    bug: `A handler that answers with a status of its framework's or a cache's: ${card.name} answers ${other} instead of ${card.success.status} (still a success, the same body).`,
    install: (app) => editSuccessReplies(app, card.key, (reply) => ({ ...reply, status: other })),
  });
  if (answer.body) {
    rows.push({
      id: `${card.faultPrefix}-content-type-text-plain`,
      clause: answer.body.contentTypeClause,
      bug: `A success written with a generic text writer: ${card.name} answers content type text/plain; charset=utf-8 instead of application/json (the body is still JSON).`,
      install: (app) => editSuccessReplies(app, card.key, (reply) => withContentType(reply, 'text/plain; charset=utf-8')),
    });
    rows.push({
      id: `${card.faultPrefix}-content-type-parameter-without-equals`,
      clause: answer.body.contentTypeClause,
      bug: `A content type typed into a header constant with a colon where its parameter's "=" goes: ${card.name} answers content type "application/json; charset: utf-8", which is no media type (RFC 9110 8.3.1), instead of application/json (the body is still JSON).`,
      install: (app) => editSuccessReplies(app, card.key, (reply) => withContentType(reply, 'application/json; charset: utf-8')),
    });
  }
  if (answer.body) {
    const { fieldClause } = answer.body;
    const contract = schema(answer.body.schema, 'contract');
    for (const field of Object.keys(contract.properties as object)) {
      rows.push({
        id: `${card.faultPrefix}-answer-${field.replaceAll('_', '-')}-null`,
        clause: fieldClause(field),
        bug: `A serializer that reads ${field} under a name the store does not have: ${card.name} answers ${field}: null (the other fields as stored).`,
        install: (app) =>
          editSuccessReplies(app, card.key, (reply) =>
            reply.body !== null && typeof reply.body === 'object' ? { ...reply, body: { ...reply.body, [field]: null } } : reply,
          ),
      });
    }
  }
  // One record answered for every id is seen only where the target names several (a list fixture).
  if (answer.echoes && 'list' in fixtureTable[card.params[answer.echoes.param]!.fixture]) {
    const names = card.params[answer.echoes.param]!.names;
    rows.push({
      id: `${card.faultPrefix}-answers-first-record-read`,
      clause: answer.echoes.clause,
      bug: `A response cache keyed by the operation instead of the ${names} id: after the first success, ${card.name} answers every existing ${names} with the first one answered (unknown ids still refused).`,
      install(app) {
        let first: unknown;
        editSuccessReplies(app, card.key, (reply) => {
          first ??= reply.body;
          return { ...reply, body: first };
        });
      },
    });
  }
  // An unknown id answered as found: what the path names is looked up, and a miss falls back to
  // what the last success found (a variable outside the request).
  const NOT_FOUND = 404;
  for (const [name, param] of Object.entries(card.params)) {
    const refused = param.unknown[0];
    if (!refused) continue;
    rows.push({
      id: `${card.faultPrefix}-unknown-${param.names}-answered-as-last-found`,
      clause: refused.clause,
      bug: `A lookup that falls back to the ${param.names} the last success found, kept in a variable outside the request: after the first success, ${card.name} of an unknown ${param.names} id answers as for that one instead of 404.`,
      install(app) {
        let last: string | undefined;
        app.wrapRoute(card.key, (next) => async (exchange) => {
          const reply = await next(exchange);
          if (reply.status >= OK && reply.status < 300) last = exchange.params[name];
          if (reply.status !== NOT_FOUND || last === undefined || last === exchange.params[name]) return reply;
          return next({ ...exchange, params: { ...exchange.params, [name]: last } });
        });
      },
    });
  }
  for (const limit of clauses.filter((c) => c.limit?.location.operation === card.key && c.limit.location.in === 'path')) {
    const max = limit.limit!.max;
    const name = limit.limit!.location.name!;
    if (max === undefined) continue;
    rows.push({
      id: `${card.faultPrefix}-accepts-${max + 1}-char-${card.params[name]!.names}-id`,
      ...fixedWidthColumn(limit.id),
      bug: `${/^[aeiou]/i.test(name) ? 'An' : 'A'} ${name} column ${max} characters wide: ${card.name} cuts a longer ${card.params[name]!.names} id to ${max} before looking it up, so an existing id with a character added is found.`,
    });
  }
  return rows;
}
