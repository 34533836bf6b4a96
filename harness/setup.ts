// Setup file of the conformance suites: one seed and run count for every property, printed by
// fast-check on failure so that `--seed` replays it; shrinking is off, because every shrink step
// is another request to someone's tenant.
import fc from 'fast-check';
import { inject } from 'vitest';
import './expect.ts';

const settings = inject('settings');
fc.configureGlobal({ seed: settings.seed, numRuns: Math.max(1, settings.numRuns), endOnFailure: true, includeErrorInReport: true });
