// What the suites import: the test function with its target fixture, and the assertions.
export { conformance } from './conformance.ts';
export * from './expect.ts';
export type { Exchange } from './http.ts';
export type { Credential, TargetSession } from './session.ts';
export type { RoleName } from './settings.ts';
export { withAlgNone, withTamperedPayload, withTamperedSignature } from './forge.ts';
