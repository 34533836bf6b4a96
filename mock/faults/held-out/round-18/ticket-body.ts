// The ticket body: ttl_sec truncated to 32 bits before its range is checked, its maximum taken as
// exclusive, enabled_clients flattened one level, an integer written in exponent notation refused
// by a text-based integer parse, -0 refused as negative; and the observed rule:
// connection_config.metadata counted one short. Each changes the answer to its near miss; the
// plainly wrong (or plainly right) value is answered as before.
import type { Exchange } from '../../../exchange.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { editJsonBody, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const TTL_MAX = 432000;

/** The number literal of ttl_sec as written in a JSON ticket body, if it is one. */
const ttlLiteral = (exchange: Exchange): string | undefined =>
  isJsonMediaType(exchange.headers['content-type'])
    ? /"ttl_sec"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*[,}]/.exec(exchange.body.toString('utf8'))?.[1]
    : undefined;
/** The body with ttl_sec as text, which the validator refuses as the faulty parser would. */
const ttlRefused = (exchange: Exchange): Exchange => {
  try {
    const value: unknown = JSON.parse(exchange.body.toString('utf8'));
    return isObject(value)
      ? { ...exchange, body: Buffer.from(JSON.stringify({ ...value, ttl_sec: String(value.ttl_sec) }), 'utf8') }
      : exchange;
  } catch {
    return exchange;
  }
};

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho18-ttl-sec-int32-wrapped',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: 'ttl_sec read into a 32-bit int (value | 0, a Java int field) before its range is checked: 4294970896 (2^32 + 3600) wraps to 3600 and the ticket is created instead of 400; 432001 is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || typeof body.ttl_sec !== 'number' || !Number.isInteger(body.ttl_sec)) return body;
        const wrapped = body.ttl_sec | 0;
        return wrapped !== body.ttl_sec && wrapped >= 0 && wrapped <= TTL_MAX ? { ...body, ttl_sec: wrapped } : body;
      }),
  },
  {
    id: 'ho18-ttl-sec-maximum-exclusive',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: 'The schema written with exclusiveMaximum: 432000 where maximum was meant: ttl_sec 432000 (five days, the largest allowed) is refused 400 instead of creating the ticket; 431999 is accepted as before.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => (isObject(body) && body.ttl_sec === TTL_MAX ? { ...body, ttl_sec: TTL_MAX + 1 } : body)),
  },
  {
    id: 'ho18-enabled-clients-flattened',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'enabled_clients passed through Array.prototype.flat() (to merge lists built by a form helper) before the item types are checked: [["<id>"]] is taken as ["<id>"] and the ticket created instead of 400; [[["<id>"]]] is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && Array.isArray(body.enabled_clients) && body.enabled_clients.some(Array.isArray)
          ? { ...body, enabled_clients: body.enabled_clients.flat() }
          : body,
      ),
  },
  {
    id: 'ho18-ttl-sec-exponent-refused',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'ttl_sec read as a json.Number and converted with Int64() (strconv.ParseInt on its text): 3.6e3 and 3600.0, integers written in exponent or decimal notation, are refused 400 instead of creating the ticket; 3600 is accepted and 3600.5 refused as before.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const literal = ttlLiteral(exchange);
        return literal !== undefined && !/^-?\d+$/.test(literal) && Number.isInteger(Number(literal)) ? ttlRefused(exchange) : exchange;
      }),
  },
  {
    id: 'ho18-ttl-sec-negative-zero-refused',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: 'A negative ttl_sec detected on the number\'s text (String(raw).startsWith("-"), or Object.is(value, -0)): -0, which is 0 and in range, is refused 400 instead of creating the ticket with the default lifetime; 0 is accepted and -1 refused as before.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const literal = ttlLiteral(exchange);
        return literal !== undefined && literal.startsWith('-') && Number(literal) === 0 ? ttlRefused(exchange) : exchange;
      }),
  },
  {
    id: 'ho18-metadata-eleventh-key-uncounted',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config.metadata counted with a loop that starts at index 1 (Object.keys(metadata).slice(1), the first key taken for a header row): eleven keys pass instead of 400; twelve are still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.connection_config) || !isObject(body.connection_config.metadata)) return body;
        const entries = Object.entries(body.connection_config.metadata);
        if (entries.length !== 11) return body;
        return { ...body, connection_config: { ...body.connection_config, metadata: Object.fromEntries(entries.slice(1)) } };
      }),
  },
]);
