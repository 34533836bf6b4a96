// Reads a target file (YAML) and the environment variables it names, validates it once, and
// returns a ResolvedTarget. Every problem is a ConfigError naming the file and the field.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { decodeJwt, exportJWK, importPKCS8 } from 'jose';
import { parse } from 'yaml';
import { basePath, compileNode, createAjv, describeErrors, tokenPath } from '../specs/index.ts';
import { fixturesFileSchema, fixtureValueSchemas, readFixtures, statedRecordsProblem } from '../specs/cards/fixtures.ts';
import { ConfigError } from './errors.ts';
import { redactor } from './redact.ts';
import { roleNames, type ForeignClient, type ResolvedTarget, type RoleCredentials, type TokenAlternatives } from './settings.ts';

const roleSchema = {
  type: 'object',
  required: ['client_id'],
  additionalProperties: false,
  properties: {
    client_id: { type: 'string', minLength: 1 },
    client_secret: { type: 'string', minLength: 1 },
    client_secret_env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
    // The client's display name on the tenant, where the file states it: a name is no client id.
    name: { type: 'string', minLength: 1 },
  },
  oneOf: [
    { required: ['client_secret'], properties: { client_secret: true } },
    { required: ['client_secret_env'], properties: { client_secret_env: true } },
  ],
};

/** A client of another API of the same tenant (auth_url is the target's), or of a second tenant. */
function foreignClientSchema(ownAuthUrl: boolean) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['audience', 'client_id', 'client_secret_env', ...(ownAuthUrl ? ['auth_url'] : [])],
    properties: {
      ...(ownAuthUrl ? { auth_url: { type: 'string', format: 'uri' } } : {}),
      audience: { type: 'string', format: 'uri' },
      client_id: { type: 'string', minLength: 1 },
      client_secret_env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
    },
  };
}

const targetFileSchema = {
  type: 'object',
  required: ['base_url', 'auth_url', 'audience', 'roles', 'fixtures'],
  additionalProperties: false,
  properties: {
    base_url: { type: 'string', format: 'uri' },
    auth_url: { type: 'string', format: 'uri' },
    audience: { type: 'string', format: 'uri' },
    custom_domain_header: { type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" },
    ungranted_audience: { type: 'string', format: 'uri' },
    signing_key_file: { type: 'string', minLength: 1 },
    test_double: { type: 'boolean' },
    rate_limit: {
      type: 'object',
      additionalProperties: false,
      properties: {
        limit: { type: 'integer', minimum: 1 },
        refill_per_second: { type: 'number', exclusiveMinimum: 0 },
        bucket_size: { type: 'integer', minimum: 1 },
      },
    },
    token_alternatives: {
      type: 'object',
      additionalProperties: false,
      properties: {
        expired_token_env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
        other_audience: foreignClientSchema(false),
        other_tenant: foreignClientSchema(true),
        key_client: {
          type: 'object',
          additionalProperties: false,
          required: ['client_id', 'private_key_file'],
          properties: {
            client_id: { type: 'string', minLength: 1 },
            private_key_file: { type: 'string', minLength: 1 },
          },
        },
      },
    },
    roles: {
      type: 'object',
      required: ['global'],
      additionalProperties: false,
      properties: Object.fromEntries(roleNames.map((name) => [name, roleSchema])),
    },
    fixtures: fixturesFileSchema(),
  },
};

const checkFile = createAjv().compile(targetFileSchema);

/** Fixture ids must fit the contract's own limits, or every test built on them would mislead. */
const fixtureChecks = fixtureValueSchemas().map(({ field, schema }) => ({ field, check: compileNode(schema, 'contract') }));

interface RawRole {
  client_id: string;
  client_secret?: string;
  client_secret_env?: string;
  name?: string;
}
interface RawForeignClient {
  auth_url?: string;
  audience: string;
  client_id: string;
  client_secret_env: string;
}
interface RawTarget {
  base_url: string;
  auth_url: string;
  audience: string;
  custom_domain_header?: string;
  ungranted_audience?: string;
  signing_key_file?: string;
  test_double?: boolean;
  rate_limit?: { limit?: number; refill_per_second?: number; bucket_size?: number };
  token_alternatives?: {
    expired_token_env?: string;
    other_audience?: RawForeignClient;
    other_tenant?: RawForeignClient;
    key_client?: { client_id: string; private_key_file: string };
  };
  roles: Record<string, RawRole>;
  fixtures: Record<string, unknown>;
}

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
}

/** The most a file the user names (target file, baseline, signing key) may hold: such files are a few kilobytes. */
export const MAX_INPUT_FILE_BYTES = 1024 * 1024;

/**
 * Reads a file the user names, `what` in its messages: a regular file of at most `maxBytes`, so a
 * device (/dev/zero), a pipe or a log given by mistake is refused at once rather than read until
 * memory runs out or forever. Nothing of its content is ever shown.
 */
export function readBoundedText(path: string, what: string, maxBytes = MAX_INPUT_FILE_BYTES): string {
  const refused = (why: string) => new ConfigError(`${what}: ${why}`);
  let fd: number;
  try {
    // Checked before it is opened: opening a pipe would wait for a writer.
    if (!statSync(path).isFile()) throw refused('is not a regular file');
    fd = openSync(path, 'r');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw refused(`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    // Read up to one byte past the bound, whatever the file's size says (files under /proc say 0).
    const buffer = Buffer.alloc(maxBytes + 1);
    let size = 0;
    for (let n = -1; n !== 0 && size <= maxBytes; size += n) n = readSync(fd, buffer, size, buffer.length - size, null);
    if (size > maxBytes) throw refused(`is larger than the ${maxBytes / 1024} KiB such a file may have`);
    return buffer.toString('utf8', 0, size);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw refused(`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  } finally {
    closeSync(fd);
  }
}

/** Loads and validates a target file. */
export async function loadTargetFile(path: string, options: LoadOptions = {}): Promise<ResolvedTarget> {
  const text = readBoundedText(path, `target file ${path}`);
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    const line = (error as { linePos?: Array<{ line: number }> }).linePos?.[0]?.line;
    throw new ConfigError(`target file ${path}: is not valid YAML${line ? ` (line ${line})` : ''}`);
  }
  return resolveTarget(raw, { ...options, source: path, baseDir: dirname(resolve(path)) });
}

export interface ResolveOptions extends LoadOptions {
  source: string;
  baseDir: string;
}

/** Validates a parsed target description; used for files and for the embedded mock alike. */
export async function resolveTarget(raw: unknown, options: ResolveOptions): Promise<ResolvedTarget> {
  const where = `target file ${options.source}`;
  if (!checkFile(raw)) {
    throw new ConfigError(`${where}: ${describeConfigErrors(checkFile.errors)}`);
  }
  const file = raw as unknown as RawTarget;
  const baseUrl = trimSlash(file.base_url);
  const authUrl = trimSlash(file.auth_url);
  checkHttpUrl(where, 'base_url', baseUrl);
  checkHttpUrl(where, 'auth_url', authUrl);
  if (!new URL(baseUrl).pathname.endsWith(basePath)) {
    throw new ConfigError(`${where}: base_url must end with the version 2 base path ${basePath} (got ${baseUrl})`);
  }
  for (const { field, check } of fixtureChecks) {
    const value = file.fixtures[field];
    if (value !== undefined && !check(value)) {
      throw new ConfigError(`${where}: fixtures.${field} does not fit the spec: ${describeErrors(check.errors)}`);
    }
  }
  const recordsProblem = statedRecordsProblem(file.fixtures);
  if (recordsProblem) throw new ConfigError(`${where}: ${recordsProblem}`);
  const env = options.env ?? process.env;
  const roles: ResolvedTarget['roles'] = {};
  for (const [name, role] of Object.entries(file.roles)) {
    roles[name as keyof ResolvedTarget['roles']] = resolveRole(where, name, role, env);
  }
  if (file.ungranted_audience !== undefined && file.ungranted_audience === file.audience) {
    throw new ConfigError(`${where}: ungranted_audience must be another API than the management interface (${file.audience})`);
  }
  const fixtures = readFixtures(file.fixtures);
  const target: ResolvedTarget = {
    source: options.source,
    baseUrl,
    authUrl,
    audience: file.audience,
    customDomainHeader: file.custom_domain_header ?? 'tenant-custom-domain',
    roles,
    fixtures,
    tokenAlternatives: resolveAlternatives(where, file, authUrl, env),
    ...(file.ungranted_audience !== undefined ? { ungrantedAudience: file.ungranted_audience } : {}),
    rateLimit: {
      ...(file.rate_limit?.limit !== undefined ? { limit: file.rate_limit.limit } : {}),
      ...(file.rate_limit?.refill_per_second !== undefined ? { refillPerSecond: file.rate_limit.refill_per_second } : {}),
      ...(file.rate_limit?.bucket_size !== undefined ? { startedBucket: file.rate_limit.bucket_size } : {}),
    },
    testDouble: file.test_double === true,
  };
  if (file.signing_key_file) {
    target.signingKeyJwk = await readSigningKey(where, resolve(options.baseDir, file.signing_key_file));
  }
  const keyClient = file.token_alternatives?.key_client;
  if (keyClient) {
    const path = resolve(options.baseDir, keyClient.private_key_file);
    target.tokenAlternatives.keyClient = {
      clientId: keyClient.client_id,
      privateKeyJwk: await readSigningKey(where, path, `token_alternatives.key_client.private_key_file ${path}`),
    };
  }
  return target;
}

function resolveAlternatives(where: string, file: RawTarget, authUrl: string, env: NodeJS.ProcessEnv): TokenAlternatives {
  const given = file.token_alternatives ?? {};
  const out: TokenAlternatives = {};
  if (given.expired_token_env !== undefined) {
    out.expiredToken = expiredToken(where, given.expired_token_env, env);
  }
  const foreign = (name: string, raw: RawForeignClient): ForeignClient => {
    if (raw.auth_url !== undefined) checkHttpUrl(where, `token_alternatives.${name}.auth_url`, trimSlash(raw.auth_url));
    return {
      tokenUrl: `${trimSlash(raw.auth_url ?? authUrl)}${tokenPath}`,
      audience: raw.audience,
      clientId: raw.client_id,
      clientSecret: secretFrom(where, `token_alternatives.${name}.client_secret_env`, raw.client_secret_env, env),
    };
  };
  if (given.other_audience) {
    if (given.other_audience.audience === file.audience) {
      throw new ConfigError(
        `${where}: token_alternatives.other_audience.audience must be another API than the management interface (${file.audience})`,
      );
    }
    out.otherAudience = foreign('other_audience', given.other_audience);
  }
  if (given.other_tenant) out.otherTenant = foreign('other_tenant', given.other_tenant);
  return out;
}

/** A captured token must be a JWT that has expired: a live one would make the test meaningless. */
function expiredToken(where: string, variable: string, env: NodeJS.ProcessEnv): string {
  const token = secretFrom(where, 'token_alternatives.expired_token_env', variable, env).trim();
  let exp: unknown;
  try {
    exp = decodeJwt(token).exp;
  } catch {
    throw new ConfigError(`${where}: token_alternatives.expired_token_env names ${variable}, which does not hold a JWT`);
  }
  if (typeof exp !== 'number') throw new ConfigError(`${where}: the token in ${variable} has no exp claim`);
  if (exp * 1000 > Date.now()) {
    throw new ConfigError(
      `${where}: the token in ${variable} has not expired yet (exp ${new Date(exp * 1000).toISOString()}); capture one and use it after it expires`,
    );
  }
  return token;
}

function secretFrom(where: string, field: string, variable: string, env: NodeJS.ProcessEnv): string {
  const value = env[variable];
  if (!value) throw new ConfigError(`${where}: ${field} names ${variable}, which is not set in the environment`);
  // Registered at once, so no later message, report or failure can show it.
  redactor.add(value);
  return value;
}

function resolveRole(where: string, name: string, role: RawRole, env: NodeJS.ProcessEnv): RoleCredentials {
  const displayName = role.name !== undefined ? { name: role.name } : {};
  if (role.client_secret !== undefined) {
    redactor.add(role.client_secret);
    return { clientId: role.client_id, clientSecret: role.client_secret, ...displayName };
  }
  return {
    clientId: role.client_id,
    clientSecret: secretFrom(where, `roles.${name}.client_secret_env`, role.client_secret_env!, env),
    ...displayName,
  };
}

async function readSigningKey(where: string, path: string, what = `signing_key_file ${path}`): Promise<string> {
  const text = readBoundedText(path, `${where}: ${what}`);
  try {
    if (text.trimStart().startsWith('{')) {
      const jwk = JSON.parse(text) as { kty?: string; d?: string };
      if (jwk.kty !== 'RSA' || !jwk.d) throw new Error('not a private RSA JWK');
      return JSON.stringify(jwk);
    }
    const key = await importPKCS8(text, 'RS256', { extractable: true });
    return JSON.stringify(await exportJWK(key));
  } catch {
    throw new ConfigError(`${where}: ${what} holds no private RSA key (PKCS8 PEM or JWK expected)`);
  }
}

/**
 * An origin (and base path) the suite appends paths to. Credentials in it are refused without
 * showing it: they would be sent to the target and printed in every line that names the URL;
 * secrets belong to the roles, in environment variables. A query or a fragment would end up
 * after the base path and before the operation's, sending every request elsewhere.
 */
function checkHttpUrl(where: string, field: string, value: string): void {
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(
      `${where}: ${field} must not hold credentials (user:password@); the suite authenticates with the roles' client credentials (secrets in environment variables)`,
    );
  }
  if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#')) {
    throw new ConfigError(`${where}: ${field} must not have a query or a fragment: the suite appends the operations' paths to it`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${where}: ${field} must be an http or https URL (got ${value})`);
  }
}

function trimSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

function describeConfigErrors(errors: typeof checkFile.errors): string {
  const first = errors?.find((e) => e.keyword !== 'oneOf' && e.keyword !== 'if') ?? errors?.[0];
  if (!first) return 'is not a valid target file';
  const field = first.instancePath.slice(1).replace(/\//g, '.') || '(top level)';
  if (first.keyword === 'additionalProperties')
    return `${field === '(top level)' ? '' : `${field}.`}${first.params.additionalProperty} is not a known field`;
  if (first.keyword === 'required') return `${field === '(top level)' ? '' : `${field}.`}${first.params.missingProperty} is required`;
  if (first.keyword === 'oneOf' || first.keyword === 'not') return `${field} needs exactly one of client_secret or client_secret_env`;
  return `${field} ${first.message}`;
}
