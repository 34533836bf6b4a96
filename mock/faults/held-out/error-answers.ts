// Error answers and which refusal wins: a statusCode written as text, a 403 that names a scope
// made from the method, validation messages that lose their prefix or name the wrong parameter,
// and two orderings where a check runs before the one the service runs first. Each changes one
// kind of answer; the others keep theirs.
import { observed } from '../../../specs/index.ts';
import { Refusal } from '../../refusal.ts';
import { readRequestBody } from '../../stages/request-body.ts';
import { validateBody, validatePath } from '../../stages/validate.ts';
import { captureAll } from '../support/captured.ts';
import { editErrors } from '../support/error-edits.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES } from '../support/route-edits.ts';
import { heldOutFamily } from './held-out-fault.ts';
import { VAULT_RECORDS } from '../support/store-view.ts';
import { answeredInstead } from './support/answers.ts';

const REDELIVER_SCOPE = observed.operations.redeliver.scope.value;
/** The action an HTTP method maps to in a REST-minded permission message (POST creates). */
const POST_ACTION = 'create';
const BAD_REQUEST = 400;

function withMessage(body: unknown, edit: (message: string) => string): unknown {
  if (!isErrorBody(body) || typeof body.message !== 'string') return body;
  const message = edit(body.message);
  return { ...body, message, ...(body.attributes ? { attributes: { error: message } } : {}) };
}

export const errorAnswerFaults = heldOutFamily([
  {
    id: 'ho-400-status-code-as-string',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'Validation errors thrown with the status as text ("400") and serialized as thrown: 400 answers carry statusCode "400", a string, instead of the number (other errors are unchanged).',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === BAD_REQUEST && isErrorBody(reply.body)
          ? { ...reply, body: { ...reply.body, statusCode: String(reply.body.statusCode) } }
          : reply,
      ),
  },
  {
    id: 'ho-403-scope-named-from-method',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: `The 403 message built from the HTTP method and the resource rather than from the scope the check used: redelivery's 403 says "expected any of: ${POST_ACTION}:event_deliveries" (a scope the catalogue does not have) instead of ${REDELIVER_SCOPE}.`,
    install: (app) =>
      editErrors(app, ['insufficient_scope'], (reply) => ({
        ...reply,
        body: withMessage(reply.body, (message) => message.replace(REDELIVER_SCOPE, `${POST_ACTION}:${REDELIVER_SCOPE.split(':')[1]}`)),
      })),
  },
  {
    id: 'ho-event-id-error-names-id',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'A copy-pasted path check for the event id that names the stream\'s parameter: a malformed event_id is answered 400 invalid_uri "... on property id" instead of naming event_id.',
    install: (app) =>
      editErrors(app, ['invalid_uri'], (reply) => ({
        ...reply,
        body: withMessage(reply.body, (message) => message.replace(/ on property event_id$/, ' on property id')),
      })),
  },
  {
    id: 'ho-body-errors-without-prefix',
    clause: 'errors.400.body',
    level: 'observed',
    bug: `The validator's own message passed through: an invalid ticket body is answered 400 invalid_body with the bare problem ("'Value 432001 is greater than maximum 432000' on property ttl_sec") instead of "Payload validation error: ...".`,
    install: (app) =>
      editErrors(app, ['invalid_body'], (reply) => ({
        ...reply,
        body: withMessage(reply.body, (message) => message.replace(/^Payload validation error: /, '')),
      })),
  },
  {
    id: 'ho-ticket-body-checked-before-token',
    clause: 'auth.order',
    level: 'observed',
    bug: 'Ticket creation with a body-validation middleware mounted before authentication: a request with an invalid body and no valid token is answered 400 invalid_body (or the malformed-JSON 400) instead of 401.',
    install(app) {
      const components = captureAll(app);
      editReplies(app, ['sso-ticket'], (reply, exchange) => {
        if (reply.status !== 401) return reply;
        try {
          validateBody(components(), 'sso-ticket', readRequestBody(components(), exchange));
        } catch (error) {
          if (!(error instanceof Refusal)) throw error;
          return error.reply.status === BAD_REQUEST ? answeredInstead(reply, error.reply) : reply;
        }
        return reply;
      });
    },
  },
  {
    id: 'ho-vault-lookup-before-scope',
    clause: 'auth.order',
    level: 'observed',
    bug: 'The vault read loads the connection before it checks the scope (resource-based authorization): a token without the scope is answered 404 for an unknown id, instead of 403, so it learns which ids exist.',
    install(app) {
      const components = captureAll(app);
      editReplies(app, ['vault'], (reply, exchange) => {
        if (reply.status !== 403) return reply;
        let id: string | undefined;
        try {
          id = validatePath(components(), 'vault', exchange.params).id;
        } catch {
          return reply;
        }
        return id !== undefined && !components().store.record(VAULT_RECORDS, id)
          ? answeredInstead(reply, components().errors.reply('vault_connection_not_found'))
          : reply;
      });
    },
  },
]);
