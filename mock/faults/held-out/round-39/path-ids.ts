// Path ids: a redelivery handler that checks the length of the composite key it builds from the two
// ids rather than each id. Other paths are judged as before.
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const ID_LENGTH = 26;

/** The id brought to the length the route checks, keeping its start (an id that names nothing). */
const sized = (id: string) => (id.length >= ID_LENGTH ? id.slice(0, ID_LENGTH) : id.padEnd(ID_LENGTH, 'x'));

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho39-redeliver-composite-key-length',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: `A DynamoDB-backed redelivery handler (Go) that builds the item key as streamID + "#" + eventID and validates the key, len(key) == ${2 * ID_LENGTH + 1}, in place of each id: a stream id one character short together with an event id one character long (the sum right) passes the check and is looked up, answered 404 instead of 400; an event id one character long beside a well-sized stream id, or a stream id one short beside a well-sized event id, is still refused 400.`,
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const { id, event_id: eventId } = exchange.params;
        if (id === undefined || eventId === undefined || id.length === ID_LENGTH || id.length + eventId.length !== 2 * ID_LENGTH)
          return exchange;
        return { ...exchange, params: { ...exchange.params, id: sized(id), event_id: sized(eventId) } };
      }),
  },
]);
