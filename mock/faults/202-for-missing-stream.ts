// A server that queues a redelivery and answers at once, leaving the check that the stream exists
// to the worker that picks the job up later: an unknown stream is accepted.
import { errorFact, observed } from '../../specs/index.ts';
import { jsonReply } from '../exchange.ts';
import type { Fault } from './fault.ts';
import { editReplies, isErrorBody, replacing } from './support/route-edits.ts';

const STREAM_NOT_FOUND = errorFact('stream_not_found');
const SUCCESS = observed.operations.redeliver.success;

export const accepted202ForMissingStream: Fault = {
  id: '202-for-missing-stream',
  clause: 'redeliver.errors.404.stream',
  description: 'Redelivery queues the request without checking that the stream exists, so an unknown stream answers 202 instead of 404.',
  install(app) {
    editReplies(app, ['redeliver'], (reply) => {
      const missingStream = reply.status === STREAM_NOT_FOUND.status && isErrorBody(reply.body) && reply.body.message === STREAM_NOT_FOUND.message;
      return missingStream ? replacing(reply, jsonReply(SUCCESS.status, SUCCESS.body)) : reply;
    });
  },
};
