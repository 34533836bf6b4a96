// How a request reaches an operation: the custom-domain header measured without its port, a stream
// id whose trailing newline a regex's $ lets by, an event id measured before it is decoded, a backslash taken for a slash in the path, a
// vault id bounded without its type prefix, and a ticket body read by a lenient JSON parser. Each
// changes the answer to one near miss; requests without it are answered as before.
import { basePath, closedLimit, limit } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { alsoServe } from '../round-4/support/rerouted.ts';
import { checkedAs } from '../round-5/support/checked-as.ts';
import { answeredInstead } from '../support/answers.ts';
import { editHeaderCheck } from '../round-6/support/header-check.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';

const CUSTOM_DOMAIN = 'tenant-custom-domain';
const customDomainLength = closedLimit('sso-ticket.header.custom-domain.length');
const STREAM_ID_LENGTH = limit('redeliver.path.id.length').min!;
const VAULT_ID_MAX = limit('vault.path.id.length').max!;
const VAULT_PREFIX = 'ac_';
const EVENT_ID_LENGTH = limit('redeliver.path.event_id.length').min!;
const PORT = /:\d{1,5}$/;

function decoded(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** JSON as a config-file parser reads it: trailing commas and hexadecimal integers allowed. */
function lenientJson(text: string): unknown {
  const relaxed = text.replace(/,(\s*[}\]])/g, '$1').replace(/\b0x([0-9a-fA-F]+)\b/g, (_, hex: string) => String(parseInt(hex, 16)));
  return JSON.parse(relaxed);
}

export const requestFaults = heldOutFamily([
  {
    id: 'ho7-custom-domain-measured-without-port',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: `${CUSTOM_DOMAIN}'s length checked on the host name a host:port parser returns, the ":port" left out: a value of ${customDomainLength.max + 1} characters ending in ":8443" gets a ticket instead of 400; ${customDomainLength.max + 1} characters without a port are still refused.`,
    install: (app) =>
      editHeaderCheck(app, 'sso-ticket', CUSTOM_DOMAIN, (current) =>
        checkedAs(current, (value) => (typeof value === 'string' && PORT.test(value) ? value.replace(PORT, '') : value)),
      ),
  },
  {
    id: 'ho7-stream-id-trailing-newline',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: `The stream id checked with a pattern whose $ also matches before a final line feed (a multiline flag, or a regex engine where $ does), then trimmed for the lookup: the stream's id followed by %0A (${STREAM_ID_LENGTH + 1} characters decoded) redelivers the failed event, 202, instead of 400; the id followed by "x" is still refused.`,
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const id = decoded(exchange.params.id);
        return id !== undefined && id.length === STREAM_ID_LENGTH + 1 && id.endsWith('\n')
          ? { ...exchange, params: { ...exchange.params, id: encodeURIComponent(id.slice(0, -1)) } }
          : exchange;
      }),
  },
  {
    id: 'ho7-backslash-read-as-slash',
    clause: 'versioning.base-path',
    level: 'contract',
    bug: `The router percent-decodes the request target and then parses it with the WHATWG URL parser, which reads "\\" as "/" in http(s) URLs: ${basePath}/flows/vault%5Cconnections/<id>, a path the interface does not have, is served as the vault read instead of 404; ${basePath}/flows/vault-connections/<id> is still 404.`,
    install: (app) => alsoServe(app, (path) => (path.includes('\\') || /%5c/i.test(path) ? path.replace(/\\|%5c/gi, '/') : undefined)),
  },
  {
    id: 'ho7-event-id-measured-encoded',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: `The event id's length (exactly ${EVENT_ID_LENGTH}) measured on the path segment as sent, before it is percent-decoded: the failed event's id with its first letter written %65, ${EVENT_ID_LENGTH} characters once decoded, is refused 400 instead of redelivered, 202; the id written plainly is still redelivered.`,
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const raw = exchange.params.event_id;
        return raw !== undefined && raw.includes('%') && raw.length !== EVENT_ID_LENGTH
          ? { ...exchange, params: { ...exchange.params, event_id: raw.replace(/%/g, 'x') } }
          : exchange;
      }),
  },
  {
    id: 'ho7-vault-id-bounded-without-prefix',
    clause: 'vault.path.id.length',
    level: 'contract',
    bug: `The vault id's ${VAULT_ID_MAX}-character bound applied to the id after a type-prefix helper has taken "${VAULT_PREFIX}" off: an id of ${VAULT_ID_MAX + 1} to ${VAULT_ID_MAX + VAULT_PREFIX.length} characters starting with "${VAULT_PREFIX}" is looked up and answered 404 instead of refused 400; ${VAULT_ID_MAX + VAULT_PREFIX.length + 1} characters are still refused 400.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['vault'], (reply, exchange) => {
        const id = decoded(exchange.params.id);
        if (reply.status !== 400 || !isErrorBody(reply.body) || id === undefined || !id.startsWith(VAULT_PREFIX)) return reply;
        const rest = id.length - VAULT_PREFIX.length;
        return id.length > VAULT_ID_MAX && rest <= VAULT_ID_MAX && /^[A-Za-z0-9_]+$/.test(id)
          ? answeredInstead(reply, errors().reply('vault_connection_not_found'))
          : reply;
      });
    },
  },
  {
    id: 'ho7-ticket-json-read-leniently',
    clause: 'errors.400.body',
    level: 'observed',
    bug: 'Ticket bodies parsed with a JSON5-style parser (the one the service uses for its configuration files), which allows trailing commas and hexadecimal numbers: {"ttl_sec": 60,} and {"ttl_sec": 0x3C} get a ticket instead of 400; a body cut short ({"ttl_sec": 60) is still refused.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        const text = exchange.body.toString('utf8');
        try {
          JSON.parse(text);
          return exchange;
        } catch {
          try {
            return { ...exchange, body: Buffer.from(JSON.stringify(lenientJson(text)), 'utf8') };
          } catch {
            return exchange;
          }
        }
      }),
  },
]);
