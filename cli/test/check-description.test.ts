// check-description on a small description of the project's own making (fixtures/description.json),
// and on copies of it with differences planted: every planted difference is found, where it stands
// (the observed level out of date, or the spec's contract kept), with its clauses and the tests
// citing them; and --previous says what changed between two copies, nothing more.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { observed, operationKeys } from '../../specs/index.ts';
import { CAUSES } from '../description/causes.ts';
import { checkDescription, type DescriptionCheck } from '../description/check.ts';
import { readDescription } from '../description/vendor.ts';
import { run } from './support/programs.ts';

const dir = mkdtempSync(join(tmpdir(), 'check-description-'));
const fixture = new URL('./fixtures/description.json', import.meta.url).pathname;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };

/** The fixture with the differences planted: a description that moved on from specs/. */
function planted(): string {
  const doc = JSON.parse(readFileSync(fixture, 'utf8')) as Doc;
  const ticket = doc.paths['/self-service-profiles/{id}/sso-ticket']!.post;
  const vault = doc.paths['/flows/vault/connections/{id}']!.get;
  const redeliver = doc.paths['/event-streams/{id}/redeliver/{event_id}']!.post;
  const request = doc.components.schemas.TicketRequest;
  request.properties.ttl_sec.maximum = 86_400;
  request.properties.locale = { type: 'string' };
  request.required = ['locale'];
  ticket.parameters[1].name = 'tenant-custom-domain';
  vault.security[1].oAuth2ClientCredentials = ['read:vault_connections'];
  vault.responses['401']['x-description-3'] = 'Tenant is suspended.';
  doc.components.schemas.VaultConnection.properties.name.maxLength = 200;
  delete redeliver.responses['409'];
  const file = join(dir, 'planted.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

const rowKeys = (check: DescriptionCheck) => new Set(check.rows.map((r) => `${r.subject} | ${r.where} | ${r.what} | ${r.standing}`));

describe('differences planted in a description', () => {
  const control = checkDescription(readDescription(fixture));
  const moved = checkDescription(readDescription(planted()));
  const found = moved.rows.filter((r) => !rowKeys(control).has(`${r.subject} | ${r.where} | ${r.what} | ${r.standing}`));

  test('are each found, and nothing else', () => {
    expect(found.map((r) => `${r.subject} | ${r.where} | ${r.what} | ${r.standing}`).sort()).toEqual(
      [
        'redeliver | causes 409 | event_state | contract differs (kept)',
        'redeliver | statuses | 409 | contract differs (kept)',
        'sso-ticket | body | required | observed out of date',
        'sso-ticket | body.locale | field | observed out of date',
        'sso-ticket | body.ttl_sec | maximum | contract differs (kept)',
        'sso-ticket | header auth0-custom-domain | parameter | observed out of date',
        'sso-ticket | header tenant-custom-domain | parameter | observed out of date',
        'vault | causes 401 | unknown: Tenant is suspended. | observed out of date',
        'vault | scopes | read:flows_vault_connections | observed out of date',
        'vault | scopes | read:vault_connections | observed out of date',
        'vault | success body.name | maxLength | contract differs (kept)',
      ].sort(),
    );
  });

  test.for([
    ['body.ttl_sec', 'maximum', 'sso-ticket.body.ttl_sec.range', 'suites/matrix/bodies.test.ts'],
    ['scopes', 'read:vault_connections', 'vault.scope', 'suites/matrix/credentials.test.ts'],
    ['success body.name', 'maxLength', 'vault.record.name', 'suites/operations/answer.test.ts'],
    ['statuses', '409', 'redeliver.errors.409.state', 'suites/redeliver/conflict.test.ts'],
    ['header auth0-custom-domain', 'parameter', 'sso-ticket.header.custom-domain.length', 'suites/matrix/headers.test.ts'],
  ] as const)('%s %s names clause %s and tests in %s', ([where, what, clause, suite]) => {
    const row = found.find((r) => r.where === where && r.what === what)!;
    expect({ clause: row.clauses.includes(clause), test: row.tests.some((t) => t.startsWith(`${suite}:`)) }).toEqual({
      clause: true,
      test: true,
    });
  });

  test('a cause of refusal no row names is reported under its own wording, with no clause', () => {
    const row = found.find((r) => r.where === 'causes 401')!;
    expect([row.what, row.clauses]).toEqual(['unknown: Tenant is suspended.', []]);
  });
});

test('--previous lists what changed between two copies of the description, and nothing else', () => {
  const check = checkDescription(readDescription(planted()), readDescription(fixture));
  expect(
    check
      .previous!.rows.map((r) => `${r.subject} | ${r.where} | ${r.what} | ${JSON.stringify(r.before)} → ${JSON.stringify(r.now)}`)
      .sort(),
  ).toEqual(
    [
      'redeliver | causes 409 | event_state | "listed" → "not listed"',
      'redeliver | statuses | 409 | "listed" → "not listed"',
      'sso-ticket | body | required | "(absent)" → ["locale"]',
      'sso-ticket | body.locale | field | "(absent)" → "present"',
      'sso-ticket | body.ttl_sec | maximum | 432000 → 86400',
      'sso-ticket | header auth0-custom-domain | parameter | "present" → "(absent)"',
      'sso-ticket | header tenant-custom-domain | parameter | "(absent)" → "present"',
      'vault | causes 401 | unknown: Tenant is suspended. | "not listed" → "listed"',
      'vault | scopes | read:flows_vault_connections | "listed" → "not listed"',
      'vault | scopes | read:vault_connections | "not listed" → "listed"',
      'vault | success body.name | maxLength | 150 → 200',
    ].sort(),
  );
});

describe('the command', () => {
  test('exits 1 naming what is out of date, and writes its reports', async () => {
    const out = join(dir, 'reports');
    const done = await run('cli/check-description.ts', [planted(), '--previous', fixture, '--out', out]);
    const written = JSON.parse(readFileSync(join(out, 'description.json'), 'utf8')) as DescriptionCheck;
    expect({
      code: done.code,
      named:
        /OUT OF DATE vault scopes read:vault_connections/.test(done.stdout) &&
        /NEW sso-ticket body\.ttl_sec maximum: 432000 → 86400/.test(done.stdout),
      rows: written.rows.length > 0,
    }).toEqual({ code: 1, named: true, rows: true });
  });

  test.for([
    ['not JSON or YAML', '{ "openapi": ', /is neither JSON nor YAML/],
    ['no paths', '{"openapi": "3.1.0"}', /is not an OpenAPI description: it has no paths/],
    ['none of the operations', '{"openapi": "3.1.0", "paths": {"/users": {}}}', /describes none of the three operations/],
  ] as const)('a file with %s is refused with exit 2, naming it', async ([, content, message]) => {
    const bad = join(dir, 'bad-description.json');
    writeFileSync(bad, content);
    const done = await run('cli/check-description.ts', [bad, '--out', join(dir, 'bad')]);
    expect({ code: done.code, message: message.test(done.stderr), named: done.stderr.includes('bad-description.json') }).toEqual({
      code: 2,
      message: true,
      named: true,
    });
  });
});

test('every cause of refusal observed.yaml lists is one the cause table names', () => {
  const listed = operationKeys.flatMap((op) => Object.values(observed.operations[op].refusals.value).flat());
  expect(listed.filter((cause) => !CAUSES.some((row) => row.cause === cause))).toEqual([]);
});
