// State and errors: the observed rules: a service on Python's http.server, which answers a method
// it has no do_<METHOD> for itself, and a Go handler that writes its JSON errors with http.Error.
import { capture } from '../../support/captured.ts';
import { editReplies, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

/** The methods the BaseHTTPRequestHandler subclass has a do_<METHOD> for. */
const HANDLED = new Set(['GET', 'HEAD', 'POST']);
const JSON_TYPE = /^application\/json/i;

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho37-method-python-http-server-501',
    clause: 'routes.method',
    level: 'observed',
    bug: "A Python service on http.server's BaseHTTPRequestHandler with do_GET, do_HEAD and do_POST (and send_error overridden to write the service's JSON error body), whose handle_one_request answers a method without a do_<METHOD> with send_error(501, \"Unsupported method ('PUT')\") before any routing: PUT, PATCH or DELETE on an operation's path is answered 501 Not Implemented without Allow instead of 405; GET on the redelivery path, which do_GET answers, is still 405.",
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['method-not-allowed'], (reply, exchange) => {
        if (reply.status !== 405 || HANDLED.has(exchange.method)) return reply;
        const base = errors().reply('internal_error');
        const body = { statusCode: 501, error: 'Not Implemented', message: `Unsupported method ('${exchange.method}')` };
        const headers = Object.fromEntries(Object.entries(reply.headers).filter(([name]) => name.toLowerCase() !== 'allow'));
        return { ...base, status: 501, headers: { ...base.headers, ...headers }, body };
      });
    },
  },
  {
    id: 'ho37-error-go-http-error-text-plain',
    clause: 'errors.body.content-type',
    level: 'observed',
    bug: 'A Go (net/http) service that writes every refusal with http.Error(w, string(jsonBody), status), and http.Error sets Content-Type "text/plain; charset=utf-8" and X-Content-Type-Options: nosniff: every error of the interface (400, 401, 403, 404, 405, 409, 429) carries its JSON body typed text/plain instead of application/json; successful answers, written with the encoder, are typed as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (reply.status < 400 || !JSON_TYPE.test(headerOf(reply, 'content-type') ?? '')) return reply;
        return withHeader(withHeader(reply, 'content-type', 'text/plain; charset=utf-8'), 'x-content-type-options', 'nosniff');
      }),
  },
]);
