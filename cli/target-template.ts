// The example target file (targets/example-tenant.yaml), written from the operation cards and the
// fixture table: every role and every fixture this version of the suite reads, each with what it
// is on the target, the optional ones commented out. `npm start -- --target-template` prints it; a
// project test holds the file in targets/ to it, so an operation, a role or a fixture added to the
// cards reaches the file people copy.
import { fixtureNames, fixtureTable, optionalFields, type FixtureEntry, type FixtureName } from '../specs/cards/fixtures.ts';
import { roleAbout, roleNames, type RoleName } from '../specs/cards/index.ts';
import { resolvePointer, type JsonObject } from '../specs/openapi.ts';
import { canonicalContext } from '../specs/matrix/template.ts';

const HEAD = `# Example target file for a staging tenant. Copy it, fill in your tenant's URLs, client ids and ids
# (the ids below are made-up ids of the right shape), and put every secret in the environment
# variable its *_env field names.
#   MGMT_GLOBAL_SECRET=... npm start -- --target-file targets/my-tenant.yaml --list
# Writes (redelivery, ticket creation) and deliberate rate-limit exhaustion are skipped against a
# tenant unless you pass --allow-writes / --allow-rate-limit-exhaustion; the run is then
# INCOMPLETE, naming what it could not verify. Never add \`test_double: true\` for a real tenant.
# Written by \`npm start -- --target-template\` from the operation cards (specs/cards/).
base_url: https://staging-tenant.example.com/api/v2
auth_url: https://staging-tenant.example.com
audience: https://staging-tenant.example.com/api/v2/
# The real service names this header auth0-custom-domain; the spec names it tenant-custom-domain.
custom_domain_header: tenant-custom-domain
# Optional: the identifier of another API of the tenant that the global role's client holds no
# grant for (the token endpoint's "ungranted audience" row runs only where it is given).
# ungranted_audience: https://reports-api.example.com/
# Your tier's published Management API limit (free: 10 and 2/s; production: 50 and 16/s). The
# suite paces at its share of it (--rate-share, default 0.5). Without it, it measures the refill.
rate_limit: { limit: 10, refill_per_second: 2 }
`;

const TOKEN_ALTERNATIVES = `# What the tenant can offer instead of its signing key, which it never gives (see the README).
token_alternatives:
  expired_token_env: MGMT_EXPIRED_TOKEN        # a token of this tenant captured earlier, expired since
  other_audience:                              # a client of this tenant authorized for another API only
    audience: https://reports.staging.example.com/
    client_id: REPLACE_WITH_CLIENT_ID
    client_secret_env: MGMT_OTHER_API_SECRET
  other_tenant:                                # a client of a second tenant, for its Management API
    auth_url: https://other-staging-tenant.example.com
    audience: https://other-staging-tenant.example.com/api/v2/
    client_id: REPLACE_WITH_CLIENT_ID
    client_secret_env: MGMT_OTHER_TENANT_SECRET
  # key_client:                                # optional: a client of this tenant that authenticates with Private Key JWT
  #   client_id: REPLACE_WITH_CLIENT_ID         # (no secret), and its private key in a file kept out of the repository
  #   private_key_file: /path/to/key-client.pem
`;

/** The example target file's text. */
export function targetTemplate(): string {
  return [HEAD, 'roles:\n', ...roleNames.map(roleLines), TOKEN_ALTERNATIVES, 'fixtures:\n', ...fixtureNames.map(fixtureLines)].join('');
}

/** MGMT_WITHOUT_VAULT_SECRET for without_vault_scope. */
function secretEnv(role: RoleName): string {
  return `MGMT_${role.replace(/_scope$/, '').toUpperCase()}_SECRET`;
}

function roleLines(role: RoleName): string {
  const { about, optional } = roleAbout(role);
  const lines = [`${role}:`, '  client_id: REPLACE_WITH_CLIENT_ID', `  client_secret_env: ${secretEnv(role)}`];
  if (role === 'global')
    lines.push('  # name: REPLACE_WITH_CLIENT_NAME   # optional: its display name, which must name no client as client_id');
  return block(optional ? `optional: ${about}` : about, lines, optional);
}

function fixtureLines(name: FixtureName): string {
  const entry = fixtureTable[name] as FixtureEntry;
  const sample = sampleOf(name);
  const value = Array.isArray(sample) ? `[${sample.join(', ')}]` : sample;
  const lines = entry.records ? [`${entry.field}:`, ...recordLines(entry.records)] : [`${entry.field}: ${value}`];
  return block(entry.optional ? `optional: ${entry.about}` : entry.about, lines, entry.optional);
}

/** A fixture's made-up value: its sample as the matrix has it, or a placeholder where it has none. */
function sampleOf(name: FixtureName): string | string[] {
  const sample = (canonicalContext.fixtures as unknown as Record<string, string | string[] | undefined>)[name];
  return sample ?? `REPLACE_WITH_${fixtureTable[name].field.toUpperCase()}`;
}

/** One stated record: an id of its list, each field of the spec's record, and `unset`, the optional fields it does not hold. */
function recordLines(records: NonNullable<FixtureEntry['records']>): string[] {
  const owner = resolvePointer(`#/components/schemas/${records.schema}`) as JsonObject;
  const list = fixtureTable[records.of as FixtureName] as FixtureEntry;
  const sample = sampleOf(records.of as FixtureName);
  const fields = Object.keys(owner.properties as JsonObject).filter((field) => field !== 'id');
  return [
    `  - id: ${Array.isArray(sample) ? sample[0]! : sample}   # one of ${list.field}`,
    ...fields.map((field) => `    ${field}: REPLACE   # as the read answers it`),
    optionalFields(records.schema).length > 0
      ? `    unset: []   # instead of stating them, the optional fields it lacks: ${optionalFields(records.schema).join(', ')}`
      : '    unset: []   # empty: the record has no optional field',
  ];
}

/** Lines under a comment saying what they are, indented under their section; commented out when optional. */
function block(about: string, lines: string[], commented = false): string {
  return [...wrapped(about, '  # '), ...lines.map((line) => `  ${commented ? '# ' : ''}${line}`)].map((line) => `${line}\n`).join('');
}

/** A comment's text in lines of at most 100 characters, each starting with `lead`. */
function wrapped(text: string, lead: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && lead.length + line.length + 1 + word.length > 100) {
      lines.push(lead + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, lead + line];
}
