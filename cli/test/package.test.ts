// The command as users install it: `npx mgmt-api-conformance` from a clone, and from a packed
// tarball installed into another project (npm pack, then npm install of the tarball).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from './support/programs.ts';

const npx = (cwd: string, args: string[]) =>
  spawnSync('npx', ['--no-install', ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    // --list prints the whole request-model matrix (about 1 MB, growing with each operation).
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });

describe('npx mgmt-api-conformance from the clone', () => {
  // Three npx starts in a row: about 13 s alone, over 20 s on a loaded 2-core machine.
  it('runs the command and its subcommands', { timeout: 60_000 }, () => {
    const help = npx(root, ['mgmt-api-conformance', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: npm start -- [options]');
    const merge = npx(root, ['mgmt-api-conformance', 'merge-reports', '--help']);
    expect(merge.stdout).toContain('Usage: npm run merge-reports');
    const mock = npx(root, ['mgmt-api-conformance', 'mock', '--help']);
    expect(mock.stdout).toMatch(/Usage: .*mock/);
  });
});

describe('a packed tarball installed into another project', () => {
  const consumer = mkdtempSync(join(tmpdir(), 'consumer-'));
  afterAll(() => rmSync(consumer, { recursive: true, force: true }));
  beforeAll(() => {
    execFileSync('npm', ['pack', '--pack-destination', consumer], { cwd: root, stdio: 'ignore', timeout: 60_000 });
    const tarball = readdirSync(consumer).find((name) => name.endsWith('.tgz'))!;
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${tarball}`], {
      cwd: consumer,
      stdio: 'ignore',
      timeout: 180_000,
    });
  }, 240_000);

  it('holds no test of the project itself', () => {
    const listed = execFileSync(
      'tar',
      [
        '-tzf',
        join(
          consumer,
          readdirSync(consumer).find((n) => n.endsWith('.tgz'))!,
        ),
      ],
      { encoding: 'utf8' },
    );
    expect(listed).toContain('package/suites/redeliver/success.test.ts');
    expect(listed).not.toMatch(/package\/(mock|harness|cli|generators|specs|traffic)\/test\//);
  });

  it('answers --help and plans a run against its embedded mock with npx', () => {
    const help = npx(consumer, ['mgmt-api-conformance', '--help']);
    expect(help.status).toBe(0);
    const list = npx(consumer, ['mgmt-api-conformance', '--list']);
    expect(list.stderr).not.toMatch(/error/i);
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/^request plan against embedded mock: \d+ tests/m);
    expect(list.stdout).toMatch(/^total: \d+ requests/m);
    // Two cold starts of the installed command, the second planning the whole suite (over 5,000
    // tests): 21.6 s in one fresh-clone CI run on a busy machine, over the default 20 s.
  }, 60_000);
});
