// A server that validates path parameters before it authenticates: a request without a valid token
// but with a malformed id is answered 400, telling an anonymous caller about the id's form.
import type { OperationKey } from '../../specs/index.ts';
import { Refusal } from '../refusal.ts';
import { validatePath } from '../stages/validate.ts';
import type { Fault } from './fault.ts';
import { captureAll } from './support/captured.ts';
import { editReplies, replacing } from './support/route-edits.ts';

const UNAUTHORIZED = 401;
const OPERATIONS: readonly OperationKey[] = ['redeliver', 'sso-ticket', 'vault'];

export const validatesPathBeforeAuthenticating: Fault = {
  id: 'validates-path-before-authenticating',
  clause: 'auth.order',
  description: 'A request with a malformed path id is answered 400 invalid_uri even without a valid token, where authentication (401) comes first.',
  install(app) {
    const components = captureAll(app);
    for (const key of OPERATIONS) {
      editReplies(app, [key], (reply, exchange) => {
        if (reply.status !== UNAUTHORIZED) return reply;
        try {
          validatePath(components(), key, exchange.params);
          return reply;
        } catch (error) {
          if (error instanceof Refusal) return replacing(reply, error.reply);
          throw error;
        }
      });
    }
  },
};
