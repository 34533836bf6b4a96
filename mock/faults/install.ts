// Looks fault ids up in the catalogue and installs them on an assembly. An unknown id is a
// configuration error that lists the valid ones.
import type { FaultHooks } from '../app.ts';
import { MockConfigError } from '../config-error.ts';
import { faultCatalogue } from './catalogue.ts';
import type { Fault } from './fault.ts';

/** The faults of the ids, in order; refuses an unknown id. */
export function faultsById(ids: readonly string[], catalogue: readonly Fault[] = faultCatalogue): Fault[] {
  return ids.map((id) => {
    const fault = catalogue.find((f) => f.id === id);
    if (!fault) throw new MockConfigError(`unknown fault "${id}"; valid faults: ${catalogue.map((f) => f.id).join(', ')}`);
    return fault;
  });
}

export function installFaults(app: FaultHooks, faults: readonly Fault[]): void {
  for (const fault of faults) fault.install(app);
}
