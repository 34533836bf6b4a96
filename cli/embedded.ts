// The embedded default target: the mock server with its default fixtures, on a free loopback
// port, described by targets/mock.yaml with its URLs pointed at that port. The signing key is
// shared through a temporary file, the same way a user shares it with a mock started by hand.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { resolveTarget } from '../harness/config.ts';
import type { ResolvedTarget } from '../harness/settings.ts';
import { createMockServer } from '../mock/index.ts';
import { projectRoot } from './run-suite.ts';

export interface EmbeddedTarget {
  target: ResolvedTarget;
  close(): Promise<void>;
}

export interface EmbeddedOptions {
  faults?: string[];
}

export async function startEmbeddedTarget(options: EmbeddedOptions = {}): Promise<EmbeddedTarget> {
  const keyDir = mkdtempSync(join(tmpdir(), 'conformance-key-'));
  const signingKey = join(keyDir, 'signing-key.pem');
  const mock = await createMockServer({ port: 0, host: '127.0.0.1', signingKey, ...(options.faults ? { faults: options.faults } : {}) });
  try {
    const description = parse(readFileSync(join(projectRoot, 'targets', 'mock.yaml'), 'utf8')) as Record<string, unknown>;
    const target = await resolveTarget(
      { ...description, base_url: `${mock.url}/api/v2`, auth_url: mock.url, signing_key_file: signingKey },
      { source: options.faults?.length ? `embedded mock with fault ${options.faults.join(', ')}` : 'embedded mock', baseDir: projectRoot },
    );
    return {
      target,
      async close() {
        await mock.close();
        rmSync(keyDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await mock.close();
    rmSync(keyDir, { recursive: true, force: true });
    throw error;
  }
}
