// The limiter's headers where a status meets a condition: a 429 writer that drops Reset when the
// wait is long; and the observed rules: an edge worker that rebuilds the custom-domain ticket's
// answer, a per-key policy's Limit for clients that are not global. When requests are refused is as
// before.
import { observed } from '../../../../specs/index.ts';
import { capture, captureAll } from '../../support/captured.ts';
import { editReplies, editSuccessReplies, MANAGEMENT_ROUTES, withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const { limit: LIMIT, remaining: REMAINING, reset: RESET } = observed.rate_limit.headers;
const TOO_MANY = 429;
/** The longest wait the 429 writer reports, in seconds. */
const LONGEST_WAIT = 60;
/** The per-key policy's rate for clients that are not global. */
const KEY_POLICY_RATE = 1000;

export const rateLimitFaults = heldOutFamily([
  {
    id: 'ho40-429-reset-dropped-for-long-wait',
    clause: 'rate-limit.429.headers',
    level: 'contract',
    bug: `A Go middleware on ulule/limiter whose 429 writer sets ${RESET} only if time.Until(ctx.Reset) < time.Minute (the block was written to cap a Retry-After, and the header went inside it): a 429 whose next request is more than ${LONGEST_WAIT} seconds away carries ${LIMIT} and ${REMAINING} but no ${RESET}; a 429 whose wait is shorter carries all three, and successes carry all three whatever the wait.`,
    install: (app) => {
      const clock = capture(app, 'clock');
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        const reset = Number(headerOf(reply, RESET));
        if (reply.status !== TOO_MANY || !Number.isFinite(reset)) return reply;
        return reset - clock().now() / 1000 > LONGEST_WAIT ? withoutHeaders(reply, [RESET]) : reply;
      });
    },
  },
  {
    id: 'ho40-custom-domain-ticket-rebuilt-by-edge-worker',
    clause: 'rate-limit.headers.on-success',
    level: 'observed',
    bug: 'A Cloudflare Worker in front of the ticket route for custom domains that, on a 201, rewrites the ticket URL and returns new Response(JSON.stringify(body), { status: 201, headers: { "content-type": ... } }) rather than copying the origin\'s headers: a ticket created with tenant-custom-domain is answered without the three X-RateLimit headers; a ticket without the header, and a refusal with it (passed through untouched), carry them as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        if (exchange.headers['tenant-custom-domain'] === undefined) return reply;
        const type = headerOf(reply, 'content-type');
        return { ...reply, headers: type === undefined ? {} : { 'content-type': type } };
      }),
  },
  {
    id: 'ho40-limit-from-key-policy-for-non-global',
    clause: 'rate-limit.limit.constant',
    level: 'observed',
    bug: `A Tyk gateway whose non-global clients' keys carry a policy (rate ${KEY_POLICY_RATE} a minute) and whose header injection writes ${LIMIT} from the key's policy while requests are counted in the tenant's bucket: an answer to a non-global client's request says ${LIMIT} ${KEY_POLICY_RATE}, while the answers before and after it to the global client say the bucket size; the global client's answers, and answers to requests without a valid token, are as before.`,
    install: (app) => {
      const components = captureAll(app);
      editReplies(app, MANAGEMENT_ROUTES, async (reply, exchange) => {
        if (headerOf(reply, LIMIT) === undefined) return reply;
        const verification = await components().verifier.verify(exchange.headers.authorization, exchange.headers.host);
        return verification.ok && !verification.principal.client.global ? withHeader(reply, LIMIT, String(KEY_POLICY_RATE)) : reply;
      });
    },
  },
]);
