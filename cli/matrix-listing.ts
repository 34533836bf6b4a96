// The request-model matrix as `--list` prints it: every row, element by element, with the outcome
// it expects and the clauses it bears on (or why it expects nothing), the level of each, and
// whether it runs against this target (core rows everywhere, extended ones against test doubles or
// with --matrix full). Reviewable in one place; the plan above it gives what it costs.
import { clause } from '../specs/index.ts';
import type { ClauseCheck, Outcome } from '../specs/cards/card.ts';
import { cards } from '../specs/cards/index.ts';
import { elementsOf, matrix, operators, type Expectation } from '../specs/matrix/index.ts';

function outcome(o: Outcome): string {
  switch (o.kind) {
    case 'accept':
      return 'accept';
    case 'refuse':
      return 'refuse';
    case 'status':
      return String(o.status);
    case 'either':
      return o.statuses.join('|');
    case 'observed-error':
      return `${o.error}${o.naming ? `(${o.naming})` : ''}`;
    case 'token-error':
      return o.error;
    case 'token-without-scope':
      return `no token carrying ${o.scope}`;
    case 'token-with-scopes':
      return `refuse or a token carrying ${o.scopes.join(' ')}`;
    case 'token-of-catalogue':
      return 'refuse or a token of catalogue scopes one space apart';
  }
}

function expected(expectation: Expectation): string {
  if ('none' in expectation) return `no expectation: ${expectation.none}`;
  return expectation.checks.map((c: ClauseCheck) => `${outcome(c.outcome)} ${c.clause} (${clause(c.clause).level})`).join('; ');
}

export function renderMatrix(scope: 'core' | 'full'): string[] {
  const { operations, token } = matrix();
  const all = [...Object.values(operations).flat(), ...token];
  const none = all.filter((row) => 'none' in row.expectation).length;
  const elements = Object.values(cards).reduce((n, c) => n + elementsOf(c).length, 0);
  const lines = [
    '',
    `request-model matrix: ${all.length} rows over ${elements} elements of the three operations and the token endpoint's request, by ${Object.keys(operators).length} operators; ${none} rows have no expectation (listed, not tested)`,
    `rows run against this target: ${scope === 'full' ? 'every row' : 'the core rows (extended ones need --matrix full or a test double)'}`,
  ];
  for (const [op, rows] of [...Object.entries(operations), ['token', token] as const]) {
    lines.push('', `${op}: ${rows.length} rows`);
    for (const row of rows) {
      const base = 'base' in row && row.base !== 'valid' ? ` [${row.base}]` : '';
      const runs = row.variant.extended && scope === 'core' ? 'extended' : 'runs';
      lines.push(`  ${row.element.id}  ${row.variant.operator}:${row.variant.key}${base}  ${runs}  ${expected(row.expectation)}`);
    }
  }
  return lines;
}
