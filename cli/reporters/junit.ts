// JUnit XML that CI tools read: valid against the schema the Jenkins xUnit plugin applies
// (junit-10.xsd), which GitLab and GitHub report actions read too. Two files:
//   junit.xml           the gate: every gating test (contract, and observed ones with --strict);
//                       its failure count is the gating failure count, so it agrees with the exit
//                       code. A known failure (baseline) is a passing case that says so.
//   junit-observed.xml  the observed level, with its failures as real failures, for teams to
//                       publish as a non-blocking report.
// The schema allows no properties in a test case and no `file` on one: each file of the suite is
// one <testsuite file="...">, and the run's facts (verdict, flags, unverified clauses) are the
// properties of a first suite named "conformance run". Clause and level data per test live in
// results.json.
import type { RunResult, TestOutcome } from './results.ts';
import { printable } from './printable.ts';
import { stoppedLine, unverifiedReasons } from './results.ts';

function escape(text: string): string {
  // XML 1.0 cannot carry most control characters, even escaped: they are shown as their escapes.
  return printable(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function attributes(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => `${name}="${escape(String(value))}"`)
    .join(' ');
}

function property(name: string, value: string | number | boolean): string {
  return `      <property ${attributes({ name, value: String(value) })}/>`;
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function testcase(test: TestOutcome, failuresAreReal: boolean): string {
  const head = `    <testcase ${attributes({ name: test.name, classname: test.file.replace(/\.test\.ts$/, '').replace(/[\\/]/g, '.'), time: seconds(test.durationMs) })}`;
  if (test.state === 'skipped')
    return `${head}>\n      <skipped ${attributes({ message: test.skip ? `[${test.skip.category ?? 'skipped'}] ${test.skip.reason}` : 'skipped' })}/>\n    </testcase>`;
  if (test.state === 'error') {
    // The suite's own error is not the target's failure: an <error>, which no report counts as a failed clause.
    return `${head}>\n      <error ${attributes({ message: test.failure ?? 'the suite erred', type: 'suite error' })}>${escape(test.errors.join('\n\n'))}</error>\n    </testcase>`;
  }
  if (isFailure(test, failuresAreReal)) {
    const type = test.clause ? `clause ${test.clause}` : 'untagged test';
    return `${head}>\n      <failure ${attributes({ message: test.failure ?? 'failed', type })}>${escape(test.errors.join('\n\n'))}</failure>\n    </testcase>`;
  }
  if (test.state === 'failed' && test.known) {
    return `${head}>\n      <system-out>${escape(`known failure (baseline: ${test.known.reason}): ${test.failure ?? ''}`)}</system-out>\n    </testcase>`;
  }
  return `${head}/>`;
}

function isFailure(test: TestOutcome, failuresAreReal: boolean): boolean {
  return test.state === 'failed' && failuresAreReal && !test.known;
}

function render(result: RunResult, tests: TestOutcome[], suiteName: string, failuresAreReal: (t: TestOutcome) => boolean): string {
  const byFile = new Map<string, TestOutcome[]>();
  for (const test of tests) byFile.set(test.file, [...(byFile.get(test.file) ?? []), test]);
  const info = result.info;
  const runProperties = [
    property('verdict', result.verdict),
    property('target', info.target),
    property('base_url', info.baseUrl),
    property('seed', info.seed),
    property('strict', info.strict),
    property('flags', info.flags.join(' ') || '(none)'),
    property('suite_version', info.version),
    property('suite_commit', info.commit),
    property('requests', result.requests),
    ...(info.shard ? [property('shard', `${info.shard.index}/${info.shard.count}`)] : []),
    ...(info.stopped ? [property('stopped', stoppedLine(info.stopped))] : []),
    ...unverifiedReasons(result).map((u) => property(`unverified.${u.id}`, u.reasons.join('; '))),
  ];
  const failures = tests.filter((t) => isFailure(t, failuresAreReal(t))).length;
  const errors = result.unhandled.length + tests.filter((t) => t.state === 'error').length;
  const suites = [
    `  <testsuite ${attributes({ name: 'conformance run', tests: 0, failures: 0, errors: 0, skipped: 0, time: seconds(info.wallMs), timestamp: info.startedAt })}>`,
    '    <properties>',
    ...runProperties,
    '    </properties>',
    '  </testsuite>',
  ];
  for (const [file, cases] of byFile) {
    const suiteFailures = cases.filter((t) => isFailure(t, failuresAreReal(t))).length;
    suites.push(
      `  <testsuite ${attributes({
        name: file,
        tests: cases.length,
        failures: suiteFailures,
        errors: cases.filter((t) => t.state === 'error').length,
        skipped: cases.filter((t) => t.state === 'skipped').length,
        time: seconds(cases.reduce((sum, t) => sum + t.durationMs, 0)),
        timestamp: info.startedAt,
        file,
      })}>`,
      ...cases.map((t) => testcase(t, failuresAreReal(t))),
      '  </testsuite>',
    );
  }
  const outside = result.unhandled.length;
  if (outside > 0) {
    suites.push(
      `  <testsuite ${attributes({ name: 'errors outside tests', tests: outside, failures: 0, errors: outside, skipped: 0, time: '0.000' })}>`,
    );
    result.unhandled.forEach((message, i) => {
      suites.push(
        `    <testcase ${attributes({ name: `error ${i + 1}`, classname: 'run' })}>`,
        `      <error ${attributes({ message: message.split('\n')[0] ?? '', type: 'error' })}>${escape(message)}</error>`,
        '    </testcase>',
      );
    });
    suites.push('  </testsuite>');
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attributes({ name: suiteName, tests: tests.length + outside, failures, errors, time: seconds(info.wallMs) })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/** junit.xml: the gate. */
export function renderJunit(result: RunResult): string {
  const inGate = result.tests.filter((t) => t.level !== 'observed' || result.info.strict);
  return render(result, inGate, 'management API v2 conformance', (t) => t.gating);
}

/** junit-observed.xml: the observed level, failures real, for a non-blocking report. */
export function renderObservedJunit(result: RunResult): string {
  const observed = result.tests.filter((t) => t.level === 'observed');
  return render(result, observed, 'management API v2 conformance: observed behaviour (not gating)', () => true);
}
