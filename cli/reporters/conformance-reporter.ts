// The vitest reporter of a conformance run: a line per test file while it runs, then the reports
// (junit.xml, summary.md) and the console summary. It replaces vitest's own reporters, so every
// line printed has passed through the redactor.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, SerializedError, TestModule, Vitest } from 'vitest/node';
import { redactor } from '../../harness/redact.ts';
import { renderJunit } from './junit.ts';
import { collectResults, partOfThisRun, type RunInfo, type RunResult } from './results.ts';
import { clauseRows, renderSummary } from './summary.ts';

export interface ConformanceReporterOptions {
  outDir: string;
  info: () => RunInfo;
  print: (line: string) => void;
}

export class ConformanceReporter implements Reporter {
  result: RunResult | undefined;
  readonly #options: ConformanceReporterOptions;
  #root = process.cwd();

  constructor(options: ConformanceReporterOptions) {
    this.#options = options;
  }

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root;
  }

  onTestModuleEnd(module: TestModule): void {
    const tests = [...module.children.allTests()].filter(partOfThisRun);
    if (tests.length === 0) return;
    const count = (state: string) => tests.filter((t) => t.result().state === state).length;
    const failed = count('failed');
    const mark = failed > 0 ? '✗' : '✓';
    const file = module.moduleId.slice(this.#root.length + 1);
    this.#options.print(`${mark} ${file}  ${count('passed')} passed${failed ? `, ${failed} failed` : ''}${count('skipped') ? `, ${count('skipped')} skipped` : ''}`);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const info = this.#options.info();
    const result = collectResults(modules, unhandledErrors, info.strict, this.#root);
    this.result = result;
    mkdirSync(this.#options.outDir, { recursive: true });
    writeFileSync(join(this.#options.outDir, 'junit.xml'), redactor.redact(renderJunit(result, info)));
    writeFileSync(join(this.#options.outDir, 'summary.md'), redactor.redact(renderSummary(result, info)));
    this.#printSummary(result, info);
  }

  #printSummary(result: RunResult, info: RunInfo): void {
    const print = (line: string) => this.#options.print(redactor.redact(line));
    const failed = result.tests.filter((t) => t.state === 'failed');
    for (const test of failed) {
      print('');
      print(`${test.gating ? 'FAIL' : 'FAIL (observed, not gating)'} ${test.fullName}`);
      for (const error of test.errors) print(error.split('\n').map((l) => `  ${l}`).join('\n'));
    }
    for (const error of result.unhandled) print(`\nERROR outside tests: ${error}`);
    for (const test of result.untagged) print(`\nUNTAGGED ${test.file}: "${test.name}" has no known clause tag [§<section> <clause-id>]`);
    const rows = clauseRows(result);
    const untested = rows.filter((r) => r.clause.level === 'contract' && r.status === 'untested');
    print('');
    print(`contract: ${result.contract.passed} passed, ${result.contract.failed} failed, ${result.contract.skipped} skipped`);
    print(`observed: ${result.observed.passed} passed, ${result.observed.failed} failed, ${result.observed.skipped} skipped${info.strict ? ' (gating)' : ' (not gating)'}`);
    print(`clauses:  ${rows.filter((r) => r.status === 'pass').length} pass, ${rows.filter((r) => r.status.startsWith('fail')).length} fail, ${untested.length} contract untested, ${rows.filter((r) => r.status === 'not testable').length} not testable, ${rows.filter((r) => r.status === 'gap').length} gaps`);
    print(`requests: ${result.requests + info.extraRequests} used    seed: ${info.seed}    wall time: ${(info.wallMs / 1000).toFixed(1)} s`);
    print(`reports:  ${join(this.#options.outDir, 'junit.xml')}, ${join(this.#options.outDir, 'summary.md')}`);
    print(result.passed ? 'RESULT: PASS' : 'RESULT: FAIL');
  }
}
