// Path ids: a stream found by its name as well as by its id (a slug-or-id lookup), an event id
// looked up in a table keyed the way Nim compares identifiers (underscores ignored); and the observed
// rule: a profile id passed through Python's unidecode() before the lookup (a transliteration: "ß" is
// "ss"). Each lets its near miss through; a plainly wrong id is answered as before.
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
/** Nim's style-insensitive key, as far as these ids go: underscores do not count. */
const nimKey = (id: string) => id.replace(/_/g, '');
/** What unidecode writes for the letters NFKD leaves alone (ß, ẞ, ſ) and the Latin ligatures. */
const TRANSLITERATED: Record<string, string> = {
  ß: 'ss',
  ẞ: 'SS',
  ſ: 's',
  ﬀ: 'ff',
  ﬁ: 'fi',
  ﬂ: 'fl',
  ﬃ: 'ffi',
  ﬄ: 'ffl',
  ﬅ: 'st',
  ﬆ: 'st',
};
/** unidecode's reading of Latin text: marks taken off (NFKD, combining marks dropped), the letters above spelt out; ASCII kept. */
const unidecode = (text: string) => [...text.normalize('NFKD').replace(/\p{M}/gu, '')].map((c) => TRANSLITERATED[c] ?? c).join('');

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho23-stream-found-by-name',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: 'Streams looked up by a slug-or-id finder (WHERE id = $1 OR name = $1, so that the dashboard\'s links by name work), ahead of the id check: "orders-webhook", the first stream\'s name (14 characters), redelivers its failed event (202) instead of 400; "orders-webhooks" is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const id = paramOf(exchange, 'id');
        if (id === undefined || store().stream(id)) return exchange;
        const named = store()
          .streams()
          .find((stream) => stream.name === id);
        return named ? withParam(exchange, 'id', named.id) : exchange;
      });
    },
  },
  {
    id: 'ho23-event-id-nim-style-insensitive',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: 'Events kept by a Nim service in a table keyed with the language\'s own rule for identifiers, underscores not counting: the failed event\'s id with an underscore added inside ("evt_wx3c_BnTH...", 27 characters) redelivers it (202) instead of 400; the id with a hyphen added instead is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const streamId = paramOf(exchange, 'id');
        const eventId = paramOf(exchange, 'event_id');
        const stream = streamId === undefined ? undefined : store().stream(streamId);
        if (!stream || eventId === undefined || stream.events.has(eventId) || !eventId.includes('_')) return exchange;
        const same = [...stream.events.keys()].find((id) => nimKey(id) === nimKey(eventId));
        return same === undefined ? exchange : withParam(exchange, 'event_id', same);
      });
    },
  },
  {
    id: 'ho23-profile-id-unidecode',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'Path ids passed through Python\'s unidecode() before the profile lookup (meant to turn pasted look-alikes into the ASCII the ids are written in), a transliteration that spells "ß" as "ss": the profile id with its leading "ss" written "ß" ("ßp_9Kgf...", 25 characters) creates a ticket for that profile instead of 400 invalid_uri; the same with "š" for the "ss" (read as "s") is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'sso-ticket', (exchange) => {
        const id = paramOf(exchange, 'id');
        if (id === undefined || store().profile(id)) return exchange;
        const ascii = unidecode(id);
        return ascii !== id && store().profile(ascii) ? withParam(exchange, 'id', ascii) : exchange;
      });
    },
  },
]);
