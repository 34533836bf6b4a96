// The tests every round of held-out faults has (mock/faults/held-out/): its catalogue's own checks
// (ids unique, with the round's prefix, taken by neither the gate nor another round; clauses of the
// registry, testable, at the row's level; enough faults, enough of them contract-level; a probe for
// each) and, for each fault, its probe: the near miss sent to a conformant mock and to one with the
// fault, each answered as the probe says.
import { describe, expect, it } from 'vitest';
import { clause } from '../../../specs/index.ts';
import { faultIds } from '../../faults/catalogue.ts';
import type { HeldOutFault } from '../../faults/held-out/held-out-fault.ts';
import { heldOutRounds } from '../../faults/held-out/rounds.ts';
import type { MockServer, MockServerOptions } from '../../index.ts';
import { mockForTest } from './mock.ts';

export interface Probe {
  id: string;
  /** What the probe sees, comparable with toEqual. */
  probe: (mock: MockServer) => Promise<unknown>;
  conformant: unknown;
  faulted: unknown;
  /** Options of each of the two mocks; a function where each needs its own (a clock). */
  options?: MockServerOptions | (() => MockServerOptions);
}

export interface HeldOutRound {
  /** "the fourth held-out round", as the titles say it. */
  name: string;
  /** Every id starts with it ("ho4-"); none for the first round, whose ids start with "ho-". */
  prefix: string;
  faults: readonly HeldOutFault[];
  /** The fewest faults, and contract-level ones, the round holds. */
  least?: { faults: number; contract: number };
  probes: readonly Probe[];
  /** The signing key file every mock of the round's probes shares. */
  signingKey: string;
}

export function heldOutRoundTests(round: HeldOutRound): void {
  const ids = round.faults.map((f) => f.id);
  describe(round.name, () => {
    it(`has unique ids, each starting with ${round.prefix}`, () => {
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.filter((id) => !id.startsWith(round.prefix))).toEqual([]);
    });

    it('shares no id with the gate catalogue or another round', () => {
      const others = Object.values(heldOutRounds).filter((faults) => faults !== round.faults);
      const taken = new Set([...faultIds, ...others.flat().map((f) => f.id)]);
      expect(ids.filter((id) => taken.has(id))).toEqual([]);
    });

    it('cites testable clauses of the registry at their own level', () => {
      const wrong = round.faults.filter((f) => !clause(f.clause).testable || clause(f.clause).level !== f.level).map((f) => f.id);
      expect(wrong).toEqual([]);
    });

    if (round.least) {
      const least = round.least;
      it(`has at least ${least.faults} faults, at least ${least.contract} of them contract-level`, () => {
        expect(round.faults.length).toBeGreaterThanOrEqual(least.faults);
        expect(round.faults.filter((f) => f.level === 'contract').length).toBeGreaterThanOrEqual(least.contract);
      });
    }

    it('has a probe for every fault, and none for a fault it does not have', () => {
      expect(round.probes.map((p) => p.id).sort()).toEqual([...ids].sort());
    });

    it('expects every probe to see the fault (a probe whose two answers agree would prove nothing)', () => {
      expect(round.probes.filter((p) => JSON.stringify(p.conformant) === JSON.stringify(p.faulted)).map((p) => p.id)).toEqual([]);
    });
  });

  describe(`each fault of ${round.name} changes the answer to its near miss`, () => {
    it.each(round.probes)('$id', async ({ id, probe, conformant, faulted, options = {} }) => {
      const fault = round.faults.find((f) => f.id === id)!;
      const optionsOf = () => (typeof options === 'function' ? options() : options);
      const plain = await mockForTest({ signingKey: round.signingKey, ...optionsOf() });
      const broken = await mockForTest({ signingKey: round.signingKey, ...optionsOf(), customize: (hooks) => fault.install(hooks) });
      expect(await probe(plain)).toEqual(conformant);
      expect(await probe(broken)).toEqual(faulted);
    });
  });
}
