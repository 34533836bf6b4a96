// Reads the YAML data files of specs/ once, at import time. Sync on purpose: the contract is a
// handful of small files that every other module needs before it can do anything.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export function readSpecFile(name: string): unknown {
  const url = new URL(`./${name}`, import.meta.url);
  return parse(readFileSync(url, 'utf8'));
}
