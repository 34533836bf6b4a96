// Path ids: stream ids behind a Tomcat connector that drops a segment's ";" path parameters, event
// ids looked up in a DynamoDB single-table design that adds the "EVENT#" sort-key prefix only when
// it is missing, vault ids captured by a Haskell Servant route whose FromHttpApiData instance also
// decodes a JSON string; and the observed rule: the unknown connection answered with OpenResty's
// reason phrase. Each lets its near miss through, or words its error otherwise; a plainly wrong id is
// answered as before.
import { observed } from '../../../../specs/index.ts';
import type { Exchange } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const VAULT_NOT_FOUND = observed.errors.vault_connection_not_found!.message!;
const SORT_KEY_PREFIX = 'EVENT#';

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

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho27-stream-id-tomcat-path-parameter',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: 'A Spring service on Tomcat, whose connector removes ";name=value" path parameters from each segment before routing (the jsessionid habit): the stream id followed by ";v=1" (sent unencoded) is taken for the stream and the event redelivered instead of 400/404; an unknown stream id followed by ";v=1" is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const raw = exchange.params.id;
        if (raw === undefined || !raw.includes(';')) return exchange;
        return { ...exchange, params: { ...exchange.params, id: raw.slice(0, raw.indexOf(';')) } };
      }),
  },
  {
    id: 'ho27-event-id-dynamodb-sort-key-prefix',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: 'Events kept in one DynamoDB table keyed (PK "STREAM#<id>", SK "EVENT#<id>"), the handler adding the "EVENT#" prefix only when the id does not already start with it: the event id "EVENT#<a failed event>" (percent-encoded) is redelivered instead of 400/404; "EVENT#<an unknown event>" is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const streamId = paramOf(exchange, 'id');
        const eventId = paramOf(exchange, 'event_id');
        const stream = streamId === undefined ? undefined : store().stream(streamId);
        if (!stream || eventId === undefined || !eventId.startsWith(SORT_KEY_PREFIX)) return exchange;
        const bare = eventId.slice(SORT_KEY_PREFIX.length);
        return stream.events.has(bare) ? withParam(exchange, 'event_id', bare) : exchange;
      });
    },
  },
  {
    id: 'ho27-vault-id-servant-json-capture',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'A Haskell (Servant) service whose Capture type\'s FromHttpApiData instance tries Aeson\'s decode before the raw text (so a JSON string is accepted too): the vault id in double quotes ("%22<id>%22") reads the connection instead of 400/404; an unknown id in double quotes is still refused.',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const id = paramOf(exchange, 'id');
        const parsed = id === undefined ? null : /^"([^"\\]*)"$/.exec(id);
        return parsed ? withParam(exchange, 'id', parsed[1]!) : exchange;
      }),
  },
  {
    id: 'ho27-vault-404-openresty-reason',
    clause: 'errors.404.vault',
    level: 'observed',
    bug: 'An OpenResty (Lua) front that answers a missing connection with ngx.status = 404 and a body built from the status line\'s reason phrase: the unknown connection is answered 404 with message "Not Found" instead of the service\'s wording; the status and other members are as before.',
    install: (app) =>
      editReplies(app, ['vault'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === VAULT_NOT_FOUND
          ? { ...reply, body: { ...reply.body, message: 'Not Found' } }
          : reply,
      ),
  },
]);
