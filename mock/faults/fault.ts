// A deliberate fault: the mock made to break exactly one clause of the spec, to prove the
// conformance suite notices. A fault changes the mock from outside, through the hooks of
// FaultHooks (component overrides and route wrappers); route code never mentions faults.
//
// Faults come in families: one file per thing they break (redelivery's answers, the token
// verifier, the rate-limit headers...), each fault a row of the family's table.
import type { FaultHooks } from '../app.ts';

export interface Fault {
  /** Stable id, used with --fault ID and the faults option: kebab case, says what breaks. */
  id: string;
  /** The clause it breaks: an id of specs/clauses.yaml. */
  clause: string;
  /** One sentence: what the faulty mock does instead. */
  description: string;
  install: (app: FaultHooks) => void;
}

/** A fault as a row of its family's table. */
export interface FaultRow {
  id: string;
  clause: string;
  /**
   * One line: the realistic bug and what the mock then does, naming the other clauses it cannot
   * help breaking. It is the fault's description.
   */
  bug: string;
  install: (app: FaultHooks) => void;
}

/** The faults of one family file, in the order of its table. */
export type FaultFamily = readonly Fault[];

export function faultFamily(rows: readonly FaultRow[]): FaultFamily {
  return rows.map(({ id, clause, bug, install }) => ({ id, clause, description: bug, install }));
}
