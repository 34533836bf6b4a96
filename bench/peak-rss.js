// Loaded into every process of a run measured by bench/odd-answers.ts (through NODE_OPTIONS, so
// the suite's worker process loads it too): at exit, the process's peak resident set size is
// written to BENCH_PEAK_RSS_DIR/<pid>, in kilobytes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.BENCH_PEAK_RSS_DIR;
if (dir) process.on('exit', () => writeFileSync(join(dir, String(process.pid)), String(process.resourceUsage().maxRSS)));
