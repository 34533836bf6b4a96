// Known failures of a target (after web-platform-tests' expectation files): a YAML list of
// clause ids or test titles, each with the reason it is known to fail. A listed test that fails is
// reported and does not gate; one that passes is reported so the baseline can shrink. Tests are
// never edited to suit a target.
//   - clause: sso-ticket.success.status
//     reason: staging answers 200 until TICKET-123 ships
//   - test: "[§7 errors.404.vault] an unknown vault connection is answered 404 \"Connection not found\""
//     reason: ...
import { parse } from 'yaml';
import { ConfigError, readBoundedText } from '../harness/runner.ts';
import { hasClause } from '../specs/index.ts';
import type { Baseline } from './reporters/results.ts';

export function loadBaseline(path: string): Baseline {
  const where = `baseline ${path}`;
  const text = readBoundedText(path, where);
  let raw: unknown;
  try {
    raw = parse(text);
  } catch {
    throw new ConfigError(`${where}: is not valid YAML`);
  }
  if (!Array.isArray(raw)) throw new ConfigError(`${where}: must be a list of { clause | test, reason }`);
  return raw.map((entry: unknown, index) => {
    const item = entry as { clause?: unknown; test?: unknown; reason?: unknown } | null;
    const at = `${where}: entry ${index + 1}`;
    if (item === null || typeof item !== 'object') throw new ConfigError(`${at} must be { clause | test, reason }`);
    const keys = Object.keys(item).filter((k) => k !== 'reason');
    if (keys.length !== 1 || (keys[0] !== 'clause' && keys[0] !== 'test'))
      throw new ConfigError(`${at} needs exactly one of clause or test`);
    const match = item.clause ?? item.test;
    if (typeof match !== 'string' || match === '') throw new ConfigError(`${at}: ${keys[0]} must be a non-empty string`);
    if (item.clause !== undefined && !hasClause(match)) throw new ConfigError(`${at}: clause ${match} is not in specs/clauses.yaml`);
    if (typeof item.reason !== 'string' || item.reason.trim() === '') throw new ConfigError(`${at} needs a reason`);
    return { match, reason: item.reason };
  });
}
