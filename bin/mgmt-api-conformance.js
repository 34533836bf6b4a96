#!/usr/bin/env node
// The command `npx mgmt-api-conformance` (from a clone, or a packed copy installed with npm):
//   mgmt-api-conformance [options]                 the conformance run (npm start)
//   mgmt-api-conformance merge-reports [options]   merge a sharded run's reports
//   mgmt-api-conformance mock [options]            the mock server (npm run mock)
//   mgmt-api-conformance check-traffic FILE...     judge recorded exchanges (npm run check-traffic)
//   mgmt-api-conformance compare A B               compare two runs (npm run compare)
//   mgmt-api-conformance history DIR               per-clause history of many runs (npm run history)
//   mgmt-api-conformance check-description FILE    the vendor's API description against specs/
// The project is TypeScript run by tsx: this file registers tsx's loader and hands over.
import { register } from 'tsx/esm/api';

const commands = {
  'merge-reports': '../cli/merge-reports.ts',
  mock: '../mock/cli.ts',
  'check-traffic': '../cli/check-traffic.ts',
  compare: '../cli/compare.ts',
  history: '../cli/history.ts',
  'check-description': '../cli/check-description.ts',
};

const [first] = process.argv.slice(2);
const entry = commands[first] ?? '../cli/conformance.ts';
if (commands[first]) process.argv.splice(2, 1);
register();
await import(new URL(entry, import.meta.url).href);
