// State and errors: a Clojure (Pedestal) service whose error interceptor maps the domain's
// ::already-delivered to 410 Gone; and the observed rule: a Strapi (v4) error middleware that
// writes the error's class name where the reason phrase goes, and an Elixir (Ash) service that
// names the scope with inspect/1. Other answers are as before.
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES, withStatus } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const EXPECTED = 'expected any of: ';

/** The names of Strapi's (http-errors based) error classes, by status. */
const STRAPI_ERROR_NAMES: Readonly<Record<number, string>> = {
  400: 'ValidationError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  409: 'ConflictError',
  429: 'RateLimitError',
};

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho34-delivered-pedestal-410-gone',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: 'A Clojure (Pedestal) service whose error interceptor maps the domain errors to statuses with a case, and ::already-delivered was given 410 Gone ("it has gone out already") beside ::not-redeliverable 409: redelivery of a delivered event is answered 410 instead of 409; a pending event is still answered 409.',
    install: (app) => {
      const store = capture(app, 'store');
      editReplies(app, ['redeliver'], (reply, exchange) => {
        if (reply.status !== 409) return reply;
        const event = store().event(exchange.params.id ?? '', exchange.params.event_id ?? '');
        return event?.status === 'delivered' ? withStatus(reply, 410) : reply;
      });
    },
  },
  {
    id: 'ho34-error-strapi-class-name',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'A Strapi (v4) service whose error middleware fills the body\'s error with err.name, the error\'s class, where the reason phrase goes: a 404 is {statusCode: 404, error: "NotFoundError", message: ...} instead of error "Not Found" (likewise 400, 401, 403, 409 and 429); statusCode and message are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const name = STRAPI_ERROR_NAMES[reply.status];
        return name !== undefined && isErrorBody(reply.body) ? { ...reply, body: { ...reply.body, error: name } } : reply;
      }),
  },
  {
    id: 'ho34-403-ash-inspect-list',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: 'An Elixir (Ash) service whose Forbidden error builds its message with "Insufficient scope, expected any of: #{inspect(required)}", and inspect writes the list as Elixir does: the 403 message is \'Insufficient scope, expected any of: ["<scope>"]\' instead of naming the scope bare; status, errorCode and the WWW-Authenticate header are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (reply.status !== 403 || !isErrorBody(reply.body) || typeof reply.body.message !== 'string') return reply;
        const at = reply.body.message.indexOf(EXPECTED);
        if (at < 0) return reply;
        const named = reply.body.message
          .slice(at + EXPECTED.length)
          .split(/,\s*/)
          .filter((s) => s.length > 0);
        const listed = `[${named.map((s) => JSON.stringify(s)).join(', ')}]`;
        return { ...reply, body: { ...reply.body, message: `${reply.body.message.slice(0, at + EXPECTED.length)}${listed}` } };
      }),
  },
]);
