// Which test file of suites/matrix/ registers the rows of each element kind. The files select
// their rows by it, and whatever maps a clause to the tests that bear on it (the description
// check) reads it too: matrix tests are generated, so no test file names their clauses in its text.
import type { ElementKind } from './elements.ts';
import { matrix } from './matrix.ts';

export type MatrixSuite = 'paths' | 'credentials' | 'headers' | 'bodies';

/** Every element kind's file: a kind added to the request model without one is a compile error. */
export const matrixSuiteOf: Record<ElementKind, MatrixSuite> = {
  method: 'paths',
  'path-literal': 'paths',
  'path-param': 'paths',
  authorization: 'credentials',
  'auth-scheme': 'credentials',
  token: 'credentials',
  'jose-header': 'credentials',
  signature: 'credentials',
  claim: 'credentials',
  'scope-token': 'credentials',
  'header-param': 'headers',
  'content-type': 'headers',
  accept: 'headers',
  body: 'bodies',
  'body-field': 'bodies',
};

/** The project-relative file of a matrix suite; the token endpoint's rows have their own. */
export function matrixSuiteFile(suite: MatrixSuite | 'token-requests'): string {
  return `suites/matrix/${suite}.test.ts`;
}

/**
 * The matrix's tests of one clause, as "suites/matrix/bodies.test.ts: 12 rows": one entry per
 * file holding a row whose checks name the clause.
 */
export function matrixTestsOf(clause: string): string[] {
  const rows = new Map<string, number>();
  const count = (file: string) => rows.set(file, (rows.get(file) ?? 0) + 1);
  const bears = (expectation: { checks: Array<{ clause: string }> } | { none: string }) =>
    'checks' in expectation && expectation.checks.some((check) => check.clause === clause);
  const built = matrix();
  for (const op of Object.values(built.operations)) {
    for (const row of op) if (bears(row.expectation)) count(matrixSuiteFile(matrixSuiteOf[row.element.kind]));
  }
  for (const row of built.token) if (bears(row.expectation)) count(matrixSuiteFile('token-requests'));
  return [...rows].map(([file, n]) => `${file}: ${n} matrix row${n === 1 ? '' : 's'}`);
}
