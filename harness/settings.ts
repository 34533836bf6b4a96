// What one conformance run needs, decided once by the command line and handed to the suites.
// It crosses from the runner to the test worker through vitest's `provide`, so it is plain data.

/** The roles the suites use; each is one client of the target. */
export const roleNames = [
  'global',
  'without_redeliver_scope',
  'without_sso_ticket_scope',
  'without_vault_scope',
  'non_global',
] as const;
export type RoleName = (typeof roleNames)[number];

export interface RoleCredentials {
  clientId: string;
  clientSecret: string;
}

/** Ids that exist on the target, named by what the suites need them for. */
export interface TargetFixtures {
  eventStream?: string;
  failedEvent?: string;
  notRedeliverableEvent?: string;
  selfServiceProfile?: string;
  vaultConnections: string[];
  connectionId?: string;
  existingConnectionName?: string;
}

export interface ResolvedTarget {
  /** Where the target was described: a file path, or "embedded mock". */
  source: string;
  baseUrl: string;
  authUrl: string;
  audience: string;
  customDomainHeader: string;
  roles: Partial<Record<RoleName, RoleCredentials>>;
  fixtures: TargetFixtures;
  /** A private JWK (JSON) of the target's signing key, when the suite holds it. */
  signingKeyJwk?: string;
  /** Loopback targets get writes and rate-limit exhaustion without opt-in. */
  loopback: boolean;
}

export interface RunSettings {
  target: ResolvedTarget;
  strict: boolean;
  seed: number;
  /** fast-check runs per property. */
  numRuns: number;
  allowWrites: boolean;
  allowRateLimitExhaustion: boolean;
  maxRequests: number;
  requestTimeoutMs: number;
  /** Longest wait for a rate-limit reset before a request, in ms. */
  maxRateLimitWaitMs: number;
  /** When the run must be over (ms since epoch); requests after it fail at once. */
  deadline: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    settings: RunSettings;
  }
}
