// State and errors: the observed rules: a message table whose not-global row was copied from the
// invalid-token row above it, and a reason-phrase table whose 403 row was copied from the 401 row.
// Other answers are as before.
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const NOT_GLOBAL_MESSAGE = 'Client is not global';

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho38-not-global-message-row-copied',
    clause: 'errors.401.message',
    level: 'observed',
    bug: `A Python service whose 401 answers come from a dict of causes to messages, the not_global entry pasted from the invalid_token entry above it and its key changed but not its value: a client that is not global is refused 401 "Invalid token" instead of "${NOT_GLOBAL_MESSAGE}"; an expired token or a bad signature is still named as before.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 401 && isErrorBody(reply.body) && reply.body.message === NOT_GLOBAL_MESSAGE
          ? answeredInstead(reply, errors().reply('invalid_token'))
          : reply,
      );
    },
  },
  {
    id: 'ho38-403-reason-phrase-row-copied',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'A Rust (axum) service whose error bodies take "error" from its own table of reason phrases (a match on the status written out by hand), where the 403 arm was pasted from the 401 arm above it: every 403 body says "error": "Unauthorized" instead of "Forbidden"; its statusCode is 403, and the bodies of other statuses are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 403 && isErrorBody(reply.body) ? { ...reply, body: { ...reply.body, error: 'Unauthorized' } } : reply,
      ),
  },
]);
