// The suites under vitest's node API, in this process: one Vitest instance that runs the given
// files as many times as needed with new settings (the mutation gate runs the suite many times
// without starting vitest again). Planning does not need it (cli/planner.ts).
import type { TestModule, TestSpecification, Vitest } from 'vitest/node';
import type { EvaluatedPlan } from '../harness/plan.ts';
import type { RunSettings } from '../harness/settings.ts';
import { projectRoot, suiteConfig } from './paths.ts';

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

  /** Runs the suites with these settings. */
  async run(settings: RunSettings): Promise<{ modules: ReadonlyArray<TestModule>; unhandled: string[] }> {
    this.#vitest.getRootProject().provide('settings', settings);
    this.#running.value = true;
    try {
      const result = await this.#vitest.runTestSpecifications(this.#specifications);
      return {
        modules: result.testModules,
        unhandled: result.unhandledErrors.map((e) => String((e as { message?: string }).message ?? e)),
      };
    } finally {
      this.#running.value = false;
    }
  }

  async close(): Promise<void> {
    await this.#vitest.close();
  }
}
