// State and errors: an event looked up in every stream rather than in the one the path names; and
// the observed rules: a path error naming the route's first parameter, and the vault's 404 message
// translated for Accept-Language.
// Each changes the answer to its near miss; the common answers are as before.
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho19-event-found-in-any-stream',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: "The event looked up by its own id across every stream (Event.find(event_id), the stream only checked to exist): a failed event of the second stream redelivered through the first stream's path is accepted 202 instead of 404; an event that is in no stream is still refused 404.",
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const stream = exchange.params.id === undefined ? undefined : decodedOnce(exchange.params.id);
        const event = exchange.params.event_id === undefined ? undefined : decodedOnce(exchange.params.event_id);
        if (stream === undefined || event === undefined || !store().stream(stream) || store().event(stream, event)) return exchange;
        const owner = store()
          .streams()
          .find((s) => s.events.has(event));
        return owner ? { ...exchange, params: { ...exchange.params, id: encodeURIComponent(owner.id) } } : exchange;
      });
    },
  },
  {
    id: 'ho19-path-error-names-first-parameter',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'The path error built from the route\'s first parameter name (params[0] instead of the one that failed): a malformed event id is answered 400 "Path validation error" naming "id" instead of "event_id"; a malformed stream id names "id" as before.',
    install: (app) =>
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 400 && isErrorBody(reply.body) && typeof reply.body.message === 'string' && reply.body.message.includes('event_id')
          ? { ...reply, body: { ...reply.body, message: reply.body.message.replace(/event_id/g, 'id') } }
          : reply,
      ),
  },
  {
    id: 'ho19-vault-404-message-translated',
    clause: 'errors.404.vault',
    level: 'observed',
    bug: 'Error messages passed through the i18n layer, which honours Accept-Language: a request for an unknown vault connection with "Accept-Language: de" is answered "Verbindung nicht gefunden" instead of "Connection not found"; without the header the message is as before.',
    install: (app) =>
      editReplies(app, ['vault'], (reply, exchange) => {
        const language = exchange.headers['accept-language'];
        return reply.status === 404 && isErrorBody(reply.body) && typeof language === 'string' && /^de\b/i.test(language)
          ? { ...reply, body: { ...reply.body, message: 'Verbindung nicht gefunden' } }
          : reply;
      }),
  },
]);
