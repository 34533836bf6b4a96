// Path ids: a Flask length check on the event id copied from the stream id's and still reading
// the stream id; and a route converter that kept the stream ids of the old store (Mongo ObjectIds)
// after the move to the current ids. Other ids are judged as before.
import { editPathParameter } from '../../support/parameter-edits.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const ID_LENGTH = 26;
/** A well-formed id of each kind that names nothing: where a lookup of an id the check let through ends. */
const NO_EVENT = `evt_${'2'.repeat(ID_LENGTH - 4)}`;
const NO_STREAM = `est_${'2'.repeat(ID_LENGTH - 4)}`;
/** A Mongo ObjectId: 24 lower-case hexadecimal digits. */
const OBJECT_ID = /^[0-9a-f]{24}$/;

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho38-event-id-length-check-reads-stream-id',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: `A Flask view whose two path checks were written by copying the first: "if len(id) != ${ID_LENGTH}: abort(400, ...)" twice, the second meant for event_id but still reading id: an event id of 25 or 27 characters under a well-formed stream id is looked up, found nowhere, and answered 404 instead of 400; a stream id of the wrong length is still refused 400.`,
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const { id, event_id: eventId } = exchange.params;
        if (id === undefined || eventId === undefined || id.length !== ID_LENGTH || eventId.length === ID_LENGTH) return exchange;
        return { ...exchange, params: { ...exchange.params, event_id: NO_EVENT } };
      }),
  },
  {
    id: 'ho38-stream-id-legacy-objectid-converter',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: `A Werkzeug route "/event-streams/<any_stream_id:id>/redeliver/<event_id>" whose custom converter, written for the migration from MongoDB, accepts the old ObjectId form (24 hexadecimal digits) besides the ${ID_LENGTH}-character ids, so that links to streams created before the migration kept resolving: a stream id of 24 hexadecimal digits is looked up in the (empty) legacy collection and answered 404 instead of 400; a 24-character id that is not hexadecimal is still refused 400.`,
    install: (app) => editPathParameter(app, 'redeliver', 'id', (raw) => (OBJECT_ID.test(raw) ? NO_STREAM : undefined)),
  },
]);
