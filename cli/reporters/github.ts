// GitHub Actions output, when GITHUB_ACTIONS=true: an error annotation per gating failure, at the
// test's file and line, and the report in the job's step summary ($GITHUB_STEP_SUMMARY).
import { appendFileSync } from 'node:fs';
import { redactor } from '../../harness/runner.ts';
import { printable } from './printable.ts';
import type { RunResult } from './results.ts';
import { renderSummary } from './summary.ts';

/** Workflow-command escaping of a property value and of the message. */
const property = (text: string) =>
  text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/:/g, '%3A').replace(/,/g, '%2C');
const message = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

export function githubAnnotations(result: RunResult): string[] {
  return result.tests
    .filter((t) => t.state === 'failed' && t.gating)
    .map((t) => {
      const where = [
        `file=${property(t.file)}`,
        ...(t.line ? [`line=${t.line}`] : []),
        `title=${property(t.clause ? `conformance: ${t.clause}` : 'conformance')}`,
      ];
      return printable(redactor.redact(`::error ${where.join(',')}::${message(t.failure ?? t.name)}`));
    });
}

export function writeGithubOutput(result: RunResult, env: NodeJS.ProcessEnv, print: (line: string) => void): void {
  if (env.GITHUB_ACTIONS !== 'true') return;
  for (const line of githubAnnotations(result)) print(line);
  const summaryFile = env.GITHUB_STEP_SUMMARY;
  if (summaryFile) appendFileSync(summaryFile, `${printable(redactor.redact(renderSummary(result)))}\n`);
}
