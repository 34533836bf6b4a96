// The shared value wrappers (specs/matrix/wrappers.ts), each unwrapped by a lenient reader of one
// JSON-typed value: the ticket's ttl_sec read through it before validation, a verified token's
// audience (or, for a wrapper that is a list, its subject) read through it before the claims are
// checked, a JSON token request's client_secret read through it before the secret is compared.
// One fault per wrapper and place, so that every entry of the list is shown to be caught by the
// rows made of it.
import { NOT_WRAPPED, VALUE_WRAPPERS, type ValueWrapper } from '../../specs/matrix/wrappers.ts';
import { faultFamily, type FaultRow } from './fault.ts';
import { parametersOf, withParameters } from './support/parameter-edits.ts';
import { editJsonBody, editRequests } from './support/route-edits.ts';
import { captureAll } from './support/captured.ts';
import { forgiveClaim } from './support/verifier-edits.ts';

const unwrapping = VALUE_WRAPPERS.filter((entry) => entry.unwrap !== undefined);
/** The value a wrapper of this entry holds, or undefined for anything it did not make. */
function held(entry: ValueWrapper, json: unknown): unknown {
  const value = entry.unwrap!(json);
  return value === NOT_WRAPPED ? undefined : value;
}

const ttlFault = (entry: ValueWrapper): FaultRow => ({
  id: `ticket-ttl-sec-unwrapped-from-${entry.key}`,
  clause: 'sso-ticket.body.ttl_sec.type',
  bug: `The ticket body's ttl_sec read by ${entry.unwrappedBy} before it is validated: ttl_sec written as ${entry.says(3600)} creates a ticket instead of 400; a string there is still refused.`,
  install: (app) =>
    editJsonBody(app, 'sso-ticket', (body) => {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
      const value = held(entry, (body as Record<string, unknown>).ttl_sec);
      return typeof value === 'number' ? { ...body, ttl_sec: value } : body;
    }),
});

/** The claim a wrapper is shown on: the audience, or the subject for a wrapper that is a list (a list holding the audience is an audience). */
const claimOf = (entry: ValueWrapper): 'aud' | 'sub' => (Array.isArray(entry.wrap('x')) ? 'sub' : 'aud');

const claimFault = (entry: ValueWrapper): FaultRow => {
  const claim = claimOf(entry);
  return {
    id: `token-${claim}-unwrapped-from-${entry.key}`,
    clause: claim === 'aud' ? 'redeliver.errors.401.invalid-token' : 'auth.token.claims',
    bug: `A correctly signed token's ${claim} read by ${entry.unwrappedBy} before the claims are checked: a token whose ${claim} is ${entry.says('<value>')} is accepted by every operation instead of 401; a plain value of another type is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const value = held(entry, claims[claim]);
        return typeof value === 'string' ? { ...claims, [claim]: value } : claims;
      }),
  };
};

const secretFault = (entry: ValueWrapper): FaultRow => ({
  id: `token-secret-unwrapped-from-${entry.key}`,
  clause: 'token.endpoint.wrong-secret',
  bug: `A JSON token request's client_secret read by ${entry.unwrappedBy} before it is compared: the client's secret written as ${entry.says('<secret>')} gets a token instead of 401; a wrong secret in it is still refused.`,
  install: (app) =>
    editRequests(app, 'token', (exchange) => {
      const parameters = parametersOf(exchange);
      const value = parameters && held(entry, parameters.client_secret);
      return typeof value === 'string' ? withParameters(exchange, { ...parameters, client_secret: value }) : exchange;
    }),
});

/** The query operator that matches any value, {"$ne": null}, passed to the client lookup as it came: it matches the stored secret. */
const secretMatchedByOperator: FaultRow = {
  id: 'token-secret-matched-by-operator-ne',
  clause: 'token.endpoint.wrong-secret',
  bug: 'A JSON token request\'s client_secret passed to a document store\'s query as it came (an operator injection): {"$ne": null} matches the client\'s secret and gets a token instead of 401; {"$eq": <wrong>} is still refused.',
  install: (app) => {
    const components = captureAll(app);
    editRequests(app, 'token', (exchange) => {
      const parameters = parametersOf(exchange);
      const secret = parameters?.client_secret;
      const matchesAny = secret !== null && typeof secret === 'object' && JSON.stringify(secret) === '{"$ne":null}';
      const stored =
        matchesAny && typeof parameters!.client_id === 'string' ? components().store.client(parameters!.client_id)?.secret : undefined;
      return stored === undefined ? exchange : withParameters(exchange, { ...parameters, client_secret: stored });
    });
  },
};

export const valueWrapperFaults = faultFamily([
  ...unwrapping.filter((entry) => entry.wraps(3600)).map(ttlFault),
  ...unwrapping.filter((entry) => entry.wraps('x')).map(claimFault),
  ...unwrapping.filter((entry) => entry.wraps('x')).map(secretFault),
  secretMatchedByOperator,
]);
