// State and errors: a state conflict answered 422 as Rails does; and the observed rules: a taken
// name answered 400 by a validation layer, 401 messages ending in a period from a message catalogue,
// and errors typed application/problem+json. Each changes one status, one header or one message.
import { replaceStatus, editReplies, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho17-state-conflict-422',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: "The state guard raising the framework's unprocessable-entity error (Rails' 422 for a record in the wrong state): a delivered event is refused 422 instead of 409; a failed event is redelivered as before.",
    install: (app) => replaceStatus(app, ['redeliver'], 409, 422),
  },
  {
    id: 'ho17-name-taken-400',
    clause: 'sso-ticket.errors.409.name-taken',
    level: 'observed',
    bug: 'The unique-name check done in the validation layer (a class-validator IsUnique decorator), so a taken connection name is a 400 instead of 409; a new name is as before.',
    install: (app) => replaceStatus(app, ['sso-ticket'], 409, 400),
  },
  {
    id: 'ho17-401-message-period',
    clause: 'errors.401.message',
    level: 'observed',
    bug: 'Messages taken from an i18n catalogue whose entries are sentences: every 401 message ends with "." where the service has none; statusCode and error are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 401 && isErrorBody(reply.body) && typeof reply.body.message === 'string' && !reply.body.message.endsWith('.')
          ? { ...reply, body: { ...reply.body, message: `${reply.body.message}.` } }
          : reply,
      ),
  },
  {
    id: 'ho17-errors-problem-json',
    clause: 'errors.body.content-type',
    level: 'observed',
    bug: "Errors sent with RFC 9457's media type: Content-Type application/problem+json instead of application/json; the body is as before.",
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status >= 400 && isErrorBody(reply.body)
          ? { ...reply, headers: { ...reply.headers, 'content-type': 'application/problem+json; charset=utf-8' } }
          : reply,
      ),
  },
]);
