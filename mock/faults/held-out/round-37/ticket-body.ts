// The ticket body: a Kotlin service that turns ttl_sec into a java.time.Duration with ofMillis; a
// Rust service that checks the custom domain's length as a u8; and the observed rule: a Node
// validator whose connection name pattern carries the i and u flags together. Other values are
// judged as before.
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const TTL_SEC_MAX = 432_000;
const CUSTOM_DOMAIN_HEADER = 'tenant-custom-domain';
const CUSTOM_DOMAIN_MIN = 3;
const CUSTOM_DOMAIN_MAX = 255;
/** The name's pattern as the spec's API description has it (ASCII letters and digits). */
const NAME_ASCII = /^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/;
/** The same rule written in lower case with i and u: Unicode simple case folding takes ſ for s and K (Kelvin) for k. */
const NAME_IU = /^[a-z0-9]+(?:-[a-z0-9]+)*$/iu;

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho37-ttl-sec-kotlin-duration-of-millis',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `A Kotlin (Spring) service that binds ttl_sec with Duration.ofMillis(ttlSec), the factory its other timeouts use, and checks the range as require(ttl <= Duration.ofDays(5)) on the Duration: ttl_sec ${TTL_SEC_MAX + 1} (432 seconds read as milliseconds) creates a ticket instead of 400; ttl_sec ${TTL_SEC_MAX + 1}000, five days and a second even in milliseconds, and -1 are still refused.`,
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || typeof body.ttl_sec !== 'number' || !Number.isInteger(body.ttl_sec)) return body;
        const ttl = body.ttl_sec;
        if (ttl <= TTL_SEC_MAX || Math.floor(ttl / 1000) > TTL_SEC_MAX) return body;
        return { ...body, ttl_sec: Math.floor(ttl / 1000) };
      }),
  },
  {
    id: 'ho37-custom-domain-rust-length-as-u8',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: `A Rust (actix-web) handler that checks the ${CUSTOM_DOMAIN_HEADER} header with let n = value.len() as u8; if n < ${CUSTOM_DOMAIN_MIN} || n > ${CUSTOM_DOMAIN_MAX} (a u8 because a DNS name fits in one), and "as" truncates: a host name of 259 characters (259 mod 256 = 3) creates a ticket on that host instead of 400; one of 256 characters (0 once truncated) is still refused, and one of ${CUSTOM_DOMAIN_MAX} still accepted.`,
    install: (app) => {
      app.wrapRoute('sso-ticket', (next) => async (exchange) => {
        const value = exchange.headers[CUSTOM_DOMAIN_HEADER];
        if (typeof value !== 'string' || value.length <= CUSTOM_DOMAIN_MAX || value.length % 256 < CUSTOM_DOMAIN_MIN) return next(exchange);
        const standIn = value.slice(0, value.length % 256).replace(/[.-]+$/, 'a');
        const reply = await next({ ...exchange, headers: { ...exchange.headers, [CUSTOM_DOMAIN_HEADER]: standIn } });
        if (!isObject(reply.body) || typeof reply.body.ticket !== 'string') return reply;
        const url = new URL(reply.body.ticket);
        return url.host === standIn ? { ...reply, body: { ...reply.body, ticket: reply.body.ticket.replace(standIn, value) } } : reply;
      });
    },
  },
  {
    id: 'ho37-connection-name-regex-iu-case-folding',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'A Node validator that checks connection_config.name with /^[a-z0-9]+(?:-[a-z0-9]+)*$/iu, written in lower case with i, the u added for eslint\'s require-unicode-regexp, and with both flags JavaScript matches by Unicode simple case folding, under which "ſ" (U+017F) is "s" and the Kelvin sign (U+212A) is "k": a name "ſso-connection" creates a ticket instead of 400; "ß-connection" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.connection_config)) return body;
        const name = body.connection_config.name;
        if (typeof name !== 'string' || NAME_ASCII.test(name) || !NAME_IU.test(name)) return body;
        const folded = name.replace(/\u017f/g, 's').replace(/\u212a/g, 'k');
        return { ...body, connection_config: { ...body.connection_config, name: folded } };
      }),
  },
]);
