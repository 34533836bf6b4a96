// Prints the line CI reads: "N passed, N failed", counted from vitest's JSON report, plus one
// entry per fault of the mutation gate (a killed fault passes, a surviving one fails) and one
// failure per failed CI step (the type check). Exits 1 when anything failed or a report is missing.
import { existsSync, readFileSync } from 'node:fs';

const [testsFile, mutationFile, failedSteps = '0'] = process.argv.slice(2);
let passed = 0;
let failed = Number(failedSteps);

if (testsFile && existsSync(testsFile)) {
  const report = JSON.parse(readFileSync(testsFile, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  // A file that failed to load has no failed test in it; count it so it cannot hide.
  failed += report.testResults.filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
} else {
  console.error(`no test report at ${testsFile}`);
  failed += 1;
}

if (mutationFile && existsSync(mutationFile)) {
  const mutation = JSON.parse(readFileSync(mutationFile, 'utf8'));
  for (const row of [...mutation.faults, ...mutation.conformanceRuns]) {
    if (row.passed) passed += 1;
    else failed += 1;
  }
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
