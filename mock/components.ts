// Everything a route uses, in one object: the clock, the tenant, the store, the signing keys, the
// rate limiters (the management interface's and the token endpoint's), the quotas of issued tokens, the validators, the error catalogue, the ticket code generator, the token verifier,
// the token endpoint's client-assertion verifier and the token issuer. They are built here in
// dependency order, and a fault may wrap or replace any of them as it is built, so the components
// after it (and every route) see the change.
import type { OperationCard } from '../specs/cards/card.ts';
import { createAssertionVerifier, type AssertionVerifier } from './auth/client-assertion.ts';
import { createTokenIssuer, type TokenIssuer } from './auth/issuer.ts';
import type { SigningKeys } from './auth/keys.ts';
import { createTokenVerifier, type TokenVerifier } from './auth/verifier.ts';
import type { Clock } from './clock.ts';
import { createErrorCatalogue, type ErrorCatalogue } from './errors.ts';
import type { FixturesObject } from './fixtures.ts';
import type { RateLimits } from './rate-limit-profiles.ts';
import { createRateLimiter, type RateLimiter } from './rate-limiter.ts';
import { Store } from './store.ts';
import { createTenant, type Tenant } from './tenant.ts';
import { createTokenQuotas, type TokenQuotaConfig, type TokenQuotas } from './token-quota.ts';
import { createTicketCodeGenerator, type TicketCodeGenerator } from './ticket-codes.ts';
import { createValidators, type Validators } from './validators.ts';

export interface Components {
  clock: Clock;
  errors: ErrorCatalogue;
  tenant: Tenant;
  store: Store;
  keys: SigningKeys;
  limiter: RateLimiter;
  /** The token endpoint's own bucket, apart from the management interface's. */
  tokenLimiter: RateLimiter;
  /** Hourly and daily quotas of the tokens each client is issued. */
  tokenQuotas: TokenQuotas;
  validators: Validators;
  ticketCodes: TicketCodeGenerator;
  verifier: TokenVerifier;
  /** The token endpoint's check of a client assertion (private_key_jwt, RFC 7523). */
  assertions: AssertionVerifier;
  issuer: TokenIssuer;
  limits: { maxBodyBytes: number };
}

export type ComponentName = keyof Components;

/** Wraps or replaces a component; `built` holds the components made before it. */
export type ComponentOverride<K extends ComponentName> = (current: Components[K], built: Readonly<Partial<Components>>) => Components[K];

export interface ComponentInputs {
  /** The cards of the operations the mock serves. */
  cards: readonly OperationCard[];
  clock: Clock;
  fixtures: FixturesObject;
  keys: SigningKeys;
  /** Where the server listens, e.g. http://127.0.0.1:4010. */
  origin: string;
  rateLimits: RateLimits;
  maxBodyBytes: number;
  /** The quota of issued tokens of every client without its own; beats the fixtures' token_quota. */
  tokenQuota?: TokenQuotaConfig;
}

export type OverrideTable = ReadonlyMap<ComponentName, ReadonlyArray<ComponentOverride<ComponentName>>>;

export function buildComponents(inputs: ComponentInputs, overrides: OverrideTable): Components {
  const built: Partial<Components> = {};
  function make<K extends ComponentName>(name: K, value: Components[K]): Components[K] {
    let current = value;
    for (const override of (overrides.get(name) ?? []) as unknown as ReadonlyArray<ComponentOverride<K>>)
      current = override(current, built);
    built[name] = current;
    return current;
  }
  const clock = make('clock', inputs.clock);
  make('errors', createErrorCatalogue());
  const tenant = make('tenant', createTenant(inputs.fixtures.tenant.domain, inputs.origin, inputs.fixtures.apis ?? []));
  const store = make('store', new Store(inputs.fixtures));
  const keys = make('keys', inputs.keys);
  make('limiter', createRateLimiter(inputs.rateLimits.management, clock));
  make('tokenLimiter', createRateLimiter(inputs.rateLimits.token, clock));
  make('tokenQuotas', createTokenQuotas(quotaOfClient(inputs), clock));
  make('validators', createValidators(inputs.cards));
  make('ticketCodes', createTicketCodeGenerator());
  make('verifier', createTokenVerifier({ keys, clock, tenant, store }));
  make('assertions', createAssertionVerifier({ store, tenant, clock }));
  make('issuer', createTokenIssuer({ keys, clock, tenant }));
  make('limits', { maxBodyBytes: inputs.maxBodyBytes });
  return built as Components;
}

/** A client's quota of issued tokens: its own in the fixtures, else the tenant's (the option, then the fixtures). */
function quotaOfClient(inputs: ComponentInputs): (clientId: string) => TokenQuotaConfig | undefined {
  const fromFixture = (quota: { per_hour?: number; per_day?: number } | undefined): TokenQuotaConfig | undefined =>
    quota && {
      ...(quota.per_hour !== undefined ? { perHour: quota.per_hour } : {}),
      ...(quota.per_day !== undefined ? { perDay: quota.per_day } : {}),
    };
  const tenantDefault = inputs.tokenQuota ?? fromFixture(inputs.fixtures.token_quota);
  const own = new Map(inputs.fixtures.clients.map((c) => [c.client_id, fromFixture(c.token_quota)]));
  return (clientId) => own.get(clientId) ?? tenantDefault;
}
