// Behaviour of the real service where the spec is silent (observed.yaml), typed.
import type { OperationKey } from './openapi.ts';
import { readSpecFile } from './load.ts';

export interface ErrorFact {
  status: number;
  message?: string;
  prefix?: string;
  errorCode?: string;
  strength: string;
}

export interface IdentifierShape {
  prefix: string;
  alphabet: 'base58' | 'alphanumeric';
  length: number;
}

export interface ObservedFacts {
  content_type: string;
  operations: Record<OperationKey, {
    success: { status: number; body?: unknown; strength: string };
    scope: { value: string; strength: string };
    failure_statuses: number[];
  }>;
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
    errors: Record<string, { status: number; strength: string }>;
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
  ticket: { path: string; query_parameter: string; code_length: number; max_uses: number };
  rate_limit: {
    headers: { limit: string; remaining: string; reset: string };
    reset_unit: string;
    on_success: boolean;
    sdk_retry: { attempts: number; max_wait_seconds: number };
  };
}

export const observed = readSpecFile('observed.yaml') as ObservedFacts;

/** The alphabet string of an identifier shape. */
export function alphabetOf(shape: IdentifierShape): string {
  return shape.alphabet === 'base58'
    ? observed.identifiers.base58_alphabet
    : observed.identifiers.alphanumeric_alphabet;
}

/** The observed error fact of a kind, e.g. errorFact('insufficient_scope'). */
export function errorFact(kind: string): ErrorFact {
  const fact = observed.errors[kind];
  if (!fact) throw new Error(`observed.yaml has no error kind ${kind}`);
  return fact;
}
