// Prints the line CI reads: "N passed, N failed", counted from vitest's JSON report, plus one
// entry per fault of the mutation gate (a killed fault passes, a surviving one fails) and one
// failure per failed CI step (the type check). Exits 1 when anything failed or a report is missing.
// Just above that line it names what failed (the test, its file, the first lines of its message),
// so that a CI log cut to its tail still says which test it was.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [testsFile, mutationFile, failedSteps = '0'] = process.argv.slice(2);
let passed = 0;
let failed = Number(failedSteps);
const named = [];

/** The first lines of a failure message, without terminal colours. */
const excerpt = (message = '') =>
  message
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, 6)
    .map((line) => `    ${line.slice(0, 300)}`)
    .join('\n');

if (testsFile && existsSync(testsFile)) {
  const report = JSON.parse(readFileSync(testsFile, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  for (const file of report.testResults) {
    const where = relative(process.cwd(), file.name);
    // A file that failed to load has no failed test in it; count it so it cannot hide.
    if (file.status === 'failed' && file.assertionResults.length === 0) {
      failed += 1;
      named.push(`${where}: the file failed\n${excerpt(file.message)}`);
    }
    for (const test of file.assertionResults.filter((t) => t.status === 'failed')) {
      named.push(`${where} > ${test.fullName} (${Math.round(test.duration ?? 0)} ms)\n${excerpt(test.failureMessages?.[0])}`);
    }
  }
} else {
  console.error(`no test report at ${testsFile}`);
  failed += 1;
}

if (mutationFile && existsSync(mutationFile)) {
  const mutation = JSON.parse(readFileSync(mutationFile, 'utf8'));
  for (const row of [...mutation.faults, ...mutation.conformanceRuns]) {
    if (row.passed) passed += 1;
    else {
      failed += 1;
      named.push(
        row.fault !== undefined
          ? `mutation gate: fault ${row.fault} (${row.clause}) survived${row.error ? `: ${row.error}` : ''}`
          : `mutation gate: the conformant mock, seed ${row.seed}, failed: ${(row.problems ?? []).join('; ').slice(0, 600)}`,
      );
    }
  }
}

if (named.length > 0) {
  console.log(`what failed (${named.length}):`);
  for (const line of named.slice(0, 20)) console.log(`  ${line}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
