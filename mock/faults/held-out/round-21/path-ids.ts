// Path ids: a vault id written in OData's key syntax unwrapped, an event id checked by a pattern
// whose "$" also matches before a final newline (Perl, Ruby, Python's re), a stream id cut at its
// first NUL (a C layer's string); and the observed rule: a profile id used as a regular expression
// in the lookup. Each lets its near miss through; a plainly wrong id is answered as before.
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
/** The ids of the id alphabet that a pattern whose only metacharacters are up to two "." matches. */
const ID_ALPHABET = [...'123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz_'];
const regexMatches = (pattern: string): string[] => {
  const dots = [...pattern].filter((c) => c === '.').length;
  if (dots === 0 || dots > 2) return [];
  const at = pattern.indexOf('.');
  return ID_ALPHABET.flatMap((letter) => {
    const next = `${pattern.slice(0, at)}${letter}${pattern.slice(at + 1)}`;
    return next.includes('.') ? regexMatches(next) : [next];
  });
};
const ODATA_KEY = /^\('([^']*)'\)$/;
const EVENT_ID = /^evt_[1-9A-HJ-NP-Za-km-z]{22}\n$/;

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho21-vault-id-odata-key-syntax',
    clause: 'vault.path.id.length',
    level: 'contract',
    bug: "Path ids read through an OData-style route that also takes the key syntax ('<key>'): a connection id sent as \"('<vault id>')\" is answered that connection's record instead of 400; \"('<an id naming no connection>')\" is answered 404 instead of 400.",
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const match = ODATA_KEY.exec(paramOf(exchange, 'id') ?? '');
        return match ? withParam(exchange, 'id', match[1]!) : exchange;
      }),
  },
  {
    id: 'ho21-event-id-dollar-newline',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: 'The event id checked with /^evt_[...]{22}$/ in an engine where "$" also matches before a final newline (Perl, Ruby, Python\'s re.match), then chomped for the lookup: "<failed event id>\\n" (%0A) is redelivered instead of 400; "<failed event id>\\nx" is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const id = paramOf(exchange, 'event_id');
        return id !== undefined && EVENT_ID.test(id) ? withParam(exchange, 'event_id', id.slice(0, -1)) : exchange;
      }),
  },
  {
    id: 'ho21-stream-id-nul-terminated',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: 'The stream id handed to a C module as a NUL-terminated string after percent-decoding: "<stream id>%00<anything>" is read as the stream id and the event redelivered instead of 400; "<an unknown stream id>%00x" is answered 404 instead of 400.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const id = paramOf(exchange, 'id');
        return id !== undefined && id.includes('\0') ? withParam(exchange, 'id', id.slice(0, id.indexOf('\0'))) : exchange;
      }),
  },
  {
    id: 'ho21-profile-id-regex-lookup',
    clause: 'sso-ticket.profile.exists',
    level: 'observed',
    bug: 'Profiles found with a query that takes the path id as a regular expression ({_id: {$regex: "^" + id + "$"}} in a MongoDB-style store): "<profile id>" with one letter written as "." names the profile and creates a ticket instead of being refused; the letter written as "z" is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'sso-ticket', (exchange) => {
        const id = paramOf(exchange, 'id');
        if (id === undefined || store().profile(id)) return exchange;
        const found = regexMatches(id).find((candidate) => store().profile(candidate));
        return found === undefined ? exchange : withParam(exchange, 'id', found);
      });
    },
  },
]);
