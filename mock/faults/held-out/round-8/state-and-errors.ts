// What redelivery allows and how the interface refuses: redeliveries of an event capped by a retry
// budget, the state check skipped for a "force" flag; the framework's HTML page for a path no route
// takes, a body error's statusCode taken from the validator, a connection name reserved by the
// ticket that names it, two Authorization headers folded into one, and ticket creation checking
// Authorization as an OpenAPI header parameter. Each changes the answer to one near miss; other
// requests are answered as before.
import { operationKeys } from '../../../../specs/index.ts';
import type { Exchange } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { jsonObject } from '../round-4/support/token-requests.ts';
import { answeredInstead } from '../support/answers.ts';

/** Redeliveries of one event the slip's retry budget allows. */
const RETRY_BUDGET = 3;
/** The pattern openapi.yaml gives the Authorization header parameter. */
const AUTHORIZATION_PATTERN = /^Bearer .+$/;
const UNPROCESSABLE = 422;

function decoded(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The connection_config.name of a JSON ticket request, if it has one. */
function connectionNameOf(exchange: Exchange): string | undefined {
  const config = jsonObject(exchange.body.toString('utf8'))?.connection_config;
  const name = config !== null && typeof config === 'object' ? (config as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : undefined;
}

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho8-redeliveries-capped-per-event',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: `A retry budget of ${RETRY_BUDGET} redeliveries per event (a guard against redelivery loops), refused with the rate limiter's 429 once spent: the ${RETRY_BUDGET + 1}th redelivery of a failed event is answered 429 instead of 202; the first ${RETRY_BUDGET} are still accepted, and other events keep their own budget.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      const spent = new Map<string, number>();
      editReplies(app, ['redeliver'], (reply, exchange) => {
        if (reply.status !== 202) return reply;
        const key = `${decoded(exchange.params.id) ?? ''}/${decoded(exchange.params.event_id) ?? ''}`;
        const count = (spent.get(key) ?? 0) + 1;
        spent.set(key, count);
        return count > RETRY_BUDGET ? answeredInstead(reply, errors().reply('too_many_requests')) : reply;
      });
    },
  },
  {
    id: 'ho8-state-check-skipped-with-force',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: 'A "force" query parameter, added for the support team\'s console, skips the state check: redelivery of a delivered event with ?force=true is answered 202 instead of 409; without the parameter it is still refused 409.',
    install: (app) =>
      editReplies(app, ['redeliver'], (reply, exchange) =>
        reply.status === 409 && new URLSearchParams(exchange.query).get('force') === 'true' ? { ...reply, status: 202, body: {} } : reply,
      ),
  },
  {
    id: 'ho8-unrouted-404-as-framework-html',
    clause: 'errors.body.content-type',
    level: 'observed',
    bug: 'A path no route takes is answered by the web framework\'s default handler ("Cannot GET <path>" in an HTML page) because the service\'s own not-found handler is mounted after it: such a 404 has content type text/html instead of application/json and no error object; 404s of the operations (an unknown id) are unchanged. (The mock writes every body as JSON, so the page arrives as a JSON string.)',
    install: (app) =>
      editReplies(app, ['not-found'], (reply, exchange) =>
        reply.status === 404
          ? {
              ...reply,
              headers: { ...reply.headers, 'content-type': 'text/html; charset=utf-8' },
              body: `<!DOCTYPE html><html><body><pre>Cannot ${exchange.method} ${exchange.path}</pre></body></html>`,
            }
          : reply,
      ),
  },
  {
    id: 'ho8-body-error-status-code-from-validator',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: `The body of an invalid-body error built from the validator's own error (status ${UNPROCESSABLE}) while the HTTP status is mapped to 400 outside it: every such answer is HTTP 400 with statusCode ${UNPROCESSABLE} and error "Unprocessable Entity" in its body instead of 400 and "Bad Request"; other errors are unchanged.`,
    install: (app) =>
      editReplies(app, operationKeys, (reply) =>
        reply.status === 400 && isErrorBody(reply.body) && reply.body.errorCode === 'invalid_body'
          ? { ...reply, body: { ...reply.body, statusCode: UNPROCESSABLE, error: 'Unprocessable Entity' } }
          : reply,
      ),
  },
  {
    id: 'ho8-ticket-reserves-connection-name',
    clause: 'sso-ticket.errors.409.name-taken',
    level: 'observed',
    bug: 'The connection name of connection_config reserved when a ticket is created (the connection is only made when the flow completes): a second ticket for the same new name is refused 409 instead of given a ticket, though no connection has that name; a name of an existing connection is still refused and other names still get tickets.',
    install: (app) => {
      const errors = capture(app, 'errors');
      const reserved = new Set<string>();
      editReplies(app, ['sso-ticket'], (reply, exchange) => {
        const name = reply.status === 201 ? connectionNameOf(exchange) : undefined;
        if (name === undefined) return reply;
        if (reserved.has(name)) return answeredInstead(reply, errors().reply('connection_name_taken'));
        reserved.add(name);
        return reply;
      });
    },
  },
  {
    id: 'ho8-repeated-authorization-folded',
    clause: 'auth.authorization.single',
    level: 'observed',
    bug: 'A front proxy folds repeated Authorization headers into one comma-separated value, as it may for list headers: a request with two Authorization headers reaches the service as one credential "Bearer <a>, Bearer <b>" and is answered 401 instead of 400 "Bad HTTP authentication header format"; a request with one header is unchanged.',
    install: (app) => {
      for (const key of operationKeys) {
        editRequests(app, key, (exchange) =>
          exchange.repeatedHeaders.includes('authorization')
            ? {
                ...exchange,
                repeatedHeaders: exchange.repeatedHeaders.filter((name) => name !== 'authorization'),
                headers: { ...exchange.headers, authorization: `${exchange.headers.authorization ?? ''}, ...` },
              }
            : exchange,
        );
      }
    },
  },
  {
    id: 'ho8-ticket-authorization-validated-as-parameter',
    clause: 'errors.401.all-operations',
    level: 'observed',
    bug: 'Ticket creation validates Authorization as the OpenAPI header parameter it is declared as (pattern "^Bearer .+$") before authenticating: a request without Authorization, or with "bearer <valid token>" in lower case, is answered 400 invalid_headers instead of 401 (or, for the lower-case scheme, a ticket); "Bearer x" is still answered 401.',
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['sso-ticket'], (reply, exchange) => {
        const value = exchange.headers.authorization;
        return value === undefined || !AUTHORIZATION_PATTERN.test(value)
          ? answeredInstead(reply, errors().reply('invalid_headers', "'String does not match pattern ^Bearer .+$' on header authorization"))
          : reply;
      });
    },
  },
]);
