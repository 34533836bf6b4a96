// Requests that overlap: state of one request kept where the next can reach it. Each request alone
// is answered right; two arriving together are answered with each other's id or caller. A single
// threaded server reaches this as soon as a handler awaits between writing a shared field and
// reading it back (a module's variable, a singleton's field standing in for a request's).
import type { FaultHooks } from '../app.ts';
import type { TokenVerifier, Verification } from '../auth/verifier.ts';
import { faultFamily } from './fault.ts';
import { editVerifier } from './support/verifier-edits.ts';

/** How long the handler awaits between writing the shared field and reading it (its store's round trip). */
const ROUND_TRIP_MS = 5;

const roundTrip = () => new Promise<void>((resolve) => setTimeout(resolve, ROUND_TRIP_MS));

/** The vault read keeps the id it was asked for in a field of the route, read back after its lookup's round trip. */
function vaultIdInSharedField(app: FaultHooks): void {
  let asked: string | undefined;
  app.wrapRoute('vault', (next) => async (exchange) => {
    asked = exchange.params.id;
    await roundTrip();
    return next(asked === undefined ? exchange : { ...exchange, params: { ...exchange.params, id: asked } });
  });
}

/** The verifier keeps its verdict in a field of its own, read back after the handler's next round trip. */
function callerInSharedField(verifier: TokenVerifier): TokenVerifier {
  let current: Verification | undefined;
  return {
    async verify(authorization, host) {
      current = await verifier.verify(authorization, host);
      await roundTrip();
      return current;
    },
    checkClaims: (claims, host) => verifier.checkClaims(claims, host),
  };
}

export const overlappingRequestFaults = faultFamily([
  {
    id: 'vault-read-id-kept-in-a-shared-field',
    clause: 'vault.response.record',
    bug: `A vault read handler that writes the connection id it was asked for into a field of the route (a singleton's) and reads it back after the store's ${ROUND_TRIP_MS} ms round trip: two reads of different connections arriving together are both answered with the record asked for last; a read alone is answered right.`,
    install: vaultIdInSharedField,
  },
  {
    id: 'caller-kept-in-a-shared-field',
    clause: 'errors.401.all-operations',
    bug: "A token filter that keeps the verified caller in a field of a singleton (Spring's default bean scope) instead of the request's, read back by the handler after its store's round trip: a request without a credential arriving together with a valid one is answered as the valid one's caller (its success) instead of 401, or the valid one is refused; each alone is answered right.",
    install: (app) => editVerifier(app, callerInSharedField),
  },
]);
