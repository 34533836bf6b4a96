// The suites under vitest's node API, in this process: one Vitest instance that runs the given
// files as many times as needed with new settings (the mutation gate runs the suite many times
// without starting vitest again). Planning does not need it (cli/planner.ts).
import { setFlagsFromString } from 'node:v8';
import type { TestModule, TestSpecification, Vitest } from 'vitest/node';
import type { EvaluatedPlan, RunSettings } from '../harness/runner.ts';
import { projectRoot, suiteConfig } from './paths.ts';

/**
 * The heap of the test worker, in MB. What a run keeps of the target's answers is bounded
 * (harness/http.ts answerSummary); this bounds the garbage the largest answers leave between two
 * collections, which V8 would otherwise let grow to a quarter of the machine's memory. A worker
 * that needs more anyway stops alone (ERR_WORKER_OUT_OF_MEMORY): this process goes on and reports
 * the run as stopped. CONFORMANCE_TEST_WORKER_HEAP_MB changes it (the project's tests make a
 * worker run out on purpose).
 */
const WORKER_HEAP_MB = Number(process.env.CONFORMANCE_TEST_WORKER_HEAP_MB) || 512;

/** What one run of the suites came to. */
export interface SuiteRun {
  modules: ReadonlyArray<TestModule>;
  /** Errors outside any test: a file that failed to load, an unhandled rejection, an error thrown here meanwhile. */
  unhandled: string[];
  /** The test worker died before the run was done: why, and whether it ran out of memory. */
  workerDied?: { outOfMemory: boolean; reason: string };
}

export interface PlannedTest {
  file: string;
  name: string;
  plan: EvaluatedPlan;
}

export interface SuiteRunnerOptions {
  /** The suite files to run, in order (cli/planner.ts suiteFiles). */
  files: readonly string[];
  testTimeoutMs: number;
  /** Told when a test file finishes (the console's progress line). */
  onFileDone?: (module: TestModule) => void;
}

export class SuiteRunner {
  readonly #vitest: Vitest;
  readonly #specifications: TestSpecification[];
  readonly #running: { value: boolean };

  private constructor(vitest: Vitest, specifications: TestSpecification[], running: { value: boolean }) {
    this.#vitest = vitest;
    this.#specifications = specifications;
    this.#running = running;
  }

  static async create(options: SuiteRunnerOptions): Promise<SuiteRunner> {
    const { createVitest } = await import('vitest/node');
    // A worker thread's heap is sized from V8's flags when the thread starts: this bounds the
    // worker vitest starts, and leaves this process's own heap as it is.
    setFlagsFromString(`--max-old-space-size=${WORKER_HEAP_MB}`);
    const running = { value: false };
    const progress = {
      onTestModuleEnd(module: TestModule) {
        if (running.value) options.onFileDone?.(module);
      },
    };
    const vitest = await createVitest('test', {
      root: projectRoot,
      config: suiteConfig,
      watch: false,
      passWithNoTests: true,
      testTimeout: options.testTimeoutMs,
      reporters: [progress],
    });
    const all = await vitest.globTestSpecifications();
    const specifications = options.files.map((file) => {
      const found = all.find((spec) => spec.moduleId === file);
      if (!found) throw new Error(`vitest does not know the suite file ${file}`);
      return found;
    });
    return new SuiteRunner(vitest, specifications, running);
  }

  /**
   * Runs the suites. `settings` is the one message that crosses into the test worker: everything
   * a test knows of the run comes in it.
   */
  async run(settings: RunSettings): Promise<SuiteRun> {
    this.#vitest.getRootProject().provide('settings', settings);
    this.#running.value = true;
    // vitest reports a worker that dies twice: once to the run (below), then as an 'error' event
    // nobody listens to, which would end this process with no report. That second report is the
    // only error caught here; anything else thrown in this process meanwhile is the suite's.
    const thrownHere: string[] = [];
    const uncaught = (error: Error) => {
      if (error.message !== 'Worker exited unexpectedly') thrownHere.push(`${error.name}: ${error.message}`);
    };
    process.on('uncaughtException', uncaught);
    try {
      const result = await this.#vitest.runTestSpecifications(this.#specifications);
      const died = result.unhandledErrors.map(workerDeath).find((death) => death !== undefined);
      const unhandled = result.unhandledErrors
        .filter((e) => workerDeath(e) === undefined)
        .map((e) => String((e as { message?: string }).message ?? e));
      return { modules: result.testModules, unhandled: [...unhandled, ...thrownHere], ...(died ? { workerDied: died } : {}) };
    } finally {
      process.off('uncaughtException', uncaught);
      this.#running.value = false;
    }
  }

  async close(): Promise<void> {
    await this.#vitest.close();
  }
}

/** A worker's death as vitest reports it: "[vitest-pool]: Worker ... emitted error." with the cause. */
function workerDeath(error: unknown): SuiteRun['workerDied'] {
  const message = (error as { message?: unknown }).message;
  if (typeof message !== 'string') return undefined;
  if (!/^\[vitest-pool\]: Worker .* emitted error\.$/.test(message)) return undefined;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return {
      outOfMemory: true,
      reason: `the test worker ran out of memory (its heap is bounded at ${WORKER_HEAP_MB} MB): the target's answers took more than the suite can hold, and the tests after that point did not run`,
    };
  }
  return {
    outOfMemory: false,
    reason: `the test worker stopped unexpectedly (${cause?.message ?? message}); the tests after that point did not run`,
  };
}
