// The tag rule of the suites (after test262's esid lint): every test title starts with
// "[§<section> <clause-id>]", the clause is in the registry, and its section is the registry's.
// Every testable clause is cited by a test; gaps and untestable clauses by none.
import { clause, clauses, hasClause, parseClauseTag, type Clause } from '../specs/index.ts';

export interface TagProblem {
  title: string;
  problem: string;
}

/** The registry clause a title cites, when its tag is well formed, known and in the right section. */
export function citedClause(title: string): Clause | undefined {
  const tag = parseClauseTag(title);
  return tag && hasClause(tag.id) && clause(tag.id).section === tag.section ? clause(tag.id) : undefined;
}

export function lintTitles(titles: readonly string[]): TagProblem[] {
  const problems: TagProblem[] = [];
  for (const title of titles) {
    const tag = parseClauseTag(title);
    if (!tag) problems.push({ title, problem: 'has no clause tag [§<section> <clause-id>]' });
    else if (!hasClause(tag.id)) problems.push({ title, problem: `cites ${tag.id}, which is not in specs/clauses.yaml` });
    else if (clause(tag.id).section !== tag.section)
      problems.push({ title, problem: `cites §${tag.section}, but ${tag.id} is in §${clause(tag.id).section}` });
    else if (!clause(tag.id).testable) problems.push({ title, problem: `cites ${tag.id}, which the registry marks not testable` });
  }
  return problems;
}

/** Testable clauses that no title cites. */
export function uncitedClauses(titles: readonly string[]): string[] {
  const cited = new Set(titles.map((t) => parseClauseTag(t)?.id));
  return clauses.filter((c) => c.testable && !cited.has(c.id)).map((c) => c.id);
}
