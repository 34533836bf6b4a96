#!/usr/bin/env node
// The command `npx mgmt-api-conformance` (from a clone, or a packed copy installed with npm):
//   mgmt-api-conformance [options]                 the conformance run (npm start)
//   mgmt-api-conformance merge-reports [options]   merge a sharded run's reports
//   mgmt-api-conformance mock [options]            the mock server (npm run mock)
//   mgmt-api-conformance check-traffic FILE...     judge recorded exchanges (npm run check-traffic)
// The project is TypeScript run by tsx: this file registers tsx's loader and hands over.
import { register } from 'tsx/esm/api';

const commands = {
  'merge-reports': '../cli/merge-reports.ts',
  mock: '../mock/cli.ts',
  'check-traffic': '../cli/check-traffic.ts',
};

const [first] = process.argv.slice(2);
const entry = commands[first] ?? '../cli/conformance.ts';
if (commands[first]) process.argv.splice(2, 1);
register();
await import(new URL(entry, import.meta.url).href);
