// Requests and path ids: a stream id and an event id trimmed of spaces before their length is
// checked. Each lets its near miss through; a plainly wrong
// id is answered as before.
import type { Exchange } from '../../../exchange.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};
const withParam = (exchange: Exchange, name: string, value: string): Exchange => ({
  ...exchange,
  params: { ...exchange.params, [name]: value },
});

export const requestFaults = heldOutFamily([
  {
    id: 'ho17-stream-id-trimmed',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: 'Path values trimmed (value.trim(), a form-field habit) before their length is checked: a stream id followed by %20 is taken for the stream and the event redelivered instead of 400; a stream id with one more letter is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const raw = exchange.params.id;
        const once = raw === undefined ? undefined : decodedOnce(raw);
        if (once === undefined || once.trim() === once || once.trim().length === 0) return exchange;
        return withParam(exchange, 'id', encodeURIComponent(once.trim()));
      }),
  },
  {
    id: 'ho17-event-id-trimmed',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: 'The event id read with a trailing-whitespace strip (a CSV-import helper): an event id followed by %20 is redelivered instead of 400; an event id with one more letter is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const raw = exchange.params.event_id;
        const once = raw === undefined ? undefined : decodedOnce(raw);
        if (once === undefined || once.trimEnd() === once || once.trimEnd().length === 0) return exchange;
        return withParam(exchange, 'event_id', encodeURIComponent(once.trimEnd()));
      }),
  },
]);
