// The service's description against specs/, operation by operation: every difference, and where it
// stands: the observed level is out of date there (it says something of its own that the
// description does not, and observed.yaml lists no departure with evidence for it), or keeps a
// departure on purpose, or the difference is the spec's (the description goes beyond or against
// what the spec states, or what the observed level only repeats of it: the contract stays the
// spec's). Each with the clauses it touches and the tests citing them. With a previous copy of the
// description, also what is new in it since.
import { audiencePath, observed, operationKeys, tokenPath, type OperationKey } from '../../specs/index.ts';
import { clausesFor, testsCiting, type Subject } from './clauses.ts';
import { viewDifferences, type Difference } from './diff.ts';
import { ourView } from './ours.ts';
import type { Description } from './vendor.ts';

export type Standing = 'observed out of date' | 'departure (kept)' | 'contract differs (kept)';

export interface Row {
  subject: Subject;
  where: string;
  what: string;
  /** The spec's value (contract), specs/' observed value, and the description's. */
  spec: unknown;
  observed: unknown;
  description: unknown;
  standing: Standing;
  /** For a departure: why the observed level keeps its value. */
  reason?: string;
  clauses: string[];
  tests: string[];
}

export interface NewRow {
  subject: Subject;
  where: string;
  what: string;
  before: unknown;
  now: unknown;
  clauses: string[];
}

export interface DescriptionCheck {
  file: string;
  title: string;
  version: string;
  missing: OperationKey[];
  rows: Row[];
  previous?: { file: string; version: string; rows: NewRow[] };
}

const keyOf = (d: Difference) => `${d.where}\n${d.what}`;
/** What a view says where it says nothing (diff.ts). */
const SILENT = new Set(['(absent)', 'not listed']);

function departure(subject: Subject, d: Difference): string | undefined {
  return observed.description.departures.find((x) => x.operation === subject && x.where === d.where && x.what === d.what)?.reason;
}

function rowsOf(subject: Subject, contract: Difference[], seen: Difference[]): Row[] {
  const byKey = new Map<string, { contract?: Difference; seen?: Difference }>();
  for (const d of contract) byKey.set(keyOf(d), { contract: d });
  for (const d of seen) byKey.set(keyOf(d), { ...byKey.get(keyOf(d)), seen: d });
  return [...byKey.values()].map(({ contract: c, seen: s }) => {
    const d = (s ?? c)!;
    // Where the observed level only repeats what the spec states, a difference is the spec's: the
    // contract stays. Where both are silent, the observed level has the description to follow.
    const inherited = s !== undefined && c !== undefined && JSON.stringify(s.a) === JSON.stringify(c.a) && !SILENT.has(String(c.a));
    const reason = s && !inherited ? departure(subject, s) : undefined;
    const clauses = clausesFor(subject, d.where, d.what);
    return {
      subject,
      where: d.where,
      what: d.what,
      spec: c ? c.a : d.b,
      observed: s ? s.a : d.b,
      description: d.b,
      standing: !s || inherited ? 'contract differs (kept)' : reason ? 'departure (kept)' : 'observed out of date',
      ...(reason ? { reason } : {}),
      clauses,
      tests: [...new Set(clauses.flatMap(testsCiting))],
    };
  });
}

function tokenEndpointDifferences(description: Description): Difference[] {
  const { tokenUrl, audience } = description.tokenEndpoint;
  const pathOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
  return [
    ...(tokenUrl !== undefined && pathOf(tokenUrl) !== tokenPath
      ? [{ where: 'token endpoint', what: 'path', a: tokenPath, b: pathOf(tokenUrl) }]
      : []),
    ...(audience !== undefined && pathOf(audience) !== audiencePath
      ? [{ where: 'token endpoint', what: 'audience', a: audiencePath, b: pathOf(audience) }]
      : []),
  ];
}

export function checkDescription(current: Description, previous?: Description): DescriptionCheck {
  const rows: Row[] = [];
  const missing: OperationKey[] = [];
  for (const op of operationKeys) {
    const theirs = current.operations[op];
    if (!theirs) {
      missing.push(op);
      continue;
    }
    rows.push(...rowsOf(op, viewDifferences(ourView(op, 'contract'), theirs), viewDifferences(ourView(op, 'observed'), theirs)));
  }
  const token = tokenEndpointDifferences(current);
  rows.push(...rowsOf('token endpoint', token, token));
  return {
    file: current.file,
    title: current.title,
    version: current.version,
    missing,
    rows,
    ...(previous ? { previous: { file: previous.file, version: previous.version, rows: newSince(previous, current) } } : {}),
  };
}

function newSince(previous: Description, current: Description): NewRow[] {
  const rows: NewRow[] = [];
  for (const op of operationKeys) {
    const [before, now] = [previous.operations[op], current.operations[op]];
    if (!before || !now) {
      if (before !== now)
        rows.push({
          subject: op,
          where: 'operation',
          what: 'presence',
          before: before ? 'present' : 'absent',
          now: now ? 'present' : 'absent',
          clauses: [],
        });
      continue;
    }
    for (const d of viewDifferences(before, now))
      rows.push({ subject: op, where: d.where, what: d.what, before: d.a, now: d.b, clauses: clausesFor(op, d.where, d.what) });
  }
  return rows;
}
