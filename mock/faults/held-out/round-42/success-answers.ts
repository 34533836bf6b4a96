// Success answers across requests: an Express service that keeps the custom domain in a module
// variable its middleware sets only when the header is there. A first ticket is as before.
import { heldOutFamily } from '../held-out-fault.ts';

const HEADER = 'tenant-custom-domain';
const CREATED = 201;

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho42-express-custom-domain-module-variable',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: `An Express service whose custom-domain middleware does if (req.get("${HEADER}")) currentDomain = ... into a module-level variable (meant for res.locals) that the ticket builder reads, with no else branch: after a ticket for a custom domain, a ticket requested without the header is on that custom domain instead of the tenant's host; before any, it is on the tenant's host, and a request naming a domain gets its own.`,
    install: (app) => {
      let current: string | undefined;
      app.wrapRoute('sso-ticket', (next) => async (exchange) => {
        const sent = exchange.headers[HEADER];
        const reply = await next(exchange);
        if (reply.status !== CREATED) return reply;
        const body = reply.body as { ticket: string };
        const url = new URL(body.ticket);
        if (typeof sent === 'string') {
          current = url.host;
          return reply;
        }
        if (current === undefined) return reply;
        url.host = current;
        return { ...reply, body: { ...body, ticket: url.toString() } };
      });
    },
  },
]);
