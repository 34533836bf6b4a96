// State, and how the interface refuses; the observed rules: a taken connection name reaching the
// database's unique index unmapped (500), the body-validation prefix written by two layers, and a
// 429's errorCode taken from another API's brute-force protection. Each changes one answer; the
// others are as before.
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { MANAGEMENT_ROUTES, editReplies, isErrorBody, replacing } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const BODY_PREFIX = observed.errors.invalid_body?.prefix ?? 'Payload validation error: ';
/** The Authentication API's brute-force protection code. */
const OTHER_CODE = 'too_many_attempts';

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho15-taken-name-unique-violation-500',
    clause: 'sso-ticket.errors.409.name-taken',
    level: 'observed',
    bug: "The connection name's uniqueness left to the database's unique index, whose violation (ER_DUP_ENTRY) the error middleware does not map: a ticket for a new connection named like an existing one is answered 500 instead of 409; a new connection with a free name gets its ticket as before.",
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['sso-ticket'], (reply) => (reply.status === 409 ? replacing(reply, errors().reply('internal_error')) : reply));
    },
  },
  {
    id: 'ho15-body-error-prefix-twice',
    clause: 'errors.400.body',
    level: 'observed',
    bug: `The "${BODY_PREFIX}" prefix written by the validation wrapper and again by the error handler that formats every invalid_body: a body refused 400 has the message "${BODY_PREFIX}${BODY_PREFIX}..." instead of one prefix; statusCode, error and errorCode are as before, and path errors are worded as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 400 &&
        isErrorBody(reply.body) &&
        reply.body.errorCode === 'invalid_body' &&
        typeof reply.body.message === 'string' &&
        reply.body.message.startsWith(BODY_PREFIX)
          ? { ...reply, body: { ...reply.body, message: `${BODY_PREFIX}${reply.body.message}` } }
          : reply,
      ),
  },
  {
    id: 'ho15-429-error-code-from-auth-api',
    clause: 'errors.429.body',
    level: 'observed',
    bug: `The 429's errorCode copied from the Authentication API's brute-force protection ("${OTHER_CODE}"), the two limits sharing one error class: every 429 has errorCode "${OTHER_CODE}" instead of "too_many_requests"; statusCode, error and message are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 429 && isErrorBody(reply.body) ? { ...reply, body: { ...reply.body, errorCode: OTHER_CODE } } : reply,
      ),
  },
]);
