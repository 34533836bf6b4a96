// A held-out fault: a fault row like the gate's (mock/faults/fault.ts), with the level of what it
// breaks recorded, so that a measurement can tell the faults a release gate must catch (the spec
// states the behaviour) from the ones only the observed level can (the real service's behaviour
// where the spec is silent). The level is the level of the clause the row cites.
import type { ClauseLevel } from '../../../specs/index.ts';
import { faultFamily, type Fault, type FaultRow } from '../fault.ts';

export type HeldOutLevel = Exclude<ClauseLevel, 'gap'>;

export interface HeldOutRow extends FaultRow {
  level: HeldOutLevel;
}

export interface HeldOutFault extends Fault {
  level: HeldOutLevel;
}

/** The faults of one held-out family file, in the order of its table. */
export function heldOutFamily(rows: readonly HeldOutRow[]): readonly HeldOutFault[] {
  return faultFamily(rows).map((fault, index) => ({ ...fault, level: rows[index]!.level }));
}
