// Path ids and headers: a stream id folded as Crockford base32 reads it, an event id looked up
// without its type prefix, a vault id stripped of its prefix with Python's lstrip (a set of
// characters, not a prefix), and the custom-domain header's lower bound checked one too low. Each
// lets its near miss through; a plainly wrong id or header is answered as before.
import type { Exchange } from '../../../exchange.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const CUSTOM_DOMAIN_HEADER = 'tenant-custom-domain';
const CUSTOM_DOMAIN_MIN = 3;

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};
const withParam = (exchange: Exchange, name: string, value: string): Exchange => ({
  ...exchange,
  params: { ...exchange.params, [name]: encodeURIComponent(value) },
});
/** Python's str.lstrip(chars): every leading character found in `chars`, not the prefix. */
const lstrip = (text: string, chars: string) => {
  let at = 0;
  while (at < text.length && chars.includes(text[at]!)) at++;
  return text.slice(at);
};

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho19-stream-id-crockford-folded',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: 'Stream ids normalised the way Crockford base32 reads them (I and l taken for 1, O for 0) before the lookup: "<stream id>" with an "l" in place of its "1", a stream that does not exist, is found and the event redelivered instead of 400/404; a "w" in its place is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const id = exchange.params.id === undefined ? undefined : decodedOnce(exchange.params.id);
        if (id === undefined || !/^est_/.test(id) || !/[IlO]/.test(id.slice(4))) return exchange;
        return withParam(exchange, 'id', `est_${id.slice(4).replace(/[Il]/g, '1').replace(/O/g, '0')}`);
      }),
  },
  {
    id: 'ho19-event-id-prefix-ignored',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: 'Events stored under the random part of their id (the "evt_" type prefix cut with id.slice(4) whatever it is): "est_<random part of the failed event>", an event that does not exist, is redelivered instead of 400/404; "est_" with another random part is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const id = exchange.params.event_id === undefined ? undefined : decodedOnce(exchange.params.event_id);
        if (id === undefined || !/^[a-z]{3}_/.test(id) || id.startsWith('evt_')) return exchange;
        return withParam(exchange, 'event_id', `evt_${id.slice(4)}`);
      }),
  },
  {
    id: 'ho19-vault-id-lstrip-prefix',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'The vault id\'s prefix removed with id.lstrip("ac_") (a set of characters, not the prefix) before the lookup: "acc_<rest of a connection id>", which names no connection, answers that connection\'s record instead of 400/404; "acx_<rest>" is still refused.',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const id = exchange.params.id === undefined ? undefined : decodedOnce(exchange.params.id);
        if (id === undefined || !id.startsWith('ac')) return exchange;
        const rest = lstrip(id, 'ac_');
        return rest === id.slice(3) || rest.length === 0 ? exchange : withParam(exchange, 'id', `ac_${rest}`);
      }),
  },
  {
    id: 'ho19-custom-domain-two-accepted',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: "The custom-domain header's lower bound checked with length < 2 (a two-letter country code thought the shortest name) instead of < 3: a header of 2 characters is accepted and the ticket created instead of 400; 1 character is still refused.",
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const domain = exchange.headers[CUSTOM_DOMAIN_HEADER];
        return typeof domain === 'string' && domain.length === CUSTOM_DOMAIN_MIN - 1
          ? { ...exchange, headers: { ...exchange.headers, [CUSTOM_DOMAIN_HEADER]: `${domain}${domain.slice(-1)}` } }
          : exchange;
      }),
  },
]);
