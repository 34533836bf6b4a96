// What the mutation gate (cli/mutation.ts) and its worker processes (cli/mutation-worker.ts) tell
// each other: the job a worker is given (a JSON file), and the results it prints back, one line
// each, "FAULT {json}" or "CONFORMANT {json}".

export interface WorkerJob {
  faults: string[];
  seeds: number[];
  keyFile: string;
  /** Run every test of a fault's clause against it, not only those up to the first that fails (--every-test). */
  everyTest: boolean;
  /** The first-catch records to run first (--first-catches; default mock/faults/first-catches.json). */
  firstCatches: string;
}

export interface FaultResult {
  fault: string;
  clause: string;
  caught: boolean;
  caughtBy?: string;
  /** Caught by its recorded first catch run alone, beside a conformant control (mock/faults/first-catches.json). */
  byRecordedTest?: boolean;
  /**
   * Tests of the clause against the fault, and how they ended; notRun: those left out because an
   * earlier one had already caught it (none with --every-test).
   */
  tests: { passed: number; failed: number; skipped: number; notRun: number };
  /** Time of the fault's own tests, within its worker's matrix run. */
  ms: number;
  error?: string;
  /** With --every-test: the tests of the clause that failed against the fault, and those that passed. */
  failedTests?: string[];
  passedTests?: string[];
}

export interface ConformantResult {
  seed: number;
  passed: boolean;
  problems: string[];
  ms: number;
}

export type WorkerLine = { fault: FaultResult } | { conformant: ConformantResult };

export function formatLine(line: WorkerLine): string {
  return 'fault' in line ? `FAULT ${JSON.stringify(line.fault)}` : `CONFORMANT ${JSON.stringify(line.conformant)}`;
}

/** A worker's line, or undefined for anything else it printed. */
export function parseLine(line: string): WorkerLine | undefined {
  if (line.startsWith('FAULT ')) return { fault: JSON.parse(line.slice('FAULT '.length)) as FaultResult };
  if (line.startsWith('CONFORMANT ')) return { conformant: JSON.parse(line.slice('CONFORMANT '.length)) as ConformantResult };
  return undefined;
}
