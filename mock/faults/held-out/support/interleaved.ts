// How every round lists its faults: the families interleaved, one fault of each in turn, so that a
// run cut short or a reader skimming the list meets every kind early and no kind comes in one block.

/** Round by round, one fault of each family that has one left. */
export function interleaved<T>(families: ReadonlyArray<readonly T[]>): T[] {
  const longest = Math.max(...families.map((family) => family.length));
  return Array.from({ length: longest }, (_, round) =>
    families.flatMap((family) => (round < family.length ? [family[round]!] : [])),
  ).flat();
}
