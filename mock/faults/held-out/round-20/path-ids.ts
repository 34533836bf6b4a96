// Path ids: a vault id cut to its column's width (MySQL without strict mode), an event id's ".json"
// format suffix stripped (a Rails route), a stream id normalised with NFKC, an event found through
// a cache keyed by Java's String.hashCode; and the observed rule: a profile id folded with a
// confusables skeleton. Each lets its near miss through; a plainly wrong id is answered as before.
import type { Exchange } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const VAULT_ID_COLUMN = 30;
/** Cyrillic letters a UTS #39 skeleton maps to the Latin letters they look like. */
const CONFUSABLES: Record<string, string> = {
  а: 'a',
  с: 'c',
  е: 'e',
  о: 'o',
  р: 'p',
  ѕ: 's',
  х: 'x',
  у: 'y',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
};
const CONFUSABLE = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'gu');
const HAS_CONFUSABLE = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'u');

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
/** Java's String.hashCode: s[0]*31^(n-1) + ... + s[n-1], in 32-bit arithmetic. */
const javaHash = (text: string) => {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
};

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho20-vault-id-truncated-to-column',
    clause: 'vault.path.id.length',
    level: 'contract',
    bug: "The vault id bound to a VARCHAR(30) parameter of a MySQL session without STRICT_TRANS_TABLES, which truncates with a warning: a 30-character connection id with one more character is answered that connection's record instead of 400; a 31-character id whose first 30 name no connection is answered 404 instead of 400.",
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const id = paramOf(exchange, 'id');
        return id !== undefined && id.length > VAULT_ID_COLUMN ? withParam(exchange, 'id', id.slice(0, VAULT_ID_COLUMN)) : exchange;
      }),
  },
  {
    id: 'ho20-event-id-format-suffix',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: 'The route declared with an optional format (Rails\' "(.:format)"), so a ".json" ending is taken for the response format and cut: "<failed event id>.json" is redelivered instead of 400; "<failed event id>.xml", a format the action does not serve, is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const id = paramOf(exchange, 'event_id');
        return id !== undefined && id.endsWith('.json') ? withParam(exchange, 'event_id', id.slice(0, -'.json'.length)) : exchange;
      }),
  },
  {
    id: 'ho20-stream-id-nfkc-normalised',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: 'Path ids normalised with NFKC before they are validated (a framework\'s "safe" Unicode handling of path parameters): a stream id with one letter written in its fullwidth form ("Ａ" for "A") is found and the event redelivered instead of 400; a fullwidth letter that makes another id is answered 404 instead of 400.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const id = paramOf(exchange, 'id');
        return id !== undefined && id.normalize('NFKC') !== id ? withParam(exchange, 'id', id.normalize('NFKC')) : exchange;
      }),
  },
  {
    id: 'ho20-event-found-by-hash-code',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: 'Events found through a cache keyed by the id\'s String.hashCode() alone (a HashMap<Integer, Event> written to save memory): an event id that collides with the failed event\'s (two neighbouring characters changed by +1 and -31, as "Aa" and "BB" collide) is redelivered instead of 404; an id that does not collide is still refused 404.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const streamId = paramOf(exchange, 'id');
        const eventId = paramOf(exchange, 'event_id');
        const stream = streamId === undefined ? undefined : store().stream(streamId);
        if (!stream || eventId === undefined || stream.events.has(eventId)) return exchange;
        const hash = javaHash(eventId);
        const twin = [...stream.events.keys()].find((id) => javaHash(id) === hash);
        return twin === undefined ? exchange : withParam(exchange, 'event_id', twin);
      });
    },
  },
  {
    id: 'ho20-profile-id-confusables-skeleton',
    clause: 'sso-ticket.profile.exists',
    level: 'observed',
    bug: 'Profile ids looked up by their UTS #39 confusables skeleton (a spoofing check\'s helper reused as a key): "<profile id>" with its first "s" written as the Cyrillic "ѕ" names the profile and creates a ticket instead of being refused; a Latin "z" in its place is still refused.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const id = paramOf(exchange, 'id');
        return id !== undefined && HAS_CONFUSABLE.test(id)
          ? withParam(
              exchange,
              'id',
              id.replace(CONFUSABLE, (letter) => CONFUSABLES[letter]!),
            )
          : exchange;
      }),
  },
]);
