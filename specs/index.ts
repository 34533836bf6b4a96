// The contract as data: one import for everything the mock, the harness and the suites read.
export * from './openapi.ts';
export * from './schemas.ts';
export * from './clauses.ts';
export * from './limits.ts';
export * from './scopes.ts';
export * from './observed.ts';
