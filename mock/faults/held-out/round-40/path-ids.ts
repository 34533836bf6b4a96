// Path ids, where an id meets the state or the other id: a Rails controller that finds the event
// first and compares the stream id with its own by prefix; a cache keyed by the column's width;
// and the observed rule: a validator reporting all its errors in another shape. Other paths are
// judged as before.
import { capture, captureAll } from '../../support/captured.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const ID_LENGTH = 26;
const VAULT_ID_MAX = 30;
const OK = 200;
const BAD_REQUEST = 400;

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho40-stream-id-prefix-of-found-event',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: `A Rails redelivery controller that finds the event first (Event.find_by(public_id: params[:event_id])) and, when it is found, checks the path's stream with params[:id].start_with?(event.stream.public_id), leaving the length validation (length: { is: ${ID_LENGTH} }) to the branch where the event is missing: a stream id with characters appended beside an event of that stream is redelivered (202) instead of 400; the same stream id beside an unknown event, and a stream id one character short beside the event, are still refused 400.`,
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const { id, event_id: eventId } = exchange.params;
        if (id === undefined || eventId === undefined || id.length <= ID_LENGTH) return exchange;
        const home = store()
          .streams()
          .find((s) => id.startsWith(s.id) && s.events.has(eventId));
        return home ? { ...exchange, params: { ...exchange.params, id: home.id } } : exchange;
      });
    },
  },
  {
    id: 'ho40-vault-cache-keyed-by-column-width',
    clause: 'vault.path.id.length',
    level: 'contract',
    bug: `A Go vault service with a read-through LRU cache in front of the handler, keyed by the id cut to the column's width (id[:${VAULT_ID_MAX}], the key type being a fixed [${VAULT_ID_MAX}]byte array), the length check (len(id) <= ${VAULT_ID_MAX}) living in the handler behind it: once a connection has been read, its id with a character appended is answered 200 with its record from the cache instead of 400; before that first read the same id is refused 400, and so is an overlong id of a connection never read.`,
    install: (app) => {
      const cached = new Set<string>();
      app.wrapRoute('vault', (next) => async (exchange) => {
        const id = exchange.params.id;
        const hit = id !== undefined && id.length > VAULT_ID_MAX && cached.has(id.slice(0, VAULT_ID_MAX));
        const reply = await next(hit ? { ...exchange, params: { ...exchange.params, id: id.slice(0, VAULT_ID_MAX) } } : exchange);
        if (reply.status === OK && id !== undefined && id.length <= VAULT_ID_MAX) cached.add(id);
        return reply;
      });
    },
  },
  {
    id: 'ho40-both-path-ids-reported-by-joi-details',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'A hapi redelivery route whose params are validated with Joi under abortEarly: false and a failAction that maps one detail to the service\'s error ({errorCode: "invalid_uri", message: "Path validation error: ..."}) but, for several details, falls through to Boom.badRequest(err.details.map(d => d.message).join(". ")): a path whose stream id and event id are both of the wrong length is answered 400 without errorCode and with Joi\'s messages instead of invalid_uri "Path validation error:"; either id alone of the wrong length is answered as before.',
    install: (app) => {
      const components = captureAll(app);
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        const reply = await next(exchange);
        const { id, event_id: eventId } = exchange.params;
        if (reply.status !== BAD_REQUEST || id === undefined || eventId === undefined) return reply;
        if (id.length === ID_LENGTH || eventId.length === ID_LENGTH) return reply;
        const message = `"id" length must be ${ID_LENGTH} characters long. "event_id" length must be ${ID_LENGTH} characters long`;
        const plain = components().errors.reply('bad_request');
        return answeredInstead(reply, { ...plain, body: { statusCode: BAD_REQUEST, error: 'Bad Request', message } });
      });
    },
  },
]);
