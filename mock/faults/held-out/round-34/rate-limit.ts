// The limiter's headers: a Crow (C++) middleware that sets Reset in after_handle, which Crow does
// not run for an answer its before_handle ended; and the observed rule: a Pistache (C++) handler
// that writes as Limit the tokens the bucket held before the request. When requests are refused is
// as before.
import { observed } from '../../../../specs/index.ts';
import { editReplies, MANAGEMENT_ROUTES, withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const { limit: LIMIT, remaining: REMAINING, reset: RESET } = observed.rate_limit.headers;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho34-429-crow-reset-after-handle',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: `A Crow (C++) middleware that writes ${LIMIT} and ${REMAINING} in before_handle and ${RESET} in after_handle, and Crow skips after_handle for an answer before_handle ended with res.end(), as it does for the 429: a 429 carries ${LIMIT} and ${REMAINING} but no ${RESET}; other answers carry all three.`,
    install: (app) => editReplies(app, MANAGEMENT_ROUTES, (reply) => (reply.status === 429 ? withoutHeaders(reply, [RESET]) : reply)),
  },
  {
    id: 'ho34-limit-pistache-tokens-before',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: `A Pistache (C++) handler that writes ${LIMIT} from the bucket's count read before it takes the request's token (the name of the variable was "limit"), so that ${LIMIT} is ${REMAINING} plus one: on a full bucket the first answer's ${LIMIT} is the bucket size, and it falls with every request after; ${REMAINING} and ${RESET} are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const remaining = Number(headerOf(reply, REMAINING));
        const limit = Number(headerOf(reply, LIMIT));
        if (!Number.isInteger(remaining) || !Number.isInteger(limit) || reply.status === 429) return reply;
        return withHeader(reply, LIMIT, String(Math.min(limit, remaining + 1)));
      }),
  },
]);
