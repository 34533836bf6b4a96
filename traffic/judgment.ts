// What a passive judge says of one exchange and one clause: it held, or it did not, with what was
// expected and what the recording shows. A judge says nothing of an exchange it cannot decide
// from the recording (a 401 to a token whose signature it cannot check, say): no judgment, never
// a guess.
import type { Endpoint } from './endpoints.ts';
import type { Recorded } from './recording.ts';
import type { CredentialState } from './credential.ts';

export interface Judgment {
  clause: string;
  /** The exchange judged: its file and position there. */
  file: string;
  position: number;
  /** "POST /api/v2/... 401" for a reader. */
  exchange: string;
  outcome: 'pass' | 'fail';
  /** What was checked, in a few words ("answered 401 to a token expired 3 h before the answer"). */
  check: string;
  expected?: string;
  actual?: string;
  /** Earlier exchanges a sequence rule compared it with (file positions). */
  related?: number[];
}

/** An exchange ready for the judges: where it went, when it was answered, what credential it carried. */
export interface Classified extends Recorded {
  endpoint: Endpoint;
  /** When the target answered (ms since the epoch): its Date header, else the recorded time. */
  at: number;
  /** The answer's Date header in Unix seconds, when it has one. */
  dateSeconds?: number;
  credential: CredentialState;
  /** The answer's body parsed as JSON, when it is JSON. */
  json: unknown;
  status: number;
}

export function describeExchange(x: Recorded): string {
  let path: string;
  try {
    path = new URL(x.exchange.request.url).pathname;
  } catch {
    path = x.exchange.request.url;
  }
  return `${x.exchange.request.method} ${path} → ${x.exchange.response.status}`;
}

/** A judgment of `clause` on `x`: `problem` undefined means it held. */
export function judge(
  clause: string,
  x: Classified,
  check: string,
  expected: string,
  problem: string | undefined,
  related?: number[],
): Judgment {
  return {
    clause,
    file: x.file,
    position: x.position,
    exchange: describeExchange(x),
    outcome: problem === undefined ? 'pass' : 'fail',
    check,
    expected,
    ...(problem !== undefined ? { actual: problem } : {}),
    ...(related ? { related } : {}),
  };
}

/** A refusal a client can act on: 4xx, but not 429 (the limiter, not the request, refused it). */
export function isRefusal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 429;
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
