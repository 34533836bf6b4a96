// What a conformance test holds: the target, seen through one test and its plan. It builds
// requests for the operations from specs/, attaches credentials, counts the test's requests, and
// holds the test to its plan: a role, fixture or token it did not declare, a shared request it
// did not declare, or one request more than it planned is a suite bug (PLAN_VIOLATION), refused
// before anything is sent. What the plan says is missing never gets here: such a test is skipped
// with its reason before its body runs.
import fc from 'fast-check';
import type { JWTPayload } from 'jose';
import type { RequestTemplate, TokenEdit } from '../specs/cards/card.ts';
import type { TokenRequestTemplate } from '../specs/cards/token-request.ts';
import { operation, type OperationKey } from '../specs/index.ts';
import type { RequestContext } from '../specs/matrix/template.ts';
import { HarnessError } from './errors.ts';
import { answerSummary, type Exchange, type OutgoingRequest, type SendOptions } from './http.ts';
import { SkipRequest } from './skip.ts';
import { fixtureField } from '../specs/cards/fixtures.ts';
import { sharedKeys, type EvaluatedPlan, type MintedToken, type SkipCategory } from './plan.ts';
import { realizeRequest, realizeTokenRequest, requestContextOf, type TokenSource } from './realize.ts';
import type { RequestCounter, Runtime } from './runtime.ts';
import type { RoleName, TargetFixtures } from './settings.ts';

/** How a request authenticates: as a role, with a given token, a raw header value, or not at all. */
export type Credential = { role: RoleName } | { token: string } | { authorization: string } | 'none';

export interface CallInput extends SendOptions {
  params?: Record<string, string>;
  /** Path parameters written as they are, already percent-encoded (in place of their `params`). */
  encodedParams?: Record<string, string>;
  headers?: Record<string, string>;
  /** The query string, without "?" (tests of where a credential may travel). */
  query?: string;
  /** A JSON body (serialised), or use rawBody for bytes that are not JSON. */
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  as?: Credential;
  /**
   * The key of a shared request (declared in the plan): sent once per run, and every test that
   * names the key reads the same answer.
   */
  shared?: string;
}

export { SkipRequest } from './skip.ts';

/** Harness errors that end what a test can do without saying anything of the target. */
const STOPS: Partial<Record<HarnessError['code'], SkipCategory>> = {
  BUDGET_EXHAUSTED: 'budget',
  RUN_DEADLINE: 'time',
  RATE_LIMIT_WAIT: 'rate-limit',
  TOKEN_UNAVAILABLE: 'config',
  TOKEN_BUDGET: 'budget',
  TOKEN_QUOTA: 'budget',
};

export class TargetSession implements RequestCounter {
  readonly runtime: Runtime;
  readonly name: string;
  readonly plan: EvaluatedPlan;
  /** Own requests sent (the plan's `requests` bounds them). */
  requests = 0;
  /** 429s retried, outside any plan. */
  retries = 0;
  readonly byOperation: Record<string, number> = {};
  /** Set when the run can no longer serve this test (budget, time, rate limit): it becomes a skip. */
  stopped: { category: SkipCategory; reason: string } | undefined;
  /**
   * The positive control the test's refusals stand on: the same request without its defect,
   * accepted by this target in this run. A refusal asserted without one is a suite bug (expect.ts).
   */
  controlled: string | undefined;

  constructor(runtime: Runtime, name: string, plan: EvaluatedPlan) {
    this.runtime = runtime;
    this.name = name;
    this.plan = plan;
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

  /** Every answer of the management interface in this run so far, in order, as its summary (http.ts answerSummary). */
  get answers(): readonly Exchange[] {
    return this.runtime.answers;
  }

  countOwn(_request: OutgoingRequest, retry: boolean): void {
    if (retry) this.retries += 1;
    else this.requests += 1;
  }

  countLabel(request: OutgoingRequest): void {
    const key = request.label ?? 'other';
    this.byOperation[key] = (this.byOperation[key] ?? 0) + 1;
  }

  // --- What the plan declared --------------------------------------------------------------

  role(role: RoleName): RoleName {
    if (role !== 'global' && !this.plan.roles.includes(role))
      this.#violation(`uses role ${role} without declaring it (needs: [role('${role}')])`);
    return role;
  }

  fixture<K extends keyof TargetFixtures>(name: K): NonNullable<TargetFixtures[K]> {
    if (!this.plan.fixtures.includes(name))
      this.#violation(`uses fixture ${fixtureField(name)} without declaring it (needs: [fixture('${name}')])`);
    return this.target.fixtures[name] as NonNullable<TargetFixtures[K]>;
  }

  /** Skips the test with its reason unless a condition known only now holds (an earlier result). */
  needs(condition: boolean, reason: string, category: SkipCategory = 'depends'): void {
    if (!condition) throw new SkipRequest(category, reason);
  }

  // --- Requests ------------------------------------------------------------------------------

  /** The URL of an operation with its path parameters filled in (percent-encoded). */
  url(key: OperationKey, params: Record<string, string> = {}, query?: string, encoded: Record<string, string> = {}): string {
    const path = operation(key).pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (encoded[name] !== undefined) return encoded[name];
      const value = params[name];
      if (value === undefined) throw new Error(`operation ${key} needs path parameter ${name}`);
      return encodeURIComponent(value);
    });
    return `${this.target.baseUrl}${path}${query === undefined ? '' : `?${query}`}`;
  }

  /** What the matrix's requests are made from on this target: its fixtures, its clients, its header names. */
  get context(): RequestContext {
    return requestContextOf(this.target);
  }

  /**
   * Sends the positive control of the test's refusals: the same request without the defect. It must
   * be accepted (2xx): else the test is skipped as "positive control failed", and its clause is not
   * verified, since a target that refuses everything would pass every refusal. Share the control
   * (a shared request) so it costs nothing where the success is sent anyway.
   */
  async control(what: string, send: () => Promise<Exchange>, options: { refused?: 'not-applicable' } = {}): Promise<void> {
    const exchange = await send();
    if (exchange.status < 200 || exchange.status >= 300) {
      // A control in a form the spec leaves open: the target need not take it, and the test says nothing here.
      if (options.refused === 'not-applicable')
        throw new SkipRequest('not-applicable', `${what} was answered ${exchange.status}: this target does not take those forms`);
      throw new SkipRequest(
        'control',
        `positive control failed: ${what} was answered ${exchange.status}, so a refusal proves nothing here`,
      );
    }
    this.controlled = what;
  }

  /** A positive control met by a token the target issued: in this run (with its exchange) or, cached, in an earlier one. */
  async controlByToken(what: string, obtain: () => Promise<{ exchange?: Exchange; token?: string }>): Promise<void> {
    const { exchange, token } = await obtain();
    if (token === undefined) {
      throw new SkipRequest(
        'control',
        `positive control failed: ${what} was answered ${exchange?.status ?? 'without a token'}, so a refusal proves nothing here`,
      );
    }
    this.controlled = what;
  }

  /** Sends a request of the matrix (a template realized for this target), shared under `shared` where given. */
  async sendTemplate(template: RequestTemplate, options: SendOptions & { shared?: string; label?: string } = {}): Promise<Exchange> {
    const send = async () => this.send(await realizeRequest(template, this.target, this.#tokenSource(), options.label ?? 'other'), options);
    return options.shared === undefined ? send() : this.shared(options.shared, options.shared, send);
  }

  /** Sends a token endpoint request of the matrix, shared under `shared` where given. */
  async sendTokenTemplate(template: TokenRequestTemplate, options: { shared?: string } = {}): Promise<Exchange> {
    const send = () => this.send(realizeTokenRequest(template, this.target));
    return options.shared === undefined ? send() : this.shared(options.shared, options.shared, send);
  }

  #tokenSource(): TokenSource {
    return {
      tokenFor: (role) => this.tokenFor(role),
      mint: (kind) => this.mint(kind),
      prepare: async (edit: TokenEdit) => {
        const kidAs = edit.forge === 'kid-as-x5t';
        if (edit.resign || kidAs || edit.forge === 'leading-zero-signature' || edit.forge?.startsWith('signature-as-'))
          this.#declaredToken('signing-key');
        if (edit.forge === 'hs256-public-key' || kidAs) await this.jwks();
      },
      forge: this.forge,
      role: (name) => this.role(name as RoleName),
    };
  }

  /** Calls an operation; credentials default to the global role. */
  async call(key: OperationKey, input: CallInput = {}): Promise<Exchange> {
    const credential = input.as ?? { role: 'global' };
    const send = async () => {
      const op = operation(key);
      const headers: Record<string, string> = { accept: 'application/json', ...input.headers };
      const authorization = await this.#authorization(credential);
      if (authorization !== undefined) headers.authorization = authorization;
      let body: string | undefined;
      if (input.rawBody !== undefined) body = input.rawBody;
      else if (input.body !== undefined) body = JSON.stringify(input.body);
      if (body !== undefined) headers['content-type'] = input.contentType ?? 'application/json';
      const request: OutgoingRequest = {
        method: op.method,
        url: this.url(key, input.params, input.query, input.encodedParams),
        headers,
        label: key,
        rateLimited: true,
        ...(body === undefined ? {} : { body }),
      };
      return this.send(request, input);
    };
    if (input.shared === undefined) return send();
    const identity = JSON.stringify([
      key,
      input.params,
      input.encodedParams,
      input.query,
      input.headers,
      input.body,
      input.rawBody,
      input.contentType,
      credentialIdentity(credential),
    ]);
    return this.shared(input.shared, identity, send);
  }

  /** Sends any request to the target (token endpoint, JWKS, unusual paths) as one of the test's own. */
  async send(request: OutgoingRequest, options: SendOptions = {}): Promise<Exchange> {
    this.#ownRequest(request.method, request.url);
    const exchange = await this.#guard(() => this.runtime.http.send(request, options));
    if (request.rateLimited) this.runtime.answers.push(answerSummary(exchange));
    return exchange;
  }

  /** One client-credentials request of the test's own (tests of the token endpoint itself). */
  async tokenRequest(role: RoleName, overrides: Parameters<Runtime['tokens']['request']>[1] = {}) {
    this.role(role);
    this.#ownRequest('POST', this.tokens.tokenUrl);
    return this.#guard(() => this.tokens.request(role, overrides));
  }

  /** A token of a role (a shared request, fetched once per run). */
  async tokenFor(role: RoleName): Promise<string> {
    this.role(role);
    return this.#guard(() => this.tokens.tokenFor(role, this.name));
  }

  /** The exchange that issued a role's token this run, and the token if one came (for tests of the token endpoint). */
  async issued(role: RoleName): Promise<{ exchange: Exchange; token?: string }> {
    this.role(role);
    if (!this.plan.shared.includes(sharedKeys.tokenExchange(role)))
      this.#violation(`reads the exchange that issued a token without declaring it (shared: [sharedKeys.tokenExchange('${role}')])`);
    return this.#guard(() => this.tokens.issued(role, this.name));
  }

  /** The key client's token (token_alternatives.key_client): asked for with a client assertion once per run, or cached. */
  async keyClientToken(shared: string): Promise<{ exchange?: Exchange; token?: string }> {
    if (!this.plan.shared.includes(shared)) this.#violation(`reads the key client's token without declaring it (shared: ['${shared}'])`);
    return this.#guard(() => this.tokens.keyClientToken(shared, () => this.forge.clientAssertion(), this.name));
  }

  /**
   * A token wrong in one way, from the signing key when the suite holds it, else from the
   * real-tenant alternative the target file configures (the plan checked one exists).
   */
  async mint(kind: Exclude<MintedToken, 'signing-key'>): Promise<string> {
    this.#declaredToken(kind);
    const alternatives = this.target.tokenAlternatives;
    const holdsKey = this.target.signingKeyJwk !== undefined;
    return this.#guard(async () => {
      switch (kind) {
        case 'expired':
          return holdsKey ? this.forge.expired(await this.tokenFor('global')) : alternatives.expiredToken!;
        case 'wrong-audience':
          return holdsKey
            ? this.forge.wrongAudience(await this.tokenFor('global'))
            : this.tokens.foreignToken('other_audience', alternatives.otherAudience!, this.name);
        case 'wrong-issuer':
          return holdsKey
            ? this.forge.wrongIssuer(await this.tokenFor('global'))
            : this.tokens.foreignToken('other_tenant', alternatives.otherTenant!, this.name);
      }
    });
  }

  /** The global role's token with its claims changed and re-signed with the target's own key. */
  async resigned(change: (claims: JWTPayload, nowSeconds: number) => JWTPayload): Promise<string> {
    this.#declaredToken('signing-key');
    const token = await this.tokenFor('global');
    return this.#guard(() => this.forge.resignedWithTargetKey(token, change));
  }

  /** Work whose requests are shared by every test that declares its key: done once per run. */
  async shared<T>(key: string, identity: string, work: () => Promise<T>): Promise<T> {
    if (!this.plan.shared.includes(key)) this.#violation(`reads shared request "${key}" without declaring it (shared: [...])`);
    return this.#guard(() => this.runtime.shared.once(key, identity, this.name, work));
  }

  /** The target's published keys (a shared request). */
  async jwks() {
    if (!this.plan.shared.includes(sharedKeys.jwks)) this.#violation('reads the JWKS without declaring it (shared: [sharedKeys.jwks])');
    return this.#guard(() => this.forge.jwks(this.name));
  }

  /**
   * Runs a check over the test's deterministic boundary cases, then over `numRuns` generated ones
   * (none by default against a real tenant; --num-runs asks for them). Its plan counts
   * `examples.length + numRuns` requests per request the check sends.
   */
  async cases<T>(examples: readonly T[], generated: fc.Arbitrary<T> | undefined, check: (value: T) => Promise<void>): Promise<void> {
    for (const example of examples) await check(example);
    if (generated !== undefined && this.settings.numRuns > 0) {
      await fc.assert(fc.asyncProperty(generated, check), { numRuns: this.settings.numRuns });
    }
  }

  async #authorization(credential: Credential): Promise<string | undefined> {
    if (credential === 'none') return undefined;
    if ('authorization' in credential) return credential.authorization;
    if ('token' in credential) return `Bearer ${credential.token}`;
    return `Bearer ${await this.tokenFor(credential.role)}`;
  }

  /** Refuses, before it is sent, a request of the test's own beyond its plan. */
  #ownRequest(method: string, url: string): void {
    if (this.runtime.shared.attributedTo === undefined && this.requests >= this.plan.requests) {
      this.#violation(`would send more requests than its plan (${this.plan.requests}): ${method} ${new URL(url).pathname}`);
    }
  }

  #declaredToken(kind: MintedToken): void {
    if (!this.plan.tokens.includes(kind)) this.#violation(`mints a ${kind} token without declaring it (needs: [minted('${kind}')])`);
  }

  /** Runs harness work; a harness error that ends the run's service to this test marks it stopped. */
  async #guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof HarnessError) {
        const category = STOPS[error.code];
        if (category !== undefined) this.stopped ??= { category, reason: error.message };
      }
      throw error;
    }
  }

  #violation(what: string): never {
    throw new HarnessError('PLAN_VIOLATION', `suite bug: the test ${what}`);
  }
}

/**
 * What a credential is, for the identity of a shared request: a role by name; a token or a raw
 * header value only by kind, since the key already names which one (a minted token's times differ
 * from test to test, and its meaning does not).
 */
function credentialIdentity(credential: Credential): string {
  if (credential === 'none') return 'none';
  if ('role' in credential) return `role ${credential.role}`;
  return 'token' in credential ? 'a token' : 'an Authorization value';
}
