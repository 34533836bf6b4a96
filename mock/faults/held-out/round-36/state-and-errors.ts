// State and errors: the observed rules: a gin (Go) engine left with HandleMethodNotAllowed false,
// a Rails model validating the connection name's uniqueness with case_sensitive: false, and a
// Django REST framework exception handler that fills errorCode from the exception's default_code.
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

/** The default_code of Django REST framework's exception class for each status. */
const DRF_DEFAULT_CODES: Readonly<Record<number, string>> = {
  401: 'authentication_failed',
  403: 'permission_denied',
  404: 'not_found',
  405: 'method_not_allowed',
  429: 'throttled',
};

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho36-method-gin-no-method-as-no-route',
    clause: 'routes.method',
    level: 'observed',
    bug: "A gin (Go) engine left with HandleMethodNotAllowed false, its default, so a path that exists under another method falls to the NoRoute handler (the service's JSON 404): GET on the redelivery path is answered 404 Not Found, without Allow, instead of 405; an unknown path is answered 404 as before.",
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['method-not-allowed'], (reply) =>
        reply.status === 405 ? answeredInstead(reply, errors().reply('route_not_found')) : reply,
      );
    },
  },
  {
    id: 'ho36-409-rails-uniqueness-case-insensitive',
    clause: 'sso-ticket.errors.409.name-taken',
    level: 'observed',
    bug: "A Rails model that validates the new connection's name with validates :name, uniqueness: { case_sensitive: false }, which compares LOWER(name) = LOWER(?): connection_config.name written as a taken name in capitals is refused 409 instead of creating the ticket (the service's names differ by case); the taken name as written is still refused 409 and an untaken one creates a ticket.",
    install: (app) =>
      app.override(
        'store',
        (store) =>
          new Proxy(store, {
            get(target, property, receiver) {
              if (property === 'connectionNameTaken')
                return (name: string) => target.connectionNameTaken(name) || target.connectionNameTaken(name.toLowerCase());
              const value: unknown = Reflect.get(target, property, receiver);
              return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
            },
          }),
      ),
  },
  {
    id: 'ho36-error-drf-default-code',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'A Django REST framework service whose EXCEPTION_HANDLER writes errorCode from the exception\'s own code where the service gave none (exc.get_codes(), the class\'s default_code): a 404 carries errorCode "not_found" (likewise 401 "Client is not global" "authentication_failed" and 405 "method_not_allowed") where the service writes none; errors that have an errorCode keep it.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const code = DRF_DEFAULT_CODES[reply.status];
        return code !== undefined && isErrorBody(reply.body) && reply.body.errorCode === undefined
          ? { ...reply, body: { ...reply.body, errorCode: code } }
          : reply;
      }),
  },
]);
