// The ticket body at the observed level, over HTTP: the fields the service's API description and
// SDK types define are accepted, their limits and id formats enforced (with the recorded format
// message), and form-encoded bodies taken as the description lists them.
import { expect, test } from 'vitest';
import { call, tokenFor, type Answer } from './support/http.ts';
import { expectError } from './support/expect.ts';
import { sharedMock } from './support/mock.ts';
import { fixtureIds as ids, ticketPath } from './support/paths.ts';

const mock = sharedMock();

async function create(body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(mock(), 'POST', ticketPath(ids.profile), { token: await tokenFor(mock(), 'global'), body, headers });
}

test.for([
  [
    'a full connection_config',
    {
      connection_config: {
        name: 'acme-sso',
        display_name: 'Acme',
        is_domain_connection: false,
        show_as_button: true,
        metadata: { tier: 'gold' },
        options: {
          icon_url: 'https://cdn.example.com/acme.png',
          domain_aliases: ['acme.example'],
          idpinitiated: { enabled: true, client_protocol: 'samlp' },
        },
      },
    },
  ],
  [
    'provisioning_config.google_workspace',
    { provisioning_config: { scopes: ['get:users'], google_workspace: { sync_users: true, sync_groups: true } } },
  ],
  ['third_party_client_access_config', { third_party_client_access_config: { allow_configuration: true } }],
  ['a connection_id of the observed shape', { connection_id: 'con_6kG6vTEQLMczF3qe' }],
] as const)('%s is accepted', async ([, body]) => {
  expect((await create(body)).status).toBe(201);
});

test.for([
  [
    'a display_name of 129 characters',
    { connection_config: { name: 'acme', display_name: 'd'.repeat(129) } },
    "'String is too long (129 chars), maximum 128' on property connection_config.display_name",
  ],
  [
    'an http icon_url',
    { connection_config: { name: 'acme', options: { icon_url: 'http://cdn.example.com/a.png' } } },
    "'Object didn't pass validation for format strict-https-uri: http://cdn.example.com/a.png' on property connection_config.options.icon_url",
  ],
  [
    'an unknown connection_config field',
    { connection_config: { name: 'acme', colour: 'blue' } },
    "'Additional properties not allowed: colour' on property connection_config",
  ],
  [
    'a malformed connection_id',
    { connection_id: 'connection-1' },
    "'Object didn't pass validation for format connection-id: connection-1' on property connection_id",
  ],
  [
    'a malformed organization_id',
    { enabled_organizations: [{ organization_id: 'acme' }] },
    "'Object didn't pass validation for format organization-id: acme' on property enabled_organizations[0].organization_id",
  ],
] as const)('%s is 400 invalid_body', async ([, body, detail]) => {
  expectError(await create(body), 'invalid_body', detail);
});

test("a form-encoded body is accepted, its fields converted to the schema's types", async () => {
  const form = new URLSearchParams([
    ['ttl_sec', '3600'],
    ['use_for_organization_discovery', 'true'],
    ['enabled_clients', '2nmc0Qf7UqGHv2NqccuxrVdKWEB2yK9H'],
  ]);
  const answer = await create(form.toString(), { 'content-type': 'application/x-www-form-urlencoded' });
  expect(answer.status).toBe(201);
  const ticket = mock().store.tickets().at(-1)!;
  expect(ticket.ttlSec).toBe(3600);
});

test('a form-encoded field of the wrong type is 400 invalid_body', async () => {
  const answer = await create('ttl_sec=soon', { 'content-type': 'application/x-www-form-urlencoded' });
  expectError(answer, 'invalid_body', "'Expected type integer but found type string' on property ttl_sec");
});

test('nested objects cannot be sent form-encoded: a bracketed name is an unknown property', async () => {
  const answer = await create('connection_config[name]=acme', { 'content-type': 'application/x-www-form-urlencoded' });
  expectError(answer, 'invalid_body', "'Additional properties not allowed: connection_config[name]'");
});
