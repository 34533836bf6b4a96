// State, and how the interface refuses: a per-stream lock that a refused redelivery never
// releases (no finally); and the observed rules: a global exception filter that adds timestamp and
// path to every error body, and a path error's code built from the parameter's location. Each
// changes one answer; the others are as before.
import { capture } from '../../support/captured.ts';
import { MANAGEMENT_ROUTES, editReplies, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho12-stream-lock-kept-after-refusal',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: 'Redeliveries of a stream serialised by a per-stream lock taken before the state check and released after the delivery is queued, not in a finally: a redelivery refused 409 (an event already delivered) leaves its stream locked, and the next redelivery of a failed event of that stream is refused 409 instead of 202; a failed event of another stream is still redelivered.',
    install: (app) => {
      const errors = capture(app, 'errors');
      const locked = new Set<string>();
      editReplies(app, ['redeliver'], (reply, exchange) => {
        const stream = exchange.params.id;
        if (stream === undefined) return reply;
        if (reply.status === 409) locked.add(stream);
        return reply.status === 202 && locked.has(stream) ? answeredInstead(reply, errors().reply('event_not_redeliverable')) : reply;
      });
    },
  },
  {
    id: 'ho12-error-filter-timestamp-path',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'Error bodies written by a global exception filter copied from the web framework\'s documentation, which adds the time and the request\'s path to what the exception carries: every error answer of the interface has "timestamp" and "path" members beside statusCode, error, message and errorCode; statuses and messages are as before.',
    install: (app) => {
      const clock = capture(app, 'clock');
      editReplies(app, MANAGEMENT_ROUTES, (reply, exchange) =>
        isErrorBody(reply.body)
          ? { ...reply, body: { ...reply.body, timestamp: new Date(clock().now()).toISOString(), path: exchange.path } }
          : reply,
      );
    },
  },
  {
    id: 'ho12-path-error-code-from-location',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'A validation error\'s code built from the location of the parameter that failed, `invalid_${parameter.in}`, where the service says invalid_uri for the path: a malformed path id is answered 400 with errorCode "invalid_path" instead of "invalid_uri"; the message "Path validation error: ..." and a body error\'s invalid_body are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 400 && isErrorBody(reply.body) && reply.body.errorCode === 'invalid_uri'
          ? { ...reply, body: { ...reply.body, errorCode: 'invalid_path' } }
          : reply,
      ),
  },
]);
