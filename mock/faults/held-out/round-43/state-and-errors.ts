// State and errors, each an answer that is right for the common form of a request and wrong for
// another, legal one: a NestJS ticket service whose create-a-connection branch never loads the
// profile; a Spring Boot service whose 403 becomes a ProblemDetail for an Accept header that names
// application/problem+json first, and whose 401 becomes the Whitelabel page for one that prefers
// HTML. Other answers are as before.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Store } from '../../../store.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { isObject, qualityOf, ticketFields } from './support.ts';

const FORBIDDEN = 403;
const UNAUTHORIZED = 401;
const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';
const HTML_TYPE = 'text/html';
const WHITELABEL =
  '<html><body><h1>Whitelabel Error Page</h1><p>This application has no explicit mapping for /error, so you are seeing this as a fallback.</p>' +
  '<div>There was an unexpected error (type=Unauthorized, status=401).</div></body></html>';

/** The store, whose profile lookup answers a stand-in for any id while `standIn` holds true. */
function storeStandingIn(store: Store, standIn: AsyncLocalStorage<boolean>): Store {
  return new Proxy(store, {
    get(target, name) {
      if (name === 'profile') return (id: string) => target.profile(id) ?? (standIn.getStore() === true ? { id } : undefined);
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho43-nest-create-connection-branch-skips-profile',
    clause: 'sso-ticket.profile.exists',
    level: 'observed',
    bug: 'A NestJS (TypeORM) ticket service whose createTicket(profileId, dto) loads the profile with findOneByOrFail only in its edit branch, while the branch for a body with connection_config creates the connection and saves the ticket with profileId as a bare foreign key (the column has no constraint, the table having been split off): a ticket request for a profile that does not exist, whose body carries connection_config, creates a ticket (201) instead of 404; the same unknown profile with an empty body, or with connection_id, is still answered 404.',
    install: (app) => {
      const standIn = new AsyncLocalStorage<boolean>();
      app.override('store', (store) => storeStandingIn(store, standIn));
      app.wrapRoute(
        'sso-ticket',
        (next) => (exchange) => standIn.run(isObject(ticketFields(exchange)?.connection_config), () => next(exchange)),
      );
    },
  },
  {
    id: 'ho43-spring-problem-detail-for-accept',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: `A Spring Boot 3 service with two handlers for AccessDeniedException, the team's @ExceptionHandler(produces = "${JSON_TYPE}") writing the error object and the ResponseEntityExceptionHandler of spring.mvc.problemdetails.enabled producing ${PROBLEM_TYPE}, between which Spring chooses by the Accept header: a token without the scope, sent with "Accept: ${PROBLEM_TYPE}, ${JSON_TYPE};q=0.9" (as clients built on RFC 9457 send), is answered 403 with {type, title, status, detail, instance} typed ${PROBLEM_TYPE} instead of the error object with insufficient_scope; the same 403 asked with Accept ${JSON_TYPE}, or none, is as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply, exchange) => {
        const accept = exchange.headers.accept;
        if (reply.status !== FORBIDDEN || !isErrorBody(reply.body) || reply.body.errorCode !== 'insufficient_scope') return reply;
        const problem = qualityOf(accept, PROBLEM_TYPE);
        if (accept === undefined || problem === 0 || problem < qualityOf(accept, JSON_TYPE)) return reply;
        const body = { type: 'about:blank', title: 'Forbidden', status: FORBIDDEN, detail: reply.body.message, instance: exchange.path };
        return { ...reply, headers: { ...reply.headers, 'content-type': PROBLEM_TYPE }, body };
      }),
  },
  {
    id: 'ho43-spring-whitelabel-401-for-html-accept',
    clause: 'errors.body.content-type',
    level: 'observed',
    bug: `A Spring Boot service whose JWT filter answers a failed authentication with response.sendError(401), which the container forwards to /error, where Boot's BasicErrorController has an errorHtml handler (produces ${HTML_TYPE}) beside its JSON one: a request with an invalid token and an Accept that prefers HTML ("${HTML_TYPE},${JSON_TYPE};q=0.9", as a browser-based console sends) is answered 401 with the Whitelabel Error Page typed ${HTML_TYPE};charset=UTF-8 instead of the JSON error; the same 401 asked with Accept ${JSON_TYPE}, or none, is as before, and so is a 403.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply, exchange) => {
        const accept = exchange.headers.accept;
        if (reply.status !== UNAUTHORIZED || accept === undefined || qualityOf(accept, HTML_TYPE) <= qualityOf(accept, JSON_TYPE))
          return reply;
        return { ...reply, headers: { ...reply.headers, 'content-type': `${HTML_TYPE};charset=UTF-8` }, body: WHITELABEL };
      }),
  },
]);
