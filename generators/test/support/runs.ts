// Every property of these tests runs from one fixed seed, so a failure replays exactly; fast-check
// prints the seed and the path of the counterexample with it.
export const runs = { seed: 20_241_122, numRuns: 150 } as const;

/** One value of an arbitrary, the same on every run. */
export const sampleOptions = { seed: runs.seed, numRuns: 1 } as const;
