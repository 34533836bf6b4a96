// `conformance`: vitest's test with a `target` fixture. A suite writes
//   conformance('[§7 redeliver.errors.404.stream] redelivery answers 404 for an unknown stream',
//     async ({ target }) => { ... });
// and the fixture records how many requests the test sent, for the reports.
import { inject, test } from 'vitest';
import { runtimeFor } from './runtime.ts';
import { TargetSession } from './session.ts';

declare module '@vitest/runner' {
  interface TaskMeta {
    requests?: number;
    operations?: Record<string, number>;
  }
}

export const conformance = test.extend<{ target: TargetSession }>({
  target: async ({ task, skip }, use) => {
    const runtime = runtimeFor(inject('settings'));
    const session = new TargetSession(runtime, skip as (note: string) => never);
    runtime.current = session;
    try {
      await use(session);
    } finally {
      runtime.current = undefined;
      task.meta.requests = session.requests;
      task.meta.operations = { ...session.byOperation };
    }
  },
});
