// The causes of refusal a description gives each status, named: the description words them in
// prose (and words one cause several ways: "Insufficient scope, expected:", "Insufficient scope;
// expected any of:"), observed.yaml lists them by name. A wording no row knows is a cause of its
// own, "unknown: <wording>", reported as new until a row names it.
export interface CauseRow {
  cause: string;
  wording: RegExp;
}

export const CAUSES: readonly CauseRow[] = [
  { cause: 'invalid_token', wording: /^Invalid token\.?$/i },
  { cause: 'invalid_signature', wording: /^Invalid signature received for JSON Web Token validation\.?$/i },
  { cause: 'client_not_global', wording: /^Client is not global\.?$/i },
  { cause: 'insufficient_scope', wording: /^Insufficient scope[,;]? expected/i },
  { cause: 'subscription_required', wording: /upgrade your subscription/i },
  { cause: 'stream_not_found', wording: /^The event stream does not exist\.?$/i },
  { cause: 'event_not_found', wording: /^The event does not exist\.?$/i },
  { cause: 'event_state', wording: /not in a state that allows redelivery/i },
  { cause: 'connection_name_taken', wording: /connection with this name already exists/i },
  { cause: 'vault_connection_not_found', wording: /vault connection does not exist/i },
  { cause: 'invalid_body', wording: /^Invalid request body/i },
  { cause: 'invalid_query', wording: /^Invalid request query string/i },
  { cause: 'too_many_requests', wording: /^Too many requests/i },
];

export function causeOf(wording: string): string {
  return CAUSES.find((row) => row.wording.test(wording.trim()))?.cause ?? `unknown: ${wording.trim()}`;
}
