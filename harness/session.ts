// What a conformance test holds: the target, seen through one test. It builds requests for the
// operations from specs/, attaches credentials, counts the test's requests, and turns a missing
// role or fixture, a write without opt-in, or a spent budget into a skip with its reason.
import { operation, type OperationKey } from '../specs/index.ts';
import { HarnessError } from './errors.ts';
import type { Exchange, OutgoingRequest, SendOptions } from './http.ts';
import type { Runtime } from './runtime.ts';
import type { RoleName, TargetFixtures } from './settings.ts';

/** How a request authenticates: as a role, with a given token, a raw header value, or not at all. */
export type Credential = { role: RoleName } | { token: string } | { authorization: string } | 'none';

export interface CallInput extends SendOptions {
  params?: Record<string, string>;
  headers?: Record<string, string>;
  /** A JSON body (serialised), or use rawBody for bytes that are not JSON. */
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  as?: Credential;
}

type Skip = (note: string) => never;

const FIXTURE_FIELDS: Record<keyof TargetFixtures, string> = {
  eventStream: 'event_stream',
  failedEvent: 'failed_event',
  notRedeliverableEvent: 'not_redeliverable_event',
  selfServiceProfile: 'self_service_profile',
  vaultConnections: 'vault_connections',
  connectionId: 'connection_id',
  existingConnectionName: 'existing_connection_name',
};

export class TargetSession {
  readonly runtime: Runtime;
  readonly #skip: Skip;
  requests = 0;
  readonly byOperation: Record<string, number> = {};

  constructor(runtime: Runtime, skip: Skip) {
    this.runtime = runtime;
    this.#skip = skip;
  }

  get settings() {
    return this.runtime.settings;
  }

  get target() {
    return this.runtime.settings.target;
  }

  get tokens() {
    return this.runtime.tokens;
  }

  get forge() {
    return this.runtime.forge;
  }

  /** Counts a request sent while this test runs. */
  count(request: OutgoingRequest): void {
    this.requests += 1;
    const key = request.label ?? 'other';
    this.byOperation[key] = (this.byOperation[key] ?? 0) + 1;
  }

  // --- Preconditions: each skips the test with its reason when it does not hold. ---------------

  role(role: RoleName): RoleName {
    if (!this.target.roles[role]) this.#skip(`role ${role} is not configured (roles.${role} in the target file)`);
    return role;
  }

  fixture<K extends keyof TargetFixtures>(name: K): NonNullable<TargetFixtures[K]> {
    const value = this.target.fixtures[name];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) {
      this.#skip(`fixture ${FIXTURE_FIELDS[name]} is not configured (fixtures.${FIXTURE_FIELDS[name]} in the target file)`);
    }
    return value as NonNullable<TargetFixtures[K]>;
  }

  /** The test makes the target write (a redelivery, a ticket). */
  writes(): void {
    if (!this.target.loopback && !this.settings.allowWrites) {
      this.#skip('writes to a non-loopback target run only with --allow-writes');
    }
  }

  /** The test spends the rate limit on purpose. */
  exhaustsRateLimit(): void {
    if (!this.target.loopback && !this.settings.allowRateLimitExhaustion) {
      this.#skip('spending the rate limit of a non-loopback target runs only with --allow-rate-limit-exhaustion');
    }
  }

  /** The test mints tokens with the target's own key. */
  signingKey(): void {
    if (!this.forge.holdsSigningKey) {
      this.#skip('needs the target signing key (signing_key_file in the target file; the embedded mock provides it)');
    }
  }

  /** Skips the test with its reason unless the condition holds. */
  needs(condition: boolean, reason: string): void {
    if (!condition) this.#skip(reason);
  }

  // --- Requests ------------------------------------------------------------------------------

  /** The URL of an operation with its path parameters filled in (percent-encoded). */
  url(key: OperationKey, params: Record<string, string> = {}): string {
    const path = operation(key).pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`operation ${key} needs path parameter ${name}`);
      return encodeURIComponent(value);
    });
    return `${this.target.baseUrl}${path}`;
  }

  /** Calls an operation; credentials default to the global role. */
  async call(key: OperationKey, input: CallInput = {}): Promise<Exchange> {
    const op = operation(key);
    const headers: Record<string, string> = { accept: 'application/json', ...input.headers };
    const authorization = await this.#authorization(input.as ?? { role: 'global' });
    if (authorization !== undefined) headers.authorization = authorization;
    let body: string | undefined;
    if (input.rawBody !== undefined) body = input.rawBody;
    else if (input.body !== undefined) body = JSON.stringify(input.body);
    if (body !== undefined) headers['content-type'] = input.contentType ?? 'application/json';
    return this.send({ method: op.method, url: this.url(key, input.params), headers, label: key, ...(body === undefined ? {} : { body }) }, input);
  }

  /** Sends any request to the target (token endpoint, JWKS, unusual paths). */
  async send(request: OutgoingRequest, options: SendOptions = {}): Promise<Exchange> {
    try {
      return await this.runtime.http.send(request, options);
    } catch (error) {
      this.#skipWhenTheHarnessCannotGoOn(error);
      throw error;
    }
  }

  /** A token of a role (skips when the role is not configured). */
  async tokenFor(role: RoleName): Promise<string> {
    this.role(role);
    try {
      return await this.tokens.tokenFor(role);
    } catch (error) {
      this.#skipWhenTheHarnessCannotGoOn(error);
      throw error;
    }
  }

  async #authorization(credential: Credential): Promise<string | undefined> {
    if (credential === 'none') return undefined;
    if ('authorization' in credential) return credential.authorization;
    if ('token' in credential) return `Bearer ${credential.token}`;
    return `Bearer ${await this.tokenFor(credential.role)}`;
  }

  #skipWhenTheHarnessCannotGoOn(error: unknown): void {
    if (error instanceof HarnessError && (error.code === 'BUDGET_EXHAUSTED' || error.code === 'RUN_DEADLINE')) {
      this.#skip(error.message);
    }
  }

}
