// State and errors: a redelivery service that puts the request on a TIBCO EMS queue and answers
// 202 before anything reads the event, its consumer finding the event missing or in the wrong state
// later. It changes what an unknown event and a delivered one are answered; an unknown stream (read
// before the message is sent) is answered as before.
import { observed } from '../../../../specs/index.ts';
import { cards } from '../../../../specs/cards/index.ts';
import { editReplies, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const STREAM_NOT_FOUND = observed.errors.stream_not_found!.message!;
const ACCEPTED = cards.redeliver.success.status;

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho32-redeliver-tibco-ems-fire-and-forget',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: "A TIBCO BusinessWorks process that checks the stream in its database, sends the redelivery to an EMS queue with Send Message and answers 202 at once, the event being read by the queue's consumer, which logs and drops an event it cannot find or redeliver: an unknown event of an existing stream is answered 202 instead of 404, and a delivered or pending event 202 instead of 409; an unknown stream is still 404.",
    install: (app) =>
      editReplies(app, ['redeliver'], (reply) => {
        const eventRefused =
          (reply.status === 404 && isErrorBody(reply.body) && reply.body.message !== STREAM_NOT_FOUND) || reply.status === 409;
        return eventRefused
          ? answeredInstead(reply, { status: ACCEPTED, headers: { 'content-type': observed.content_type }, body: {} })
          : reply;
      }),
  },
]);
