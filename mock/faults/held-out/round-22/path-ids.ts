// Path ids: a stream id decoded from base58 as a number (leading "1"s, its zero digits, add
// nothing), an event id taken as a GraphQL Relay global id (base64 of "Event:<id>"); and the
// observed rules: a vault id percent-decoded by a lenient UTF-8 decoder that reads overlong forms
// (%C1%9F is "_"), and a profile id compared the way Swift compares strings, by canonical
// equivalence (the Kelvin sign is a K). Each lets its near miss through; a plainly wrong id is
// answered as before.
import type { Exchange } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};
const paramOf = (exchange: Exchange, name: string) =>
  exchange.params[name] === undefined ? undefined : decodedOnce(exchange.params[name]);
const withParam = (exchange: Exchange, name: string, value: string): Exchange => ({
  ...exchange,
  params: { ...exchange.params, [name]: encodeURIComponent(value) },
});
const STREAM_PREFIX = 'est_';
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
/** A base58 text read as a number: its leading "1"s are zero digits and change nothing. */
const base58Number = (text: string) => text.replace(/^1+/, '');
/** Standard base64 with its padding, as Relay's toGlobalId writes it. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const RELAY_EVENT = /^Event:(.+)$/;
/** An overlong two-byte UTF-8 form of an ASCII character: %C0 or %C1, then a continuation byte. */
const OVERLONG = /%C([01])%([89AB][0-9A-F])/i;

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho22-stream-id-base58-as-number',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: 'Stream ids stored as the 128-bit numbers their base58 bodies encode, the path\'s body decoded digit by digit into a BigInt, so that leading "1"s (base58\'s zero) add nothing: "est_1<body of the stream id>", 27 characters, is taken for that stream and the event redelivered instead of 400; "est_2<body>" is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const id = paramOf(exchange, 'id');
        if (id === undefined || !id.startsWith(STREAM_PREFIX) || store().stream(id)) return exchange;
        const body = id.slice(STREAM_PREFIX.length);
        if (!BASE58.test(body)) return exchange;
        const same = store()
          .streams()
          .find(
            (stream) => stream.id.startsWith(STREAM_PREFIX) && base58Number(stream.id.slice(STREAM_PREFIX.length)) === base58Number(body),
          );
        return same === undefined ? exchange : withParam(exchange, 'id', same.id);
      });
    },
  },
  {
    id: 'ho22-event-id-relay-global-id',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: 'A REST façade over a GraphQL API that also takes Relay global ids, fromGlobalId(id) reading base64 "Event:<id>": the failed event\'s global id (base64 of "Event:<event id>", 44 characters) is redelivered instead of 400; the global id of an event that does not exist is answered 404 instead of 400, and one of another type ("EventStream:<event id>") is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const id = paramOf(exchange, 'event_id');
        if (id === undefined || !BASE64.test(id)) return exchange;
        const inner = RELAY_EVENT.exec(Buffer.from(id, 'base64').toString('utf8'));
        return inner ? withParam(exchange, 'event_id', inner[1]!) : exchange;
      }),
  },
  {
    id: 'ho22-vault-id-overlong-utf8',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'The path decoded by a servlet container\'s lenient UTF-8 decoder that reads overlong two-byte forms (the IIS "%c1%1c" flaw): the vault id with its "_" written %C1%9F, which is no valid percent-encoding, reads that connection (200) instead of 400 invalid_uri; the same with an id naming no connection is answered 404 instead of 400.',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const raw = exchange.params.id;
        if (raw === undefined || !OVERLONG.test(raw)) return exchange;
        const read = raw.replace(new RegExp(OVERLONG.source, 'gi'), (_, high: string, low: string) =>
          encodeURIComponent(String.fromCharCode(((Number(high) & 0x1f) << 6) | (parseInt(low, 16) & 0x3f))),
        );
        return { ...exchange, params: { ...exchange.params, id: read } };
      }),
  },
  {
    id: 'ho22-profile-id-swift-canonical-equivalence',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'Profiles looked up by a Swift service whose String == compares canonical equivalence, so the Kelvin sign (U+212A, whose canonical form is "K") equals "K": the profile id with its "K" written "\\u212A" creates a ticket for that profile instead of 400 invalid_uri; the "K" written as the fullwidth "Ｋ" (only compatibility-equivalent) is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'sso-ticket', (exchange) => {
        const id = paramOf(exchange, 'id');
        if (id === undefined || store().profile(id)) return exchange;
        const canonical = id.normalize('NFC');
        return canonical !== id && store().profile(canonical) ? withParam(exchange, 'id', canonical) : exchange;
      });
    },
  },
]);
