// What the suites import: the test function and its plan vocabulary, and the assertions.
export { cases, conformance } from './conformance.ts';
export * from './expect.ts';
export type { Exchange } from './http.ts';
export {
  exhaustion,
  fixture,
  generatedCases,
  minted,
  role,
  sharedKeys,
  writes,
  type Need,
  type PlanContext,
  type TestPlan,
} from './plan.ts';
export { readRateLimitHeaders, shownHeader, wholeNumber } from './rate-limit-headers.ts';
export type { CallInput, Credential, TargetSession } from './session.ts';
export type { RoleName } from './settings.ts';
export { withAlgNone, withTamperedPayload, withTamperedSignature } from './forge.ts';
