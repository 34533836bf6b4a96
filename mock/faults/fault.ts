// A deliberate fault: the mock made to break exactly one clause of the spec, to prove the
// conformance suite notices. A fault changes the mock from outside, through the hooks of
// FaultHooks (component overrides and route wrappers); route code never mentions faults.
import type { FaultHooks } from '../app.ts';

export interface Fault {
  /** Stable id, used with --fault ID and the faults option: kebab case, says what breaks. */
  id: string;
  /** The clause it breaks: an id of specs/clauses.yaml. */
  clause: string;
  /** One sentence: what the faulty mock does instead. */
  description: string;
  install(app: FaultHooks): void;
}
