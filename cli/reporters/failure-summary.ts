// One line that says what failed: the clause the test cites, what was expected and what came back.
// It is the JUnit failure message and the CI annotation, so it must stand alone. The full text
// (response excerpt, replay line) stays in the failure's body.
import { parseClauseTag } from '../../specs/index.ts';

const MAX_LENGTH = 400;

export function failureSummary(title: string, errors: readonly string[]): string {
  const tag = parseClauseTag(title);
  const prefix = tag ? `[§${tag.section} ${tag.id}] ` : '';
  const text = errors.join('\n');
  const expected = lineAfter(text, 'expected:');
  const actual = lineAfter(text, 'actual:');
  const generated = /Counterexample: (.*)/.exec(text)?.[1];
  let summary: string;
  if (expected !== undefined && actual !== undefined) {
    summary = `${prefix}expected ${expected}; actual ${actual}${generated ? ` (generated case ${generated.trim()})` : ''}`;
  } else {
    const first =
      text
        .split('\n')
        .map((line) => line.trim())
        .find((line) => line.length > 0 && !line.startsWith('Property failed')) ?? 'failed';
    summary = `${prefix}${first}`;
  }
  const flat = summary.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_LENGTH ? `${flat.slice(0, MAX_LENGTH - 1)}…` : flat;
}

/** The rest of the first line of `text` that starts with `label` (after indentation). */
export function lineAfter(text: string, label: string): string | undefined {
  const line = text.split('\n').find((candidate) => candidate.trimStart().startsWith(label));
  return line?.trimStart().slice(label.length).trim();
}
