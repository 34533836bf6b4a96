// The ticket request across requests: a NestJS validation pipe memoised by the body's text, the
// custom-domain header left out of the key; an Express handler that merges each validated body
// into a module-level defaults object. A body never seen before is judged as before.
import { heldOutFamily } from '../held-out-fault.ts';

const HEADER = 'tenant-custom-domain';
const CREATED = 201;
const CONFLICT = 409;
/** A custom domain the header check passes, standing in for the one the memo let through. */
const STAND_IN = 'stand-in.example';

const lengthOutOfRange = (value: string) => value.length < 3 || value.length > 255;

/** The JSON object a ticket body holds; else undefined. */
function objectOf(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho42-nestjs-validation-memo-keyed-by-body',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: `A NestJS ticket route whose ValidationPipe is wrapped in an lru-cache keyed by the raw body (JSON.stringify of the payload), while the DTO it validates also carries the ${HEADER} header through a custom param decorator, so a hit skips the header's @Length(3, 255) too: once a body has been validated, the same body with a ${HEADER} of 2 (or 256) characters creates a ticket (201) instead of 400; with a body never validated before, the same header is still refused 400.`,
    install: (app) => {
      const validated = new Set<string>();
      app.wrapRoute('sso-ticket', (next) => async (exchange) => {
        const text = exchange.body.toString('utf8');
        const sent = exchange.headers[HEADER];
        const slipped = typeof sent === 'string' && lengthOutOfRange(sent) && validated.has(text);
        const reply = await next(slipped ? { ...exchange, headers: { ...exchange.headers, [HEADER]: STAND_IN } } : exchange);
        if (reply.status === CREATED) validated.add(text);
        if (!slipped || reply.status !== CREATED) return reply;
        const body = reply.body as { ticket: string };
        return { ...reply, body: { ...body, ticket: body.ticket.replace(`//${STAND_IN}/`, `//${sent.toLowerCase()}/`) } };
      });
    },
  },
  {
    id: 'ho42-express-defaults-object-assign-target',
    clause: 'sso-ticket.body.optional',
    level: 'contract',
    bug: 'An Express ticket handler that completes the validated body with Object.assign(TICKET_DEFAULTS, body) (the module-level defaults object as the target, not a copy) before the connection-name check: a connection_config sent once stays in the defaults, so after a request naming an existing connection is refused 409, a request with an empty body {} is refused 409 too instead of creating a ticket (201); before such a request {} creates a ticket, and a body that names its own new connection still does.',
    install: (app) => {
      let kept: unknown;
      app.wrapRoute('sso-ticket', (next) => async (exchange) => {
        const body = objectOf(exchange.body.toString('utf8'));
        const merged = body && kept !== undefined && body.connection_config === undefined ? { ...body, connection_config: kept } : body;
        const reply = await next(
          merged === body || !merged ? exchange : { ...exchange, body: Buffer.from(JSON.stringify(merged), 'utf8') },
        );
        if (body?.connection_config !== undefined && (reply.status === CREATED || reply.status === CONFLICT)) kept = body.connection_config;
        return reply;
      });
    },
  },
]);
