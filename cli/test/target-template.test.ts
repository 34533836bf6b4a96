// The example target file is the one the cards write (npm start -- --target-template): an
// operation, a role or a fixture added to the cards reaches the file people copy, or this fails.
// What it says is a target file the suite reads once its secrets are in the environment.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadTargetFile } from '../../harness/config.ts';
import { fixtureNames, fixtureTable, type FixtureEntry } from '../../specs/cards/fixtures.ts';
import { roleAbout, roleNames } from '../../specs/cards/index.ts';
import { conformanceCommand } from '../conformance-command.ts';
import { targetTemplate } from '../target-template.ts';

const examplePath = fileURLToPath(new URL('../../targets/example-tenant.yaml', import.meta.url));

/** A token that has expired (exp 1): what an expired_token_env names. */
const EXPIRED = 'eyJhbGciOiJSUzI1NiJ9.eyJleHAiOjF9.c2ln';

describe('the example target file', () => {
  it('is what --target-template prints, byte for byte (npm start --silent -- --target-template > targets/example-tenant.yaml)', async () => {
    let printed = '';
    const code = await conformanceCommand(['--target-template'], {}, { out: (text) => (printed += text), err: () => {} });
    expect(code).toBe(0);
    expect(printed).toBe(targetTemplate());
    expect(readFileSync(examplePath, 'utf8')).toBe(printed);
  });

  it('names every role and every fixture, the optional ones commented out', () => {
    const file = parse(targetTemplate()) as { roles: Record<string, unknown>; fixtures: Record<string, unknown> };
    expect(Object.keys(file.roles)).toEqual(roleNames.filter((role) => !roleAbout(role).optional));
    const required = fixtureNames.map((name) => fixtureTable[name] as FixtureEntry).filter((entry) => !entry.optional);
    expect(Object.keys(file.fixtures)).toEqual(required.map((entry) => entry.field));
    const optional = [
      ...roleNames.filter((role) => roleAbout(role).optional),
      ...fixtureNames
        .map((name) => fixtureTable[name] as FixtureEntry)
        .filter((entry) => entry.optional)
        .map((entry) => entry.field),
    ];
    expect(optional.filter((field) => !targetTemplate().includes(`\n  # ${field}:`))).toEqual([]);
  });

  it('is read as a target file once the secrets it names are in the environment', async () => {
    const env = Object.fromEntries(
      [...targetTemplate().matchAll(/_env: ([A-Z_]+)/g)].map((match) => [match[1]!, match[1]!.endsWith('_TOKEN') ? EXPIRED : 'a-secret']),
    );
    const target = await loadTargetFile(examplePath, { env });
    expect(Object.keys(target.roles).sort()).toEqual(roleNames.filter((role) => !roleAbout(role).optional).sort());
  });
});
