// Which clauses of the registry a difference of the description touches, and which tests cite
// them: by where the difference is (a path parameter's limit, a body field's type, a status, a
// scope, a cause of refusal). Only ids of specs/clauses.yaml come out of here.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { clauses as registry, hasClause, observed, operationKeys, schema, type OperationKey } from '../../specs/index.ts';
import type { OperationCard } from '../../specs/cards/card.ts';
import { cards } from '../../specs/cards/index.ts';
import { matrixTestsOf } from '../../specs/matrix/index.ts';
import { projectRoot } from '../paths.ts';

export type Subject = OperationKey | 'token endpoint';

/** The clauses each named cause of refusal bears on, per operation: the card's where the operation has its own. */
function causeClauses(op: OperationKey, cause: string): string[] {
  const card: OperationCard = cards[op];
  const own = (id: string) => (hasClause(id) ? [id] : []);
  const table: Record<string, string[]> = {
    invalid_token: [card.unauthenticated.clause, 'errors.401.message'],
    invalid_signature: [card.unauthenticated.signatureClause, 'errors.401.message'],
    client_not_global: card.globalClient
      ? [card.globalClient.clause, card.globalClient.statusClause]
      : [card.unauthenticated.clause, 'errors.401.message'],
    insufficient_scope: [...new Set([card.scope.clause, ...card.scope.statusClauses]), 'errors.403.scope-named'],
    stream_not_found: ['redeliver.errors.404.stream', 'errors.404.stream'],
    event_not_found: ['redeliver.errors.404.event'],
    event_state: ['redeliver.errors.409.state'],
    connection_name_taken: ['sso-ticket.errors.409.name-taken'],
    vault_connection_not_found: ['errors.404.vault'],
    invalid_body: ['errors.400.body'],
    invalid_query: ['errors.400.path'],
    too_many_requests: [...own(`${op}.errors.429`), 'rate-limit.429.headers', 'errors.429.body'],
  };
  return table[cause] ?? [];
}

/** Clauses of another operation do not apply; cross-cutting ones do where they list the operation. */
function appliesTo(id: string, op: OperationKey): boolean {
  if (operationKeys.some((other) => other !== op && id.startsWith(`${other}.`))) return false;
  const entry = registry.find((c) => c.id === id)!;
  return entry.operations === undefined || entry.operations.includes(op);
}

export function clausesFor(subject: Subject, where: string, what: string): string[] {
  if (subject === 'token endpoint') return ['token.endpoint'];
  const op = subject;
  const found = ((): string[] => {
    if (where === 'lifecycle') return [`${op}.lifecycle`];
    if (what === 'lifecycle') return [`${op}.body.lifecycle`];
    if (where === 'scopes') return [...new Set([cards[op].scope.clause, ...cards[op].scope.statusClauses])];
    if (where.startsWith('causes ')) return what.startsWith('unknown') ? [] : causeClauses(op, what);
    if (where === 'success') return registry.filter((c) => c.id.startsWith(`${op}.success.`)).map((c) => c.id);
    if (where === 'statuses') {
      const status = new RegExp(`(^|\\.)(errors\\.)?${what}(\\.|$)`);
      return registry.filter((c) => status.test(c.id) && appliesTo(c.id, op)).map((c) => c.id);
    }
    const [kind, name] = where.split(/[ .[]/, 2);
    if (kind === 'path' || kind === 'header') {
      // The service's name for the custom-domain header stands for the spec's.
      const renamed = kind === 'header' && name === observed.custom_domain_header.value;
      const limits = registry
        .filter((c) => c.limit?.location.operation === op && c.limit.location.in === kind && (renamed || c.limit.location.name === name))
        .map((c) => c.id);
      return kind === 'path' ? [...limits, 'errors.400.path'] : limits;
    }
    if (where.startsWith('success body')) {
      const field = where.slice('success body'.length).split(/[.[]/).filter(Boolean)[0];
      return registry
        .filter((c) => (field !== undefined && c.id === `${op}.record.${field}`) || c.id.startsWith(`${op}.response.`))
        .map((c) => c.id);
    }
    if (where === 'body' || where.startsWith('body.')) {
      const segments = where
        .split(/\.|\[\]/)
        .slice(1)
        .filter(Boolean);
      if (what === 'content types') return [`${op}.request.content-type`];
      if (segments.length === 0) return what === 'type' ? [`${op}.body.object`] : [`${op}.body.nested-rules`];
      const field = `${op}.body.${segments.join('.')}`;
      const range = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].includes(what) ? [`${field}.range`] : [];
      const type = what === 'type' || what === 'field' ? [`${field}.type`] : [];
      return [...range, ...type, `${op}.body.nested-rules`];
    }
    return [];
  })();
  return [...new Set(found)].filter(hasClause);
}

let suiteTexts: Array<{ file: string; lines: string[] }> | undefined;

function suites(): Array<{ file: string; lines: string[] }> {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
    );
  suiteTexts ??= walk(join(projectRoot, 'suites')).map((file) => ({
    file: relative(projectRoot, file),
    lines: readFileSync(file, 'utf8').split('\n'),
  }));
  return suiteTexts;
}

/**
 * The tests that bear on a clause: the places in suites/ that cite it ("suites/token/endpoint.test.ts:12"),
 * then the matrix's generated tests of it ("suites/matrix/bodies.test.ts: 12 matrix rows").
 */
export function testsCiting(id: string): string[] {
  const cites = new RegExp(`(^|[^a-z0-9_.-])${id.replace(/[.]/g, '\\.')}(?![a-z0-9_.-])`);
  const written = suites().flatMap(({ file, lines }) => lines.flatMap((line, i) => (cites.test(line) ? [`${file}:${i + 1}`] : [])));
  return [...written, ...matrixTestsOf(id), ...answerTestsOf(id)];
}

/** The tests of an operation's answer that bear on a clause, made from its card ("suites/operations/answer.test.ts: the vault read's answer"). */
function answerTestsOf(id: string): string[] {
  return Object.values(cards).flatMap((card: OperationCard) => {
    const { answer } = card;
    const body = answer.body;
    const fields = body ? Object.keys(schema(body.schema, 'contract').properties as object).map((field) => body.fieldClause(field)) : [];
    const cited = [
      answer.statusClause,
      answer.emptyBodyClause,
      body?.contentTypeClause,
      body?.shapeClause,
      answer.echoes?.clause,
      ...fields,
    ];
    return cited.includes(id) ? [`suites/operations/answer.test.ts: ${card.name}'s answer`] : [];
  });
}
