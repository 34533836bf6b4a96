// JUnit XML for release gates. Its failure count is the gating failure count, so a gate that
// reads the file agrees with the exit code: an observed-level failure outside --strict is written
// with its message in <system-err> and the property outcome=failed, not as a <failure>.
// Every test case carries its clause, section and level as properties.
import type { RunInfo, RunResult, TestOutcome } from './results.ts';

function escape(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function property(name: string, value: string | number | boolean): string {
  return `<property name="${escape(name)}" value="${escape(String(value))}"/>`;
}

function testcase(test: TestOutcome): string {
  const classname = test.file.replace(/\.test\.ts$/, '').replace(/[\\/]/g, '.');
  const properties = [
    property('clause', test.clause ?? '(none)'),
    property('section', test.section ?? '(none)'),
    property('level', test.level ?? '(untagged)'),
    property('gating', test.gating),
    property('outcome', test.state),
    property('requests', test.requests),
  ];
  const body: string[] = [`      <properties>${properties.join('')}</properties>`];
  const message = test.errors.join('\n\n') || (test.clause ? '' : 'test title has no known clause tag "[§<section> <clause-id>]"');
  if (test.state === 'failed' && test.gating) {
    const first = message.split('\n')[0] ?? 'failed';
    body.push(`      <failure message="${escape(first)}" type="${test.level ?? 'untagged'}">${escape(message)}</failure>`);
  } else if (test.state === 'failed') {
    body.push(`      <system-err>${escape(`observed-level failure (not gating; --strict gates it):\n${message}`)}</system-err>`);
  } else if (test.state === 'skipped') {
    body.push(`      <skipped message="${escape(test.note ?? 'skipped')}"/>`);
  } else if (!test.clause) {
    body.push(`      <failure message="untagged test" type="untagged">${escape(message)}</failure>`);
  }
  return [
    `    <testcase classname="${escape(classname)}" name="${escape(test.name)}" time="${(test.durationMs / 1000).toFixed(3)}">`,
    ...body,
    '    </testcase>',
  ].join('\n');
}

export function renderJunit(result: RunResult, info: RunInfo): string {
  const byFile = new Map<string, TestOutcome[]>();
  for (const test of result.tests) byFile.set(test.file, [...(byFile.get(test.file) ?? []), test]);
  const failures = (tests: TestOutcome[]) => tests.filter((t) => (t.state === 'failed' && t.gating) || !t.clause).length;
  const skipped = (tests: TestOutcome[]) => tests.filter((t) => t.state === 'skipped').length;
  const seconds = (tests: TestOutcome[]) => (tests.reduce((s, t) => s + t.durationMs, 0) / 1000).toFixed(3);
  const runProperties = [
    property('target', info.target),
    property('base_url', info.baseUrl),
    property('seed', info.seed),
    property('strict', info.strict),
    ...(info.shard ? [property('shard', info.shard)] : []),
  ].join('');
  const suites = [...byFile.entries()].map(([file, tests]) =>
    [
      `  <testsuite name="${escape(file)}" tests="${tests.length}" failures="${failures(tests)}" errors="0" skipped="${skipped(tests)}" time="${seconds(tests)}" timestamp="${info.startedAt.toISOString()}">`,
      `    <properties>${runProperties}</properties>`,
      ...tests.map(testcase),
      '  </testsuite>',
    ].join('\n'),
  );
  const errors = result.unhandled.length;
  const unhandledSuite = errors
    ? [
        `  <testsuite name="errors outside tests" tests="${errors}" failures="0" errors="${errors}" skipped="0" time="0">`,
        ...result.unhandled.map((m, i) => `    <testcase classname="run" name="error ${i + 1}"><error message="${escape(m.split('\n')[0] ?? '')}">${escape(m)}</error></testcase>`),
        '  </testsuite>',
      ]
    : [];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="management API v2 conformance" tests="${result.tests.length + errors}" failures="${failures(result.tests)}" errors="${errors}" skipped="${skipped(result.tests)}" time="${(info.wallMs / 1000).toFixed(3)}">`,
    ...suites,
    ...unhandledSuite,
    '</testsuites>',
    '',
  ].join('\n');
}
