// The main-process half of the suite under StrykerJS (bench/stryker/vitest.config.ts), loaded as
// a vitest reporter because a reporter is told when each run starts, before its worker starts:
// Stryker runs the whole suite once per mutant in one vitest instance, every run in a new worker
// thread, and each run needs run settings of its own (a new run id, a deadline counted from its
// start, a free port for the mock its worker starts). It hands them to the worker the way
// `npm start` does, through vitest's `provide`: the suites read them with `inject('settings')`,
// and bench/stryker/in-worker-mock.ts reads `inWorkerMock` to start the mock they point at.
//
// The settings are the embedded run's (cli/run.ts): the default fixtures, a bucket sized to the
// plan, the exhaustion capped at two buckets, with a fixed seed and one generated case per
// property, so that two runs of the benchmark send the same requests.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportPKCS8, generateKeyPair } from 'jose';
import type { Reporter, Vitest } from 'vitest/node';
import {
  EMBEDDED_REFILL_PER_SECOND,
  embeddedBucketFor,
  embeddedTargetAt,
  embeddedTargetForPlanning,
  exhaustionCapFor,
} from '../../cli/embedded.ts';
import { DEFAULTS } from '../../cli/options.ts';
import { planOf } from '../../cli/plan.ts';
import { planTests, suiteFiles } from '../../cli/planner.ts';
import type { RunSettings } from '../../harness/settings.ts';
import { observed } from '../../specs/index.ts';

/** What the worker needs to start the mock the run settings point at. */
export interface InWorkerMock {
  port: number;
  /** The signing key file the target's settings were read from (PKCS8 PEM). */
  signingKey: string;
  bucketSize: number;
  refillPerSecond: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    inWorkerMock: InWorkerMock;
  }
}

/** The benchmark's fixed seed and generated cases per property: every run sends the same requests. */
export const STRYKER_SEED = 1;
/** One generated case per property: with none, the properties without a deterministic case would skip. */
export const STRYKER_NUM_RUNS = 1;
/** A run's bound; Stryker's own timeout (the dry run's time and a margin) ends a slow mutant long before. */
const RUN_BOUND_MS = 300_000;
/** Each request's bound: a mutant that leaves a request unanswered fails that test instead of hanging the run. */
const REQUEST_TIMEOUT_MS = 5_000;

interface Prepared {
  keyDir: string;
  signingKey: string;
  bucketSize: number;
  exhaustionMax: number;
  maxRequests: number;
}

export default class RunProvider implements Reporter {
  #vitest: Vitest | undefined;
  #prepared: Promise<Prepared> | undefined;

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
    this.#prepared = prepare();
    vitest.onClose(async () => {
      const prepared = await this.#prepared?.catch(() => undefined);
      if (prepared) rmSync(prepared.keyDir, { recursive: true, force: true });
    });
  }

  async onTestRunStart(): Promise<void> {
    const prepared = await this.#prepared!;
    const port = await freeLoopbackPort();
    const described = await embeddedTargetAt({
      origin: `http://127.0.0.1:${port}`,
      signingKey: prepared.signingKey,
      source: 'in-worker mock (StrykerJS)',
    });
    const settings: RunSettings = {
      runId: randomUUID(),
      // The bucket the in-worker mock starts with, as cli/embedded.ts says of its own: the limit
      // tests compare X-RateLimit-Limit with it (targets/mock.yaml's is a hand-started mock's).
      target: { ...described, rateLimit: { ...described.rateLimit, startedBucket: prepared.bucketSize } },
      strict: true,
      seed: STRYKER_SEED,
      numRuns: STRYKER_NUM_RUNS,
      allowWrites: false,
      allowRateLimitExhaustion: false,
      maxRequests: prepared.maxRequests,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      rateShare: DEFAULTS.rateShare,
      exhaustionMax: prepared.exhaustionMax,
      deadline: Date.now() + RUN_BOUND_MS,
      filter: {},
    };
    this.#vitest!.provide('settings', settings);
    this.#vitest!.provide('inWorkerMock', {
      port,
      signingKey: prepared.signingKey,
      bucketSize: prepared.bucketSize,
      refillPerSecond: EMBEDDED_REFILL_PER_SECOND,
    });
  }
}

/** Once per vitest instance: the shared signing key, and the bucket and budget sized to the plan. */
async function prepare(): Promise<Prepared> {
  const keyDir = mkdtempSync(join(tmpdir(), 'stryker-conformance-key-'));
  const signingKey = join(keyDir, 'signing-key.pem');
  const { privateKey } = await generateKeyPair(observed.tokens.alg, { extractable: true });
  writeFileSync(signingKey, await exportPKCS8(privateKey), { mode: 0o600 });
  const planning: RunSettings = {
    runId: 'planning',
    target: await embeddedTargetForPlanning(),
    strict: true,
    seed: STRYKER_SEED,
    numRuns: STRYKER_NUM_RUNS,
    allowWrites: false,
    allowRateLimitExhaustion: false,
    maxRequests: DEFAULTS.maxRequests,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    rateShare: DEFAULTS.rateShare,
    exhaustionMax: 0,
    deadline: Date.now() + RUN_BOUND_MS,
    filter: {},
  };
  const tests = await planTests(suiteFiles(), planning);
  const bucketSize = embeddedBucketFor(tests);
  const exhaustionMax = exhaustionCapFor(bucketSize);
  return { keyDir, signingKey, bucketSize, exhaustionMax, maxRequests: Math.max(DEFAULTS.maxRequests, planOf(tests, exhaustionMax).total) };
}

/** A port free on 127.0.0.1 now; the worker's mock listens on it a moment later. */
async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no loopback port could be reserved');
  return address.port;
}
