// State and errors: an unknown stream sent to the tenant's default stream by a migration's feature
// flag; and the observed rules: error bodies typed by nginx's default_type (an OpenResty handler
// that never set one), and the 403's scope names masked by a logging middleware that redacts the
// body it logs in place. Each changes the answer to its near miss; the common answers are as before.
import type { Exchange } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody, MANAGEMENT_ROUTES, withContentType } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const decodedOnce = (raw: string | undefined): string | undefined => {
  if (raw === undefined) return undefined;
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
/** A scope as a redacting logger sees a "key:value" pair: its first letter kept, the rest masked. */
const SCOPE_LIKE = /\b([a-z])[a-z]*:[a-z_]+\b/g;
const HAS_SCOPE = /\b[a-z]+:[a-z_]+\b/;

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho21-unknown-stream-default-fallback',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: 'A "legacy single-stream tenants" feature flag left on, which sends a stream id the tenant does not have to its first (default) stream: an unknown stream id with the default stream\'s failed event id is redelivered 202 instead of 404; an unknown stream id with an event id the default stream does not have is still 404.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const streamId = decodedOnce(exchange.params.id);
        const eventId = decodedOnce(exchange.params.event_id);
        if (streamId === undefined || eventId === undefined || store().stream(streamId)) return exchange;
        const fallback = store().streams()[0];
        return fallback && fallback.events.has(eventId) ? withParam(exchange, 'id', fallback.id) : exchange;
      });
    },
  },
  {
    id: 'ho21-error-octet-stream',
    clause: 'errors.body.content-type',
    level: 'observed',
    bug: 'Error bodies written by an OpenResty handler with ngx.say(cjson.encode(err)) and no ngx.header.content_type, so nginx\'s default_type applies: "Content-Type: application/octet-stream" instead of application/json on every error; success answers are typed as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        isErrorBody(reply.body) ? withContentType(reply, 'application/octet-stream') : reply,
      ),
  },
  {
    id: 'ho21-403-scope-redacted-by-logger',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: 'A logging middleware that redacts "key:value"-looking strings of the body it logs, in place, before the body is sent: the 403 says "... u***" where it named the missing scope "update:event_deliveries"; the status and the other errors are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 403 && isErrorBody(reply.body) && typeof reply.body.message === 'string' && HAS_SCOPE.test(reply.body.message)
          ? { ...reply, body: { ...reply.body, message: reply.body.message.replace(SCOPE_LIKE, (_, first: string) => `${first}***`) } }
          : reply,
      ),
  },
]);
