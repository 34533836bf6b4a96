// What one recording file says of the tenant as a whole, gathered before any of its exchanges is
// judged (each file is judged on its own: two files may be two targets): whose
// tokens these are (the identities, issuer and audience, of each origin the recording talked to),
// which tokens its token endpoint issued, which clients the operations with the global-client rule
// refused as not global and which they accepted. What the user knows and the recording cannot show (which clients are global)
// comes in as hints.
import { audiencePath, errorFact } from '../specs/index.ts';
import type { DecodedToken } from '../harness/exchange-record.ts';
import { bodyFields } from '../harness/exchange-record.ts';
import type { Endpoint } from './endpoints.ts';
import type { Recorded } from './recording.ts';
import { operationRules } from './rules.ts';

export interface JudgeHints {
  /** The tenant's management audiences (https://<host>/api/v2/), besides each origin's own and what its token endpoint issued. */
  audiences?: string[];
  /** Clients known to be global, and known not to be (redelivery's rule). */
  globalClients?: string[];
  nonGlobalClients?: string[];
  /** The name of the custom-domain header the target reads (default: the spec's). */
  customDomainHeader?: string;
}

export interface Identity {
  issuer: string;
  audience: string;
}

export interface RecordingContext {
  hints: JudgeHints;
  /** The identities a management request to `origin` may carry. */
  identitiesOf(origin: string): Identity[];
  /** The position of the token endpoint's answer that issued this very token (by its digest), if one did. */
  issuedAt(token: DecodedToken): number | undefined;
  /**
   * The verdicts on a client elsewhere in the recording, of the operations with the global-client
   * rule (their cards' globalClient): positions it was refused as not global, and accepted.
   */
  globalRule(client: string): { refusedAsNotGlobal: number[]; accepted: number[] };
}

export const NOT_GLOBAL_MESSAGE = errorFact('client_not_global').message!;

/** The identity whose audience this is: its issuer is the audience's origin with a slash. */
export function identityOfAudience(audience: string): Identity | undefined {
  return audience.endsWith(audiencePath) ? { audience, issuer: `${audience.slice(0, -audiencePath.length)}/` } : undefined;
}

export function clientOf(token: DecodedToken): string | undefined {
  const { azp, sub } = token.claims;
  if (typeof azp === 'string') return azp;
  return typeof sub === 'string' ? sub.replace(/@clients$/, '') : undefined;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export function recordingContext<T extends Recorded & { endpoint: Endpoint }>(
  exchanges: readonly T[],
  hints: JudgeHints,
  messageOf: (x: T) => string | undefined,
): RecordingContext {
  const learned = new Map<string, Identity[]>();
  const issued = new Map<string, number>();
  const verdicts = new Map<string, { refusedAsNotGlobal: number[]; accepted: number[] }>();
  for (const x of exchanges) {
    const { request, response, tokens } = x.exchange;
    const origin = originOf(request.url);
    if (x.endpoint.kind === 'token' && response.status === 200 && tokens?.issued && origin) {
      if (tokens.issued.digest) issued.set(tokens.issued.digest, x.position);
      // The identity the token endpoint issued for a management audience is one of this origin's.
      const asked = bodyFields(request.headers, request.body)?.audience;
      const { iss, aud } = tokens.issued.claims;
      if (asked?.endsWith(audiencePath) && typeof iss === 'string' && typeof aud === 'string') {
        learned.set(origin, [...(learned.get(origin) ?? []), { issuer: iss, audience: aud }]);
      }
    }
    if (x.endpoint.kind === 'operation' && operationRules[x.endpoint.operation].globalClient && tokens?.sent) {
      const client = clientOf(tokens.sent);
      if (!client) continue;
      const seen = verdicts.get(client) ?? { refusedAsNotGlobal: [], accepted: [] };
      if (response.status >= 200 && response.status < 300) seen.accepted.push(x.position);
      if (response.status === 401 && messageOf(x) === NOT_GLOBAL_MESSAGE) seen.refusedAsNotGlobal.push(x.position);
      verdicts.set(client, seen);
    }
  }
  const given = (hints.audiences ?? []).flatMap((audience) => identityOfAudience(audience) ?? []);
  return {
    hints,
    identitiesOf: (origin) => [identityOfAudience(`${origin}${audiencePath}`)!, ...given, ...(learned.get(origin) ?? [])],
    issuedAt: (token) => (token.digest === undefined ? undefined : issued.get(token.digest)),
    globalRule: (client) => verdicts.get(client) ?? { refusedAsNotGlobal: [], accepted: [] },
  };
}
