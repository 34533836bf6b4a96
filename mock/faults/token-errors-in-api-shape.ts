// The token endpoint's errors written by the management interface's error serializer:
// {statusCode, error, message} instead of the OAuth shape {error, error_description}.
import { reasonPhrase } from '../errors.ts';
import type { Fault } from './fault.ts';
import { editReplies } from './support/route-edits.ts';

const ERROR_FROM = 400;

export const tokenErrorsInApiShape: Fault = {
  id: 'token-errors-in-api-shape',
  clause: 'token.observed.errors',
  description: 'Token endpoint errors have the shape {statusCode, error: <reason phrase>, message} instead of {error, error_description}.',
  install(app) {
    editReplies(app, ['token'], (reply) => {
      if (reply.status < ERROR_FROM) return reply;
      const { error_description: message } = reply.body as { error_description?: string };
      return { ...reply, body: { statusCode: reply.status, error: reasonPhrase(reply.status), message } };
    });
  },
};
