// The order of the suite's files: by path, so every run (and --list) sends the same requests in
// the same order, with the rate-limit files last, because they read every answer the run has
// seen, and the deliberate exhaustion at the very end, so that nothing after it has to wait for
// the target's bucket to refill. Shard I of N takes every Nth file of that order.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { orderSuiteFiles } from './order.ts';

export default class SuiteSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const order = orderSuiteFiles(files.map((f) => f.moduleId));
    return [...files].sort((a, b) => order.indexOf(a.moduleId) - order.indexOf(b.moduleId));
  }
}
