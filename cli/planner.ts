// Plans a run without vitest: the suite files are imported in this process in planning mode,
// where `conformance()` records each test's title and plan instead of registering a test, and
// the plans are evaluated against the run's settings. Nothing is sent, and no test body runs.
// The files, their order and the titles are the ones vitest runs (harness/suite/order.ts), and a test
// of the project checks that --list agrees with what a run sends.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { evaluatePlan, PLANNING, type PlanRegistry, type RunSettings, type TestPlan } from '../harness/runner.ts';
import { orderSuiteFiles, shardOf } from '../harness/runner.ts';
import { projectRoot } from './paths.ts';
import type { PlannedTest } from './suite-runner.ts';

interface DeclaredTest {
  file: string;
  name: string;
  plan: TestPlan;
}

/** The suite's test files, in the order they run, of one shard if asked. */
export function suiteFiles(shard?: { index: number; count: number }): string[] {
  const suites = join(projectRoot, 'suites');
  const files = readdirSync(suites, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.test.ts'))
    .map((path) => join(suites, path));
  return shardOf(orderSuiteFiles(files), shard);
}

let declared: Promise<DeclaredTest[]> | undefined;

async function declaredTests(): Promise<DeclaredTest[]> {
  const tests: DeclaredTest[] = [];
  const registry: PlanRegistry = { file: '', add: (name, plan) => tests.push({ file: registry.file, name, plan }) };
  (globalThis as Record<symbol, unknown>)[PLANNING] = registry;
  try {
    for (const file of suiteFiles()) {
      registry.file = relative(projectRoot, file);
      await import(pathToFileURL(file).href);
    }
  } finally {
    delete (globalThis as Record<symbol, unknown>)[PLANNING];
  }
  return tests;
}

/** Every test of the given files with its plan evaluated for these settings. */
export async function planTests(files: readonly string[], settings: RunSettings): Promise<PlannedTest[]> {
  declared ??= declaredTests();
  const wanted = new Set(files.map((f) => relative(projectRoot, f)));
  return (await declared)
    .filter((t) => wanted.has(t.file))
    .map((t) => ({ file: t.file, name: t.name, plan: evaluatePlan(t.name, t.plan, settings) }))
    .filter((t) => t.plan.skip?.category !== 'not-selected');
}
