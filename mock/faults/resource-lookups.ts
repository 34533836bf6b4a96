// How the operations find the resource a path names (spec 4.1, 4.3, 7, 8), leniently: a collation
// that ignores case, a binder that trims, a path decoded twice, an id cut at a URL delimiter, the
// query merged over the path's ids, events looked up by their id alone, an id read as a "|" list,
// an id's alphabet written one range too wide. Each lets an id that differs
// from an existing one only by case, padding, an escape or a suffix (or one the query overrides, or
// an event of another stream) reach the existing resource.
import { observed, parameter, toJsonSchema, type OperationKey } from '../../specs/index.ts';
import type { FaultHooks } from '../app.ts';
import { faultFamily } from './fault.ts';
import { compileCheck, replaceParameterCheck } from './support/check-edits.ts';
import { javaHashCode, sameIgnoringCase } from './support/near-misses.ts';
import { editRequests } from './support/route-edits.ts';
import { decoded, editPathParameter as editParameter } from './support/parameter-edits.ts';
import { capture } from './support/captured.ts';
import { editStore, recordLookup, VAULT_RECORDS } from './support/store-view.ts';
import { checksOf } from '../validators.ts';

/** A binder that trims the decoded parameter, then hands it on encoded again. */
function trimmed(raw: string): string | undefined {
  const value = decoded(raw);
  return value === undefined ? undefined : encodeURIComponent(value.trim());
}

/**
 * An id checked by a pattern whose $ also matches before a final line feed (Python's re, PCRE
 * without D), then looked up with that line feed taken off: the decoded parameter without it.
 */
function finalLineFeedDropped(raw: string): string | undefined {
  const value = decoded(raw);
  return value === undefined ? undefined : encodeURIComponent(value.replace(/\n$/, ''));
}

/** A front end that decodes IIS's "%uXXXX" form (a code unit in four hex digits) and hands the path on percent-encoded as usual. */
function percentUDecoded(raw: string): string | undefined {
  const form = /%u([0-9A-Fa-f]{4})/g;
  return form.test(raw) ? raw.replace(form, (_, hex: string) => encodeURIComponent(String.fromCharCode(parseInt(hex, 16)))) : undefined;
}

/** Characters a helper for pasted text deletes: zero-width spaces and joiners, the byte order mark. */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/g;

/** A binder that deletes invisible characters from the decoded parameter, then hands it on encoded again. */
function withoutInvisible(raw: string): string | undefined {
  const value = decoded(raw);
  return value === undefined || !INVISIBLE.test(value) ? undefined : encodeURIComponent(value.replace(INVISIBLE, ''));
}

/** A "fix the typo" helper: 0 read as o, l and I as 1 (the look-alikes base58 leaves out). */
function lookAlikesFolded(raw: string): string | undefined {
  const folded = raw.replace(/0/g, 'o').replace(/[lI]/g, '1');
  return folded === raw ? undefined : folded;
}

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Cyrillic letters drawn as Latin ones (UTS #39 confusables), folded to the Latin. */
const CYRILLIC_SKELETON: Readonly<Record<string, string>> = Object.fromEntries(
  [...'acoepxyACBEHKMOPTX'].map((latin, i) => [[...'асоерхуАСВЕНКМОРТХ'][i]!, latin]),
);

/** A lookup of look-alike names: the decoded id with Cyrillic twins read as their Latin letters. */
function confusablesFolded(raw: string): string | undefined {
  const value = decoded(raw);
  const folded = value === undefined ? undefined : [...value].map((c) => CYRILLIC_SKELETON[c] ?? c).join('');
  return folded === undefined || folded === value ? undefined : encodeURIComponent(folded);
}

/** A helper for pasted links: the decoded id cut at the first "?" or "#", as if it were a URL with a query or fragment. */
function cutAtUrlDelimiter(raw: string): string | undefined {
  const value = decoded(raw);
  const at = value === undefined ? -1 : value.search(/[?#]/);
  return at < 0 ? undefined : encodeURIComponent(value!.slice(0, at));
}

/** Whether two ids differ by one swap of neighbouring characters (Damerau's transposition, the commonest typing slip). */
function oneTranspositionApart(sent: string, existing: string): boolean {
  if (sent.length !== existing.length || sent === existing) return false;
  const at = [...sent].findIndex((c, i) => c !== existing[i]);
  return sent[at] === existing[at + 1] && sent[at + 1] === existing[at] && sent.slice(at + 2) === existing.slice(at + 2);
}

/** The vault id's prefix ("ac_") and the same prefix with "-" allowed for its separator, as a legacy import's ids had it. */
const VAULT_PREFIX = observed.identifiers.flows_vault_connection.prefix;
const VAULT_PREFIX_EITHER_SEPARATOR = `${VAULT_PREFIX.slice(0, -1)}[-${VAULT_PREFIX.slice(-1)}]`;

/** The base58 class's upper-case runs (A-H, J-N, P-Z: I and O left out) as a pattern writes them, and the one run they become. */
const BASE58_UPPER_RUNS = 'A-HJ-NP-Z';
const UPPER_RUN_WHOLE = 'A-Z';

/** A binder that reads a "|"-separated parameter as a list (OpenAPI's pipeDelimited) and hands the route its last item. */
function lastOfPipeList(raw: string): string | undefined {
  const value = decoded(raw);
  return value === undefined || !value.includes('|') ? undefined : encodeURIComponent(value.split('|').pop()!);
}

/** Request parameters merged into one bag, the query string's last: a query member named as a path parameter replaces it. */
function queryOverPath(app: FaultHooks, key: OperationKey): void {
  editRequests(app, key, (exchange) => {
    const query = new URLSearchParams(exchange.query);
    const params = Object.fromEntries(
      Object.entries(exchange.params).map(([name, raw]) => {
        const given = query.get(name);
        return [name, given === null ? raw : encodeURIComponent(given)];
      }),
    );
    return { ...exchange, params };
  });
}

/**
 * A gateway that maps request headers onto path parameters (a mapping template written for a client
 * that sent ids as headers): a header named as a path parameter replaces it.
 */
function headerOverPath(app: FaultHooks, key: OperationKey): void {
  editRequests(app, key, (exchange) => {
    const params = Object.fromEntries(
      Object.entries(exchange.params).map(([name, raw]) => {
        const given = exchange.headers[name];
        return [name, typeof given === 'string' ? encodeURIComponent(given) : raw];
      }),
    );
    return { ...exchange, params };
  });
}

/** A validator built from every parameter of the operation, whatever its `in`: a header named as a path parameter is checked as one. */
function pathChecksOnHeaders(app: FaultHooks, key: OperationKey): void {
  app.override('validators', (validators) => {
    const checks = checksOf(validators, key);
    checks.headers.push(...checks.path.map(({ name, validate }) => ({ name, validate })));
    return validators;
  });
}

/** The path id `param` read from the last segment of the URL a proxy passed on in `header`, trusted from any caller. */
function idFromUrlHeader(app: FaultHooks, key: OperationKey, param: string, header: string): void {
  editRequests(app, key, (exchange) => {
    const url = exchange.headers[header];
    const last = typeof url === 'string' ? url.split('?')[0]!.split('/').pop() : undefined;
    return last ? { ...exchange, params: { ...exchange.params, [param]: last } } : exchange;
  });
}

export const resourceLookupFaults = faultFamily([
  {
    id: 'vault-id-decoded-as-query-text',
    clause: 'vault.response.record',
    bug: 'The vault read\'s connection id decoded with the query string\'s decoder, which reads "+" as a space (unquote_plus), and trimmed: the id followed by a "+", sent as it is, reads that connection instead of being refused; the id followed by "x" is still refused.',
    install: (app) => editParameter(app, 'vault', 'id', (raw) => (raw.endsWith('+') ? raw.replace(/\++$/, '') : undefined)),
  },
  {
    id: 'event-id-read-from-x-rewrite-url',
    clause: 'redeliver.errors.404.event',
    bug: "Redelivery behind an IIS rewrite whose X-Rewrite-URL the framework trusts from any caller (Zend's request URI detection): the event id is read from that header's last segment, so an unknown event id in the path with X-Rewrite-URL naming an existing event's path redelivers that event instead of 404; X-Original-URL is not read.",
    install: (app) => idFromUrlHeader(app, 'redeliver', 'event_id', 'x-rewrite-url'),
  },
  {
    id: 'vault-id-read-from-x-forwarded-uri',
    clause: 'vault.response.record',
    bug: "The vault read behind Traefik's forwardAuth, whose handler takes the URL from X-Forwarded-Uri as the proxy sets it and trusts it from any caller: an unknown connection id in the path with X-Forwarded-Uri naming an existing connection's path reads that connection instead of 404; X-Original-URL is not read.",
    install: (app) => idFromUrlHeader(app, 'vault', 'id', 'x-forwarded-uri'),
  },
  {
    id: 'stream-found-by-name',
    clause: 'redeliver.path.id.length',
    bug: 'Streams found by a slug-or-id finder (WHERE id = $1 OR name = $1, for the dashboard\'s links by name) ahead of the id check: a redelivery naming the stream by its name ("orders-webhook") redelivers its failed event instead of 400; a name no stream has is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editParameter(app, 'redeliver', 'id', (raw) => {
        const name = decoded(raw);
        const stream = store()
          .streams()
          .find((candidate) => candidate.name === name);
        return stream === undefined ? undefined : encodeURIComponent(stream.id);
      });
    },
  },
  {
    id: 'ticket-for-any-profile',
    clause: 'sso-ticket.profile.exists',
    bug: 'Tickets created without looking the profile up (it is checked only when the ticket is opened): ticket creation answers 201 for a well-formed profile id that names no profile.',
    install: (app) => editStore(app, (store) => ({ profile: (id: string) => store.profile(id) ?? { id } })),
  },
  {
    id: 'event-id-prefix-checked-ignoring-case',
    clause: 'redeliver.errors.404.event',
    bug: "Redelivery checks the event id's prefix without regard to case (CFML's NEQ) and looks it up in a table with a case-insensitive collation: an existing event's id with its prefix in capitals (EVT_...) is redelivered instead of refused; an id behind another prefix is still 400.",
    install: (app) =>
      editParameter(app, 'redeliver', 'event_id', (raw) => {
        const id = decoded(raw);
        const prefix = id === undefined ? undefined : /^[A-Z]+_/.exec(id)?.[0];
        return prefix && id ? encodeURIComponent(`${prefix.toLowerCase()}${id.slice(prefix.length)}`) : undefined;
      }),
  },
  {
    id: 'vault-record-found-among-inherited-members',
    clause: 'vault.response.record',
    bug: 'Vault connections kept in a plain object and read as records[id] before the id is checked, where a name every object inherits (constructor, toString, hasOwnProperty) finds something: the connection "constructor" is answered with a record instead of being refused; an unknown well-formed id is still 404.',
    install: (app) => {
      const store = capture(app, 'store');
      editParameter(app, 'vault', 'id', (raw) => {
        const id = decoded(raw);
        const found = id !== undefined && id in Object.prototype ? store().records(VAULT_RECORDS)[0] : undefined;
        return found ? encodeURIComponent(found.id) : undefined;
      });
    },
  },
  {
    id: 'vault-ids-case-insensitive',
    clause: 'vault.response.record',
    bug: "Vault connections kept in a table with a case-insensitive collation: an existing id with one letter in the other case is answered with that connection's record.",
    install: (app) =>
      editStore(app, (store) =>
        recordLookup(
          store,
          VAULT_RECORDS,
          (id) => store.record(VAULT_RECORDS, id) ?? store.records(VAULT_RECORDS).find((record) => sameIgnoringCase(record.id, id)),
        ),
      ),
  },
  {
    id: 'vault-ids-trimmed',
    clause: 'vault.response.record',
    bug: "A request binder that trims path parameters: an existing vault connection id with a space or tab at one end is answered with that connection's record.",
    install: (app) => editParameter(app, 'vault', 'id', trimmed),
  },
  {
    id: 'vault-path-decoded-twice',
    clause: 'vault.response.record',
    bug: "A proxy that decodes the path before the application decodes it again: an existing vault connection id with a character escaped twice (%255F) is answered with that connection's record.",
    install: (app) => editParameter(app, 'vault', 'id', decoded),
  },
  {
    id: 'stream-id-prefix-matched-by-quantifier',
    clause: 'redeliver.path.id.length',
    bug: "Stream ids normalised with a pattern that lets each letter of the prefix repeat (/^e+s+t+_/, written to accept a typo), before the lookup: an existing stream id with the last letter of its prefix written twice (estt_), one character over the id's length, is found and its event redelivered instead of 400/404.",
    install: (app) =>
      editParameter(app, 'redeliver', 'id', (raw) => {
        const value = decoded(raw);
        return value !== undefined && /^e+s+t+_/.test(value) && !value.startsWith('est_')
          ? encodeURIComponent(value.replace(/^e+s+t+_/, 'est_'))
          : undefined;
      }),
  },
  {
    id: 'vault-id-found-by-random-part',
    clause: 'vault.response.record',
    bug: "Vault connections looked up by the random part of their id (what follows the first \"_\"), the prefix only checked to have a known shape: an existing connection's random part behind another kind's prefix is answered with that connection's record instead of 400/404.",
    install: (app) =>
      editParameter(app, 'vault', 'id', (raw) => {
        const value = decoded(raw);
        const at = value?.indexOf('_') ?? -1;
        return value !== undefined && at > 0 && !value.startsWith('ac_') ? encodeURIComponent(`ac_${value.slice(at + 1)}`) : undefined;
      }),
  },
  {
    id: 'vault-ids-look-alikes-folded',
    clause: 'vault.response.record',
    bug: "Connection ids passed through a helper that corrects look-alikes (0 read as o, l and I as 1) before the lookup: an existing id with its o written 0 is answered with that connection's record.",
    install: (app) => editParameter(app, 'vault', 'id', lookAlikesFolded),
  },
  {
    id: 'vault-id-prefix-separator-either',
    clause: 'errors.400.path',
    bug: `The vault read checks a connection id's shape with a pattern that takes "-" as well as "_" after its prefix (^${VAULT_PREFIX_EITHER_SEPARATOR}, kept for the ids of a legacy import): "${VAULT_PREFIX.slice(0, -1)}-" followed by base58 characters, an id of no known shape, is looked up and answered 404 instead of 400 invalid_uri; an id of another prefix is still refused 400.`,
    install(app) {
      const node = toJsonSchema(parameter('vault', 'path', 'id').schema, 'observed');
      const check = compileCheck({
        ...node,
        pattern: String(node.pattern).replace(`^${VAULT_PREFIX}`, `^${VAULT_PREFIX_EITHER_SEPARATOR}`),
      });
      replaceParameterCheck(app, 'vault', 'path', 'id', () => check);
    },
  },
  {
    id: 'event-id-upper-run-whole',
    clause: 'errors.400.path',
    bug: `Redelivery checks the event id's shape with its base58 class's upper-case runs written ${UPPER_RUN_WHOLE} whole for ${BASE58_UPPER_RUNS}: an event id with an "I" or an "O" in its random part, no id of its shape, is looked up and answered 404 instead of 400 invalid_uri; one with a "0" or an "l" is still refused 400.`,
    install(app) {
      const node = toJsonSchema(parameter('redeliver', 'path', 'event_id').schema, 'observed');
      const pattern = String(node.pattern);
      if (!pattern.includes(BASE58_UPPER_RUNS)) throw new Error(`the event id's pattern ${pattern} has no ${BASE58_UPPER_RUNS}`);
      const check = compileCheck({ ...node, pattern: pattern.replace(BASE58_UPPER_RUNS, UPPER_RUN_WHOLE) });
      replaceParameterCheck(app, 'redeliver', 'path', 'event_id', () => check);
    },
  },
  {
    id: 'vault-ids-invisible-characters-deleted',
    clause: 'vault.response.record',
    bug: "A binder that deletes zero-width characters from pasted path parameters: an existing connection id with a zero-width space after it is answered with that connection's record instead of refused.",
    install: (app) => editParameter(app, 'vault', 'id', withoutInvisible),
  },
  {
    id: 'vault-ids-cut-at-url-delimiter',
    clause: 'vault.path.id.length',
    bug: 'A binder that treats the decoded path parameter as a pasted link and cuts it at its first "?" or "#": an existing connection id at the maximum followed by an encoded "#x" or "?x" is answered with that connection\'s record instead of refused.',
    install: (app) => editParameter(app, 'vault', 'id', cutAtUrlDelimiter),
  },
  {
    id: 'stream-id-final-line-feed-dropped',
    clause: 'redeliver.path.id.length',
    bug: "Redelivery checks the stream id with a pattern whose $ also matches before a final line feed, then looks the id up without it: the stream's id followed by %0A (one character over its length) redelivers the failed event instead of 400.",
    install: (app) => editParameter(app, 'redeliver', 'id', finalLineFeedDropped),
  },
  {
    id: 'event-id-percent-u-decoded',
    clause: 'redeliver.path.event_id.length',
    bug: 'Redelivery sits behind a front end that decodes IIS\'s "%uXXXX" form in the event id: the failed event\'s id with its first letter written %u0065 (over the maximum length, no RFC 3986 percent-encoding) redelivers it (202) instead of being refused; the id with a letter added is still refused.',
    install: (app) => editParameter(app, 'redeliver', 'event_id', percentUDecoded),
  },
  {
    id: 'stream-id-from-query',
    clause: 'redeliver.errors.404.stream',
    bug: 'Redelivery reads its ids from one bag of request parameters in which the query string is merged last: an unknown stream id in the path with ?id=<the valid stream id> is redelivered (202) instead of 404.',
    install: (app) => queryOverPath(app, 'redeliver'),
  },
  {
    id: 'stream-id-from-header',
    clause: 'redeliver.errors.404.stream',
    bug: 'Redelivery behind a gateway that maps headers onto path parameters: an unknown stream id in the path with a header id: <the valid stream id> is redelivered (202) instead of 404; without the header it is still 404.',
    install: (app) => headerOverPath(app, 'redeliver'),
  },
  {
    id: 'ticket-path-checks-on-headers',
    clause: 'sso-ticket.body.optional',
    bug: "Ticket creation's header validator is built from every parameter of the operation, whatever its `in`: a request for an existing profile that also carries a header named id holding a malformed id is refused 400 instead of getting a ticket; without that header it gets one.",
    install: (app) => pathChecksOnHeaders(app, 'sso-ticket'),
  },
  {
    id: 'stream-id-resource-name-basename',
    clause: 'redeliver.path.id.length',
    bug: 'Redelivery reads its stream id as a resource name ("streams/<id>") and keeps its last segment (path.basename of the decoded id): a stream id "items%2F<the stream\'s id>" redelivers the failed event (202) instead of 400; "items-<id>" is still refused.',
    install: (app) =>
      editParameter(app, 'redeliver', 'id', (raw) => {
        const value = decoded(raw);
        return value === undefined || !value.includes('/') ? undefined : encodeURIComponent(value.slice(value.lastIndexOf('/') + 1));
      }),
  },
  {
    id: 'vault-id-trailing-dots-dropped',
    clause: 'vault.response.record',
    bug: 'The vault read behind a front end hosted on Windows, which takes the trailing dots off a path segment as the file system does off a name: an existing connection\'s id with "." or ".." after it is answered its record (200) instead of 400; the id with ".x" after it is still refused.',
    install: (app) => editParameter(app, 'vault', 'id', (raw) => (/\.+$/.test(raw) ? raw.replace(/\.+$/, '') : undefined)),
  },
  {
    id: 'vault-id-json-parsed-when-quoted',
    clause: 'vault.response.record',
    bug: "The vault read behind a router that runs a path parameter through JSON.parse when it starts and ends with a double quote (parameters described with content: application/json): an existing connection's id in double quotes is answered its record (200) instead of 400; the id with one quote only is still refused.",
    install: (app) =>
      editParameter(app, 'vault', 'id', (raw) => {
        try {
          const decoded = decodeURIComponent(raw);
          if (!/^".*"$/.test(decoded)) return undefined;
          const parsed: unknown = JSON.parse(decoded);
          return typeof parsed === 'string' ? parsed : undefined;
        } catch {
          return undefined;
        }
      }),
  },
  {
    id: 'stream-ids-case-insensitive',
    clause: 'redeliver.errors.404.stream',
    bug: 'Event streams kept in a table with a case-insensitive collation: redelivery under an existing stream id with one letter in the other case is accepted (202) instead of 404.',
    install: (app) =>
      editStore(app, (store) => {
        const stream = (id: string) => store.stream(id) ?? store.streams().find((candidate) => sameIgnoringCase(candidate.id, id));
        return { stream, event: (streamId, eventId) => stream(streamId)?.events.get(eventId) };
      }),
  },
  {
    id: 'stream-ids-adjacent-typo-forgiven',
    clause: 'redeliver.errors.404.stream',
    bug: 'Event streams looked up with a "did you mean" fallback that forgives one swap of neighbouring characters (the commonest typing slip): redelivery under an existing stream id with two adjacent characters swapped is accepted (202) instead of 404; an id with a character replaced is still 404.',
    install: (app) =>
      editStore(app, (store) => {
        const stream = (id: string) => store.stream(id) ?? store.streams().find((candidate) => oneTranspositionApart(id, candidate.id));
        return { stream, event: (streamId, eventId) => stream(streamId)?.events.get(eventId) };
      }),
  },
  {
    id: 'stream-id-pipe-list-last',
    clause: 'redeliver.path.id.length',
    bug: 'Redelivery behind a parameter binder that reads a "|"-separated value as a list (OpenAPI\'s pipeDelimited style, meant for a query parameter) and hands the route its last item: the stream\'s id twice, joined by "|" (53 characters), redelivers the failed event (202) instead of 400; an id with a character added is still refused.',
    install: (app) => editParameter(app, 'redeliver', 'id', lastOfPipeList),
  },
  {
    id: 'event-ids-trimmed',
    clause: 'redeliver.path.event_id.length',
    bug: 'A request binder that trims path parameters before they are validated: redelivery accepts an existing event id with a space or tab at one end (27 characters as sent).',
    install: (app) => editParameter(app, 'redeliver', 'event_id', trimmed),
  },
  {
    id: 'redeliver-path-decoded-twice',
    clause: 'redeliver.path.id.length',
    bug: 'A proxy that decodes the path before the application decodes it again: redelivery accepts an existing stream id with a character escaped twice (28 characters as sent).',
    install: (app) => editParameter(app, 'redeliver', 'id', decoded),
  },
  {
    id: 'event-found-in-any-stream',
    clause: 'redeliver.errors.404.event',
    bug: 'Events looked up by their id alone, the stream only checked to exist: redelivery of an event of another stream through an existing stream is accepted (202) instead of 404.',
    install: (app) =>
      editStore(app, (store) => ({
        event: (streamId, eventId) =>
          store.event(streamId, eventId) ??
          (store.stream(streamId)
            ? store
                .streams()
                .flatMap((stream) => [...stream.events.values()])
                .find((event) => event.id === eventId)
            : undefined),
      })),
  },
  {
    id: 'vault-id-read-from-odata-key',
    clause: 'vault.response.record',
    bug: "The vault read behind a route that also takes OData's key syntax, ('<id>'): an existing connection's id in that syntax is answered its record instead of 400; the id in parentheses without quotes is still refused.",
    install: (app) =>
      editParameter(app, 'vault', 'id', (raw) => {
        const key = /^\('(.*)'\)$/.exec(decoded(raw) ?? '');
        return key ? encodeURIComponent(key[1]!) : undefined;
      }),
  },
  {
    id: 'profiles-found-by-pattern',
    clause: 'sso-ticket.profile.exists',
    bug: 'Self-service profiles found by a query that takes the path id for a regular expression (anchored): a profile id with a letter written "." creates a ticket for that profile instead of being refused; a letter written as another letter is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editParameter(app, 'sso-ticket', 'id', (raw) => {
        const id = decoded(raw);
        if (id === undefined || !id.includes('.') || store().profile(id)) return undefined;
        const pattern = new RegExp(`^${id.replace(/[^\w.]/g, '\\$&')}$`);
        const found = [...ALPHANUMERIC]
          .map((c) => id.replace('.', c))
          .find((candidate) => pattern.test(candidate) && store().profile(candidate));
        return found === undefined ? undefined : encodeURIComponent(found);
      });
    },
  },
  {
    id: 'events-compared-padding-spaces',
    clause: 'redeliver.path.event_id.length',
    bug: "Events looked up in a CHAR column under a PAD SPACE collation, the id's length checked by the database's comparison (trailing spaces not counted): an event id followed by spaces, over the id's length, redelivers that event instead of 400; an id with a space before it is still refused.",
    install: (app) =>
      editParameter(app, 'redeliver', 'event_id', (raw) => {
        const value = decoded(raw);
        return value === undefined || !/ +$/.test(value) ? undefined : encodeURIComponent(value.replace(/ +$/, ''));
      }),
  },
  {
    id: 'events-found-by-their-sort-key',
    clause: 'redeliver.path.event_id.length',
    bug: 'Events kept in one DynamoDB table under the sort key "EVENT#<id>", the handler adding the prefix only where the id lacks it: the event id "EVENT#<a failed event\'s id>" redelivers that event instead of 400; "EVENT#" before an unknown id is still refused.',
    install: (app) =>
      editParameter(app, 'redeliver', 'event_id', (raw) => {
        const value = decoded(raw);
        return value?.startsWith('EVENT#') ? encodeURIComponent(value.slice('EVENT#'.length)) : undefined;
      }),
  },
  {
    id: 'streams-found-by-glob',
    clause: 'redeliver.errors.404.stream',
    bug: 'Event streams found through a key-value store by a glob match (SCAN with MATCH est_<id>, the id as sent): a stream id with a letter written "?" redelivers the failed event of the stream it matches instead of 404; a letter written as another letter is still 404.',
    install: (app) => {
      const store = capture(app, 'store');
      editParameter(app, 'redeliver', 'id', (raw) => {
        const id = decoded(raw);
        if (id === undefined || !id.includes('?') || store().stream(id)) return undefined;
        const found = [...ALPHANUMERIC].map((c) => id.replace('?', c)).find((candidate) => store().stream(candidate));
        return found === undefined ? undefined : encodeURIComponent(found);
      });
    },
  },
  {
    id: 'events-found-by-hash-code',
    clause: 'redeliver.errors.404.event',
    bug: "Events of a stream kept in a map keyed by their id's Java String.hashCode alone (to save memory): redelivery of an event id that collides with an existing one's (two neighbouring characters, one up by 1 and the next down by 31) is accepted (202) instead of 404; other unknown ids are still 404.",
    install: (app) =>
      editStore(app, (store) => ({
        event: (streamId, eventId) =>
          store.event(streamId, eventId) ??
          [
            ...(store
              .streams()
              .find((stream) => stream.id === streamId)
              ?.events.values() ?? []),
          ].find((event) => javaHashCode(event.id) === javaHashCode(eventId)),
      })),
  },
  {
    id: 'event-found-by-relay-global-id',
    clause: 'redeliver.path.event_id.length',
    bug: 'A route that also takes Relay global ids for events (base64 of "Event:<id>", decoded by fromGlobalId before the checks): the failed event\'s global id, 44 characters, is redelivered instead of 400; other ids are checked as before.',
    install: (app) =>
      editParameter(app, 'redeliver', 'event_id', (raw) => {
        const text = Buffer.from(decoded(raw) ?? '', 'base64').toString('utf8');
        return /^Event:evt_[1-9A-HJ-NP-Za-km-z]+$/.test(text) ? encodeURIComponent(text.slice('Event:'.length)) : undefined;
      }),
  },
  {
    id: 'profile-found-by-confusable-skeleton',
    clause: 'sso-ticket.profile.exists',
    bug: "Self-service profiles looked up by their confusable skeleton (a guard against look-alike names applied to ids): a ticket for an existing profile's id with a Latin letter written as its Cyrillic twin is created instead of 404; other unknown ids are still refused.",
    install: (app) => editParameter(app, 'sso-ticket', 'id', confusablesFolded),
  },
]);
