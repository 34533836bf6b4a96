// `npm run bench:drift`: how far the embedded mock drifts from a target that stands where a real
// tenant would. The same deterministic plan (one seed, no generated cases) runs against the
// embedded mock and against the tenant stand-in (bench/tenant-stand-in.ts: the mock over HTTPS as
// someone's tenant, at a published rate limit), both keeping their exchanges (--record); then
// `compare` sets them side by side: clauses and tests that passed in one and failed in the other,
// tests that ran in one only, and exchanges whose observed facts differ. Figures only: nothing
// here passes or fails on what it finds.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { compareRuns } from '../cli/compare/comparison.ts';
import { headline, renderCompareHtml, renderCompareMarkdown } from '../cli/compare/render.ts';
import { loadRun } from '../cli/compare/runs.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

const USAGE = `Usage: npm run bench:drift -- [--seed N] [--profile free|burst2|production] [--out DIR]

Runs the same deterministic plan (--seed, --num-runs 0, --record) against the embedded mock and
against the tenant stand-in at one profile (default production), then compares the two runs.
Reports go to DIR/mock, DIR/stand-in/<profile> and DIR/compare (default reports/drift).`;

function runScript(script: string, args: string[]): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, script), ...args], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('exit', (code) => resolveRun({ code, ms: Date.now() - started }));
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      seed: { type: 'string', default: '42' },
      profile: { type: 'string', default: 'production' },
      out: { type: 'string', default: 'reports/drift' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const out = resolve(values.out);
  const plan = ['--seed', values.seed, '--num-runs', '0', '--record'];
  process.stdout.write(`the embedded mock, seed ${values.seed} ...\n`);
  const mock = await runScript('cli/conformance.ts', [...plan, '--out', join(out, 'mock')]);
  process.stdout.write(`the tenant stand-in (${values.profile}), seed ${values.seed} ...\n`);
  const standIn = await runScript('bench/tenant-stand-in.ts', ['--profiles', values.profile, ...plan, '--reports', join(out, 'stand-in')]);
  const a = loadRun(join(out, 'mock'));
  const b = loadRun(join(out, 'stand-in', values.profile));
  const comparison = compareRuns(a, b);
  mkdirSync(join(out, 'compare'), { recursive: true });
  writeFileSync(join(out, 'compare', 'compare.md'), renderCompareMarkdown(comparison));
  writeFileSync(join(out, 'compare', 'compare.html'), renderCompareHtml(comparison));
  writeFileSync(join(out, 'compare', 'compare.json'), `${JSON.stringify(comparison, null, 2)}\n`);
  const facts = comparison.exchanges?.differing.flatMap((d) => d.facts.map((f) => f.fact)) ?? [];
  const byFact = [...new Set(facts)].map((fact) => `${fact} ${facts.filter((f) => f === fact).length}`).join(', ');
  process.stdout.write(
    [
      '',
      `| Run | Verdict | Requests | Wall time |`,
      `|---|---|---|---|`,
      `| embedded mock | ${a.result.verdict} | ${a.result.requests} | ${(mock.ms / 1000).toFixed(0)} s |`,
      `| stand-in (${values.profile}) | ${b.result.verdict} | ${b.result.requests} | ${(standIn.ms / 1000).toFixed(0)} s |`,
      '',
      `drift: ${headline(comparison)}`,
      `differing facts: ${byFact || 'none'}`,
      `comparison: ${join(out, 'compare', 'compare.md')}`,
      '',
    ].join('\n'),
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exit(2);
  },
);
