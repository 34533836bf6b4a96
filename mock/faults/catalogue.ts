// Every deliberate fault the mock knows, by id. Adding a fault: write one file exporting a Fault
// (see fault.ts and README.md) and list it here.
import { acceptsAlgNone } from './accepts-alg-none.ts';
import type { Fault } from './fault.ts';
import { neverLimits } from './never-limits.ts';
import { redeliver200InsteadOf202 } from './redeliver-200-instead-of-202.ts';

export const faultCatalogue: readonly Fault[] = [redeliver200InsteadOf202, acceptsAlgNone, neverLimits];

export const faultIds: readonly string[] = faultCatalogue.map((fault) => fault.id);
