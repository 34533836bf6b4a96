// The embedded default target: the mock server with its default fixtures, on a free loopback
// port, described by targets/mock.yaml (a test double) with its URLs pointed at that port. The
// signing key is shared through a temporary file, the same way a user shares it with a mock
// started by hand.
//
// Its rate limit is the suite's own choice, made so that the verdict of the rate-limit tests never
// depends on the machine: a bucket that holds every request the run plans (so no test but the
// exhaustion ever meets a 429) and a refill far slower than any machine sends (so the exhaustion
// always outruns it).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { resolveTarget, type ResolvedTarget } from '../harness/runner.ts';
import { projectRoot } from './paths.ts';
import { planOf } from './plan.ts';
import type { PlannedTest } from './suite-runner.ts';

export interface EmbeddedTarget {
  target: ResolvedTarget;
  close: () => Promise<void>;
}

export interface EmbeddedOptions {
  faults?: string[];
  /** The bucket: requests the run plans, plus a margin. */
  bucketSize: number;
  /** An existing signing key file to reuse (the mutation gate's workers share one). */
  signingKey?: string;
}

/** Requests per second the embedded bucket refills: slower than any machine sends, one at a time. */
export const EMBEDDED_REFILL_PER_SECOND = 10;
/** Room above the plan, for the refill to leave some before the exhaustion and for retries. */
export const EMBEDDED_BUCKET_MARGIN = 50;

/** The bucket for a run of these tests: every request they plan, and the margin. */
export function embeddedBucketFor(tests: PlannedTest[]): number {
  return planOf(tests, 0).total + EMBEDDED_BUCKET_MARGIN;
}

/** The exhaustion's cap for a bucket: two buckets and a margin (harness/suite/exhaust.ts). */
export function exhaustionCapFor(bucketSize: number): number {
  return 2 * bucketSize + EMBEDDED_BUCKET_MARGIN;
}

const SOURCE = 'embedded mock';

/**
 * targets/mock.yaml, its file paths made absolute (they are relative to targets/, where it lives),
 * so that a copy written elsewhere still names them.
 */
export function mockTargetDescription(): Record<string, unknown> {
  const targets = join(projectRoot, 'targets');
  const described = parse(readFileSync(join(targets, 'mock.yaml'), 'utf8')) as Record<string, unknown> & {
    token_alternatives?: { key_client?: { private_key_file: string } };
  };
  const keyClient = described.token_alternatives?.key_client;
  if (keyClient) keyClient.private_key_file = resolve(targets, keyClient.private_key_file);
  return described;
}

/**
 * The embedded target as the plan sees it, before the mock starts: its URLs are not known yet,
 * and the signing key it will share is stood for by a marker.
 */
export async function embeddedTargetForPlanning(): Promise<ResolvedTarget> {
  const { signing_key_file: _key, ...rest } = mockTargetDescription();
  const target = await resolveTarget(
    { ...rest, base_url: 'http://127.0.0.1:9/api/v2', auth_url: 'http://127.0.0.1:9' },
    { source: SOURCE, baseDir: projectRoot },
  );
  // The bucket it will be started with is sized from this plan: known once the mock starts.
  return {
    ...target,
    signingKeyJwk: '(the embedded mock shares its key when it starts)',
    rateLimit: { ...target.rateLimit, startedBucket: 0 },
  };
}

/**
 * The embedded target for a mock of the default fixtures listening at `origin` and signing with
 * the key in the file `signingKey` (which must exist); its audience is the mock's, or without one
 * the description's (the default fixtures' tenant).
 */
export async function embeddedTargetAt(mock: {
  origin: string;
  audience?: string;
  signingKey: string;
  source?: string;
}): Promise<ResolvedTarget> {
  const described = mockTargetDescription();
  return resolveTarget(
    {
      ...described,
      base_url: `${mock.origin}/api/v2`,
      auth_url: mock.origin,
      audience: mock.audience ?? described.audience,
      signing_key_file: mock.signingKey,
    },
    { source: mock.source ?? SOURCE, baseDir: projectRoot },
  );
}

export async function startEmbeddedTarget(options: EmbeddedOptions): Promise<EmbeddedTarget> {
  const { createMockServer } = await import('../mock/index.ts');
  const keyDir = options.signingKey ? undefined : mkdtempSync(join(tmpdir(), 'conformance-key-'));
  const signingKey = options.signingKey ?? join(keyDir!, 'signing-key.pem');
  const cleanUp = () => {
    if (keyDir) rmSync(keyDir, { recursive: true, force: true });
  };
  const mock = await createMockServer({
    port: 0,
    host: '127.0.0.1',
    signingKey,
    rateLimit: { bucketSize: options.bucketSize, refillPerSecond: EMBEDDED_REFILL_PER_SECOND },
    ...(options.faults ? { faults: options.faults } : {}),
  });
  try {
    const source = options.faults?.length ? `${SOURCE} with fault ${options.faults.join(', ')}` : SOURCE;
    const described = await embeddedTargetAt({ origin: mock.url, audience: mock.audience, signingKey, source });
    const target = { ...described, rateLimit: { ...described.rateLimit, startedBucket: options.bucketSize } };
    return {
      target,
      async close() {
        await mock.close();
        cleanUp();
      },
    };
  } catch (error) {
    await mock.close();
    cleanUp();
    throw error;
  }
}
