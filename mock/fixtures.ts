// Reads and checks the state the mock starts with: a YAML fixtures file (by default
// mock/fixtures/default.yaml) or an object of the same shape. A fixture that breaks the schema, a
// duplicate id or an unknown scope is refused with one line naming the file and the field.
import { servedRecordLists } from '../specs/cards/fixtures.ts';
import type { RoleName } from '../specs/cards/index.ts';
import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ErrorObject } from 'ajv';
import { parse } from 'yaml';
import { createAjv, isScope } from '../specs/index.ts';
import { MockConfigError } from './config-error.ts';
import { fixturesSchema, type EventStatus } from './fixtures-schema.ts';
import type { RateLimitProfile } from './rate-limit-profiles.ts';

export const defaultFixturesPath = fileURLToPath(new URL('./fixtures/default.yaml', import.meta.url));

export interface ClientFixture {
  name: string;
  description?: string;
  client_id: string;
  client_secret?: string;
  /** The public key of a private_key_jwt credential: PEM text or a JWK. */
  public_key?: string | JsonWebKey;
  global: boolean;
  /** A role of the suite: the management grant holds the role's scopes (specs/cards/index.ts scopesOfRole). */
  role?: RoleName;
  /** The management interface grant (added to the role's); absent with no role: no grant. */
  scopes?: string[];
  grants?: Array<{ audience: string; scopes: string[] }>;
  token_quota?: TokenQuotaFixture;
}

/** Hourly and daily quotas of issued tokens. */
export interface TokenQuotaFixture {
  per_hour?: number;
  per_day?: number;
}

export interface ApiFixture {
  identifier: string;
  name?: string;
  scopes: string[];
}

export interface EventFixture {
  id: string;
  status: EventStatus;
}

export interface EventStreamFixture {
  id: string;
  name?: string;
  events: EventFixture[];
}

/** A record the mock serves, as its fixtures file states it (the spec's record, unset optional fields absent). */
export type ServedRecord = Readonly<Record<string, unknown> & { id: string }>;

/** A flows vault connection record (spec section 2.1); unset optional fields are absent. */
export interface VaultConnectionRecord {
  id: string;
  app_id: string;
  name: string;
  ready: boolean;
  created_at: string;
  updated_at: string;
  fingerprint: string;
  environment?: string;
  account_name?: string;
  refreshed_at?: string;
}

export interface FixturesObject {
  tenant: { domain: string };
  rate_limit?: RateLimitProfile | { bucket_size: number; refill_per_second: number };
  token_quota?: TokenQuotaFixture;
  apis?: ApiFixture[];
  clients: ClientFixture[];
  event_streams?: EventStreamFixture[];
  self_service_profiles?: Array<{ id: string; name?: string }>;
  connections?: Array<{ id: string; name: string }>;
  vault_connections?: VaultConnectionRecord[];
  /** The other lists of records the mock serves (specs/cards/fixtures.ts servedRecordLists), each under its field. */
  [recordsField: string]: unknown;
}

export interface LoadedFixtures {
  /** Where they came from: a file path, or "fixtures object". */
  source: string;
  data: FixturesObject;
}

const validateFixtures = createAjv().compile(fixturesSchema);

/** Loads fixtures from a YAML file path or an object; undefined means the default file. */
export function loadFixtures(source: string | FixturesObject = defaultFixturesPath): LoadedFixtures {
  if (typeof source !== 'string') return { source: 'fixtures object', data: checkFixtures(structuredClone(source), 'fixtures object') };
  const where = `fixtures file ${source}`;
  let textContent: string;
  try {
    textContent = readFileSync(source, 'utf8');
  } catch (error) {
    throw new MockConfigError(`${where} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let data: unknown;
  try {
    data = parse(textContent);
  } catch (error) {
    throw new MockConfigError(`${where} is not valid YAML: ${firstLine((error as Error).message)}`);
  }
  return { source, data: checkFixtures(data, where) };
}

function checkFixtures(data: unknown, where: string): FixturesObject {
  if (!validateFixtures(data)) throw new MockConfigError(`${where}: ${describe(validateFixtures.errors?.[0])}`);
  const fixtures = data as FixturesObject;
  const problem = crossCheck(fixtures);
  if (problem) throw new MockConfigError(`${where}: ${problem}`);
  return fixtures;
}

/** Rules a JSON Schema cannot say: unique ids and names, scopes from the catalogue, grants of known APIs, readable keys. */
function crossCheck(fixtures: FixturesObject): string | undefined {
  const clients = fixtures.clients;
  const apis = new Map((fixtures.apis ?? []).map((api) => [api.identifier, api]));
  const streams = fixtures.event_streams ?? [];
  const checks: Array<[string, Array<{ at: string; value: string }>]> = [
    ['client_id', clients.map((c, i) => ({ at: `clients[${i}].client_id`, value: c.client_id }))],
    ['client name', clients.map((c, i) => ({ at: `clients[${i}].name`, value: c.name }))],
    ['event stream id', streams.map((s, i) => ({ at: `event_streams[${i}].id`, value: s.id }))],
    ['event id', streams.flatMap((s, i) => s.events.map((e, j) => ({ at: `event_streams[${i}].events[${j}].id`, value: e.id })))],
    [
      'self-service profile id',
      (fixtures.self_service_profiles ?? []).map((p, i) => ({ at: `self_service_profiles[${i}].id`, value: p.id })),
    ],
    ['connection id', (fixtures.connections ?? []).map((c, i) => ({ at: `connections[${i}].id`, value: c.id }))],
    ['connection name', (fixtures.connections ?? []).map((c, i) => ({ at: `connections[${i}].name`, value: c.name }))],
    ...servedRecordLists().map(({ mock, schema }): [string, Array<{ at: string; value: string }>] => [
      `${schema} id`,
      ((fixtures[mock] as ServedRecord[] | undefined) ?? []).map((record, i) => ({ at: `${mock}[${i}].id`, value: record.id })),
    ]),
    ['API identifier', (fixtures.apis ?? []).map((a, i) => ({ at: `apis[${i}].identifier`, value: a.identifier }))],
  ];
  for (const [what, entries] of checks) {
    const seen = new Set<string>();
    for (const { at, value } of entries) {
      if (seen.has(value)) return `${at} repeats the ${what} ${JSON.stringify(value)}`;
      seen.add(value);
    }
  }
  for (const [i, client] of clients.entries()) {
    const j = (client.scopes ?? []).findIndex((scope) => !isScope(scope));
    if (j >= 0) return `clients[${i}].scopes[${j}] ${JSON.stringify(client.scopes![j])} is not a scope of the catalogue (spec section 5)`;
    for (const [g, grant] of (client.grants ?? []).entries()) {
      const api = apis.get(grant.audience);
      if (!api) return `clients[${i}].grants[${g}].audience ${JSON.stringify(grant.audience)} is not an identifier of apis`;
      const k = grant.scopes.findIndex((scope) => !api.scopes.includes(scope));
      if (k >= 0) return `clients[${i}].grants[${g}].scopes[${k}] ${JSON.stringify(grant.scopes[k])} is not a scope of ${api.identifier}`;
    }
    // A client authenticates with a secret, a key (private_key_jwt), or either.
    if (client.client_secret === undefined && client.public_key === undefined) return `clients[${i}] needs a client_secret or a public_key`;
    if (client.public_key !== undefined && !publicKeyOf(client.public_key))
      return `clients[${i}].public_key is not a public key (PEM or JWK)`;
  }
  return undefined;
}

/** A client's public key, from PEM text (SPKI, PKCS1 or a certificate) or a JWK; undefined when it is not one. */
export function publicKeyOf(key: string | JsonWebKey): KeyObject | undefined {
  try {
    return typeof key === 'string' ? createPublicKey(key) : createPublicKey({ key, format: 'jwk' });
  } catch {
    return undefined;
  }
}

/** "vault_connections[1].app_id must NOT have more than 55 characters" */
function describe(error: ErrorObject | undefined): string {
  if (!error) return 'is not valid';
  const where = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('')
    .replace(/^\./, '');
  const subject = where === '' ? 'the top level' : where;
  switch (error.keyword) {
    case 'required':
      return `${subject} lacks the required field ${String(error.params.missingProperty)}`;
    case 'additionalProperties':
      return `${subject} has an unknown field ${String(error.params.additionalProperty)}`;
    case 'enum':
      return `${subject} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${subject} ${error.message ?? `breaks ${error.keyword}`}`;
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
