// Where the mutation gate keeps the test that first caught each fault (`npm run mutation --
// --record-first-catches` writes it): the gate runs that test first, alone, beside a conformant
// control, and falls back to all of the fault's clause's tests when it does not catch the fault.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './paths.ts';

export const FIRST_CATCHES_FILE = join(projectRoot, 'mock', 'faults', 'first-catches.json');

/** A fault's id to the title of the test that first failed against it; empty when there is no file. */
export function readFirstCatches(file = FIRST_CATCHES_FILE): Record<string, string> {
  if (!existsSync(file)) return {};
  let records: unknown;
  try {
    records = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: not a first-catch record (${(error as Error).message})`, { cause: error });
  }
  if (
    typeof records !== 'object' ||
    records === null ||
    Array.isArray(records) ||
    Object.values(records).some((v) => typeof v !== 'string')
  )
    throw new Error(`${file}: not a first-catch record (an object of fault ids to test titles)`);
  return records as Record<string, string>;
}
