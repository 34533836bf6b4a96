// How a request reaches an operation: a body parser that refuses an empty body sent as JSON (as
// Fastify's does by default); and the observed rule: the vault read answering through strict
// content negotiation (406 for an Accept header without JSON). Each changes the answer to one near
// miss; requests without it are answered as before.
import { jsonReply } from '../../../exchange.ts';
import { rateLimitHeaders } from '../../../rate-limiter.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { capture } from '../../support/captured.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

/** The media ranges under which a JSON answer is acceptable. */
const ACCEPTS_JSON = new Set(['application/json', 'application/*', '*/*']);
/** Fastify's answer to a JSON content type with no body (FST_ERR_CTP_EMPTY_JSON_BODY). */
const EMPTY_JSON_MESSAGE = "Body cannot be empty when content-type is set to 'application/json'";

/** Whether an Accept header names a range a JSON answer falls under (parameters and weights ignored). */
function acceptsJson(accept: string): boolean {
  return accept.split(',').some((range) => ACCEPTS_JSON.has(range.split(';')[0]!.trim().toLowerCase()));
}

export const requestFaults = heldOutFamily([
  {
    id: 'ho12-redeliver-empty-json-body-refused',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: `Redelivery served by a framework whose JSON parser refuses an empty body under a JSON content type (Fastify's default, FST_ERR_CTP_EMPTY_JSON_BODY), which SDKs send on every POST: a redelivery of a failed event with Content-Type: application/json and no body is refused 400 "${EMPTY_JSON_MESSAGE}" instead of 202; the same request without a Content-Type is answered 202.`,
    install: (app) => {
      const limiter = capture(app, 'limiter');
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type']) || exchange.body.length > 0) return next(exchange);
        const quota = limiter().take();
        // An empty bucket: the limiter, in front of the parser, refuses the request itself.
        if (!quota.allowed) return next(exchange);
        return jsonReply(
          400,
          { statusCode: 400, error: 'Bad Request', message: EMPTY_JSON_MESSAGE, code: 'FST_ERR_CTP_EMPTY_JSON_BODY' },
          rateLimitHeaders(quota),
        );
      });
    },
  },
  {
    id: 'ho12-vault-accept-negotiated-406',
    clause: 'vault.success.status',
    level: 'observed',
    bug: "The vault read answered through the framework's content negotiation with no default (res.format({ json })), which answers 406 when the Accept header names no range JSON falls under: a read with Accept: text/html (a browser's, or a client's default) is answered 406 instead of 200; Accept: application/json, */* or none is answered 200.",
    install: (app) =>
      editReplies(app, ['vault'], (reply, exchange) => {
        const accept = exchange.headers.accept;
        if (reply.status !== 200 || accept === undefined || acceptsJson(accept)) return reply;
        return answeredInstead(reply, jsonReply(406, { statusCode: 406, error: 'Not Acceptable', message: 'Not Acceptable' }));
      }),
  },
]);
