// Path ids: streams kept in SQL Server under its default case-insensitive collation, events in a
// MySQL column whose PAD SPACE collation ignores trailing spaces, vault ids behind a Rails route
// that takes a ".json" suffix for the format; and the observed rule: the unknown stream worded by a
// gettext template that names the id. Each lets its near miss through, or words its error
// otherwise; a plainly wrong id is answered as before.
import { observed } from '../../../../specs/index.ts';
import type { Exchange } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const STREAM_NOT_FOUND = observed.errors.stream_not_found!.message!;

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
    id: 'ho26-stream-id-sqlserver-ci-collation',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: "Event streams kept in SQL Server, whose id column has the database's default collation SQL_Latin1_General_CP1_CI_AS (case-insensitive), the id put into WHERE id = @id before any check of its alphabet: the stream id written in upper case (naming no stream) redelivers the failed event (202) instead of 400 or 404; the id with a character changed is still refused.",
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const id = paramOf(exchange, 'id');
        if (id === undefined || store().stream(id)) return exchange;
        const found = store()
          .streams()
          .find((stream) => stream.id.toLowerCase() === id.toLowerCase());
        return found ? withParam(exchange, 'id', found.id) : exchange;
      });
    },
  },
  {
    id: 'ho26-event-id-mysql-pad-space',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: "Events kept in MySQL in a VARCHAR column of a PAD SPACE collation (utf8mb4_general_ci), where 'abc ' = 'abc' holds, the id bound into the query unchecked: the failed event's id followed by a space (%20) redelivers it (202) instead of 400 or 404; the id followed by \"x\" is still refused.",
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const streamId = paramOf(exchange, 'id');
        const eventId = paramOf(exchange, 'event_id');
        const stream = streamId === undefined ? undefined : store().stream(streamId);
        if (!stream || eventId === undefined || !/ +$/.test(eventId)) return exchange;
        const trimmed = eventId.replace(/ +$/, '');
        return stream.events.has(trimmed) ? withParam(exchange, 'event_id', trimmed) : exchange;
      });
    },
  },
  {
    id: 'ho26-vault-id-rails-format-suffix',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'A Rails route, get "flows/vault/connections/:id", which takes an optional (.:format) suffix, so the id ends at the last dot: GET .../connections/<a connection id>.json answers the connection (200) instead of 400 or 404 for an id that is not one; <id>.txt (a format the controller does not serve) is still refused.',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const id = paramOf(exchange, 'id');
        return id === undefined || !id.endsWith('.json') ? exchange : withParam(exchange, 'id', id.slice(0, -'.json'.length));
      }),
  },
  {
    id: 'ho26-stream-404-gettext-names-id',
    clause: 'errors.404.stream',
    level: 'observed',
    bug: `An Elixir (Phoenix) service whose error messages go through gettext, the catalogue's entry for this one being dgettext("errors", "Event stream %{id} does not exist.", id: id): an unknown stream is answered 404 "Event stream <the id> does not exist." instead of "${STREAM_NOT_FOUND}"; the status and errorCode are as before.`,
    install: (app) =>
      editReplies(app, ['redeliver'], (reply, exchange) => {
        if (reply.status !== 404 || !isErrorBody(reply.body) || reply.body.message !== STREAM_NOT_FOUND) return reply;
        return { ...reply, body: { ...reply.body, message: `Event stream ${paramOf(exchange, 'id') ?? ''} does not exist.` } };
      }),
  },
]);
