// `npm run check-traffic -- FILE...` (npx mgmt-api-conformance check-traffic): passive
// conformance. Reads recorded exchanges (HAR 1.2, or NDJSON of exchanges), judges every exchange
// with the three operations and the token endpoint against the clause registry (traffic/), and
// writes the run's reports with a coverage table. It sends nothing. Exit codes: 0 PASS (no judged
// exchange broke a gating clause), 1 FAIL, 2 a bad option or recording, 3 the reports cannot be
// written, 4 nothing to judge.
import { resolve } from 'node:path';
import { exitWhenFlushed } from './exit.ts';
import { EXIT, exitCodeOf } from './options.ts';
import { subcommandArgs } from './subcommand.ts';

const USAGE = `Usage: npm run check-traffic -- [options] FILE...
       npx mgmt-api-conformance check-traffic [options] FILE...

Judges recorded exchanges with the management API (HAR 1.2 files, or NDJSON of exchanges as
npm start -- --record writes them; see the README) against the clause registry: success
statuses and bodies, refusals against the credential, scope and input that was sent (the
bearer token decoded, its signature not checked), error bodies, and the rate-limit headers
across the recorded sequence. It sends nothing. Writes junit.xml, junit-observed.xml,
summary.md, results.json and report.html, with a coverage table per clause.

  --out DIR                    where the reports go (default reports/traffic)
  --strict                     observed-level clauses gate too
  --audience URL               a management audience of the tenant (https://HOST/api/v2/),
                               when its tokens name another host than the recorded one
  --global-client ID           a client known to be global (redelivery's rule); repeatable
  --non-global-client ID       a client known not to be global; repeatable
  --custom-domain-header NAME  the target's name for the spec's tenant-custom-domain header
  -h, --help                   show this help

Exit status: 0 PASS, no judged exchange broke a gating clause (the coverage table says what
the recordings reached); 1 FAIL; 2 bad option or recording; 3 the reports cannot be written;
4 nothing to judge.`;

const fail = async (code: number, message: string): Promise<number> => {
  const { redactor } = await import('../harness/runner.ts');
  process.stderr.write(`error: ${redactor.redact(message)}\n`);
  return code;
};

async function main(): Promise<number> {
  const parsed = await subcommandArgs(
    {
      options: {
        out: { type: 'string', default: 'reports/traffic' },
        strict: { type: 'boolean' },
        audience: { type: 'string', multiple: true },
        'global-client': { type: 'string', multiple: true },
        'non-global-client': { type: 'string', multiple: true },
        'custom-domain-header': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    USAGE,
    fail,
  );
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length === 0) return fail(EXIT.usage, 'name at least one recording FILE (see --help)');
  for (const audience of values.audience ?? []) {
    if (!/^https?:\/\/[^/]+\/.*$/.test(audience))
      return fail(EXIT.usage, `--audience needs a URL such as https://tenant.example.com/api/v2/, got "${audience}"`);
  }
  const started = Date.now();
  const { readRecording, RecordingError } = await import('../traffic/recording.ts');
  const { secretsOf } = await import('../traffic/secrets.ts');
  const { redactor } = await import('../harness/runner.ts');
  let recordings;
  try {
    recordings = positionals.map((file) => readRecording(file));
  } catch (error) {
    if (error instanceof RecordingError) return fail(EXIT.usage, error.message);
    throw error;
  }
  for (const recorded of recordings) for (const r of recorded) for (const secret of secretsOf(r.exchange)) redactor.add(secret);

  const { judgeRecordings } = await import('../traffic/judge.ts');
  const { trafficResult } = await import('./traffic/result.ts');
  const judged = judgeRecordings(recordings, {
    ...(values.audience ? { audiences: values.audience } : {}),
    ...(values['global-client'] ? { globalClients: values['global-client'] } : {}),
    ...(values['non-global-client'] ? { nonGlobalClients: values['non-global-client'] } : {}),
    ...(values['custom-domain-header'] ? { customDomainHeader: values['custom-domain-header'] } : {}),
  });
  const flags = [
    ...(values.strict ? ['--strict'] : []),
    ...(values.audience ?? []).map((a) => `--audience ${a}`),
    ...(values['global-client'] ?? []).map((c) => `--global-client ${c}`),
    ...(values['non-global-client'] ?? []).map((c) => `--non-global-client ${c}`),
    ...(values['custom-domain-header'] ? [`--custom-domain-header ${values['custom-domain-header']}`] : []),
  ];
  const result = trafficResult(judged, {
    files: positionals.map((f) => resolve(f)),
    strict: values.strict === true,
    flags,
    startedAt: started,
  });

  const { prepareReportDir } = await import('./reporters/write.ts');
  const { writeTrafficReports } = await import('./traffic/write.ts');
  const { printTrafficSummary } = await import('./traffic/console.ts');
  const outDir = resolve(values.out);
  let paths: string[];
  try {
    prepareReportDir(outDir);
    paths = writeTrafficReports(result, outDir);
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    return fail(EXIT.cannotRun, `cannot write reports to ${err.path ?? outDir}: ${err.code ?? err.message}`);
  }
  printTrafficSummary(result, paths, (line) => process.stdout.write(`${redactor.redact(line)}\n`));
  return exitCodeOf({ verdict: result.verdict, info: {} });
}

main().then(
  (code) => exitWhenFlushed(code),
  async (error: unknown) => exitWhenFlushed(await fail(EXIT.cannotRun, error instanceof Error ? error.message : String(error))),
);
