// Behaviour of the real service where the spec is silent (observed.yaml), typed.
import type { OperationKey } from './openapi.ts';
import { readSpecFile } from './load.ts';

export interface ErrorFact {
  status: number;
  message?: string;
  prefix?: string;
  /** With a prefix: how the message ends after its details. */
  suffix?: string;
  /** With a prefix: a regular expression the details between the prefix and the suffix match whole. */
  details?: string;
  errorCode?: string;
  strength: string;
  /** `description`: read from the service's published API description (ObservedFacts.description). */
  source?: string;
}

/** A fact with its strength: rec, doc, sdk or inf; and where it was read, when that is the description. */
export interface Fact<T> {
  value: T;
  strength: string;
  source?: string;
}

/** Where the observed level keeps a value the service's description does not give, and why. */
export interface DescriptionDeparture {
  operation: OperationKey | 'token endpoint';
  where: string;
  what: string;
  reason: string;
}

export interface BucketFact {
  bucket_size: number;
  refill_per_second: number;
  strength: string;
}

export type RateLimitProfileName = 'free' | 'production';

export interface IdentifierShape {
  prefix: string;
  alphabet: 'base58' | 'alphanumeric';
  length: number;
}

export interface ObservedFacts {
  content_type: string;
  /** The copy of the service's published API description the facts marked `source: description` come from. */
  description: { repository: string; path: string; commit: string; published: string; departures: DescriptionDeparture[] };
  operations: Record<
    OperationKey,
    {
      success: { status: number; body?: unknown; strength: string };
      scope: { value: string; strength: string; source?: string };
      failure_statuses: number[];
      /** Status → the causes of refusal the description gives it (named by cli/description/causes.ts). */
      refusals: Fact<Record<string, string[]>>;
      /** The release lifecycle the description gives it, where the spec gives none. */
      lifecycle?: Fact<string>;
    }
  >;
  /** The name the service gives the header the spec calls tenant-custom-domain. */
  custom_domain_header: Fact<string>;
  /** The strategies a connection may be of, as the service's description enumerates them. */
  connection_strategies: Fact<string[]>;
  reason_phrases: Record<string, string>;
  errors: Record<string, ErrorFact>;
  tokens: {
    path: string;
    alg: string;
    typ: string;
    expires_in: number;
    gty: string;
    subject_suffix: string;
    jwks_path: string;
    kid_required: Fact<boolean>;
    /** How the scope claim is written: one space-separated string. */
    scope_claim: Fact<string>;
    clock_skew_seconds: Fact<number>;
    errors: Record<string, { status: number; description?: string; strength: string }>;
    access_denied_descriptions: Record<'service_not_found' | 'client_not_authorized', { text: string; strength: string }>;
    rate_limit: BucketFact;
    /** Hourly and daily quotas of issued tokens per client, and the header that describes them. */
    quota: {
      header: string;
      /** Each bucket's name and the length of its window, in seconds. */
      buckets: Record<'per_hour' | 'per_day', number>;
      exceeded: { status: number; error: string; description: string; strength: string };
      strength: string;
    };
    client_assertion: {
      type: string;
      audiences: { issuer: string; token_endpoint: string };
      algorithms: Fact<string[]>;
      max_lifetime_seconds: Fact<number>;
      clock_skew_seconds: Fact<number>;
      max_claim_length: Fact<Record<'iss' | 'sub' | 'jti', number>>;
      single_use: Fact<boolean>;
    };
  };
  /** The discovery document's path and its fixed members (the URLs are made per host). */
  discovery: { path: string; strength: string } & Record<string, unknown>;
  jwks: {
    members: Fact<string[]>;
    certificate: { validity_days: number; signature: string; strength: string };
  };
  identifiers: {
    base58_alphabet: string;
    alphanumeric_alphabet: string;
    event_stream: IdentifierShape;
    event: IdentifierShape;
    self_service_profile: IdentifierShape;
    flows_vault_connection: IdentifierShape;
    connection: IdentifierShape;
    organization: IdentifierShape;
    client: IdentifierShape;
  };
  /** Named formats of the API description, each the key of an identifier shape. */
  identifier_formats: Record<string, string>;
  ticket: { path: string; query_parameter: string; code_length: number; max_uses: number };
  rate_limit: {
    headers: { limit: string; remaining: string; reset: string };
    reset_unit: string;
    reset_within_seconds: Fact<number>;
    on_success: boolean;
    sdk_retry: { attempts: number; max_wait_seconds: number };
    profiles: Record<RateLimitProfileName, BucketFact>;
  };
  request_bodies: { form_encoded: Fact<boolean>; duplicate_members: Fact<'last'> };
}

export const observed = readSpecFile('observed.yaml') as ObservedFacts;

/** The alphabet string of an identifier shape. */
export function alphabetOf(shape: IdentifierShape): string {
  return shape.alphabet === 'base58' ? observed.identifiers.base58_alphabet : observed.identifiers.alphanumeric_alphabet;
}

/** The identifier shape a named format of the API description stands for, e.g. connection-id. */
export function shapeOfFormat(format: string): IdentifierShape {
  const key = observed.identifier_formats[format];
  const shape = key === undefined ? undefined : (observed.identifiers as unknown as Record<string, IdentifierShape>)[key];
  if (!shape) throw new Error(`observed.yaml names no identifier shape for the format ${format}`);
  return shape;
}

/** The observed error fact of a kind, e.g. errorFact('insufficient_scope'). */
export function errorFact(kind: string): ErrorFact {
  const fact = observed.errors[kind];
  if (!fact) throw new Error(`observed.yaml has no error kind ${kind}`);
  return fact;
}

/**
 * Whether a message has a prefixed fact's form: its prefix, said once (the details after it do not
 * start with it again, as when two layers each write it), details of the form it states, its suffix.
 */
export function hasPrefixedForm(fact: ErrorFact, message: string | undefined): boolean {
  if (message === undefined || fact.prefix === undefined || !message.startsWith(fact.prefix)) return false;
  const suffix = fact.suffix ?? '';
  if (!message.endsWith(suffix) || message.length < fact.prefix.length + suffix.length) return false;
  const details = message.slice(fact.prefix.length, message.length - suffix.length);
  if (details.trimStart().startsWith(fact.prefix.trim())) return false;
  return fact.details === undefined || new RegExp(`^(?:${fact.details})$`).test(details);
}
