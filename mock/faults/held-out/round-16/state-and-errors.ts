// State, and how the interface refuses: a redelivery's write that marks the event failed before
// the state guard refuses it, and stream ids looked up by a Number made from their base58 digits;
// and the observed rule: not-found errors answered with String(error). Each changes the answer to
// one near miss; the others are as before.
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const { base58_alphabet: BASE58, event_stream: STREAM } = observed.identifiers;
const STREAM_SHAPE = new RegExp(`^${STREAM.prefix}[${BASE58}]{${STREAM.length - STREAM.prefix.length}}$`);
const ERROR_CLASS = 'NotFoundError';

/** The path value decoded, or undefined when its percent-encoding is bad. */
function decoded(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** A stream id's base58 digits read as one integer, then made a Number (53 bits of it kept). */
function numericKey(id: string): number {
  let value = 0n;
  for (const digit of id.slice(STREAM.prefix.length)) value = value * 58n + BigInt(BASE58.indexOf(digit));
  return Number(value);
}

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho16-refused-redelivery-marks-event-failed',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: 'The redelivery handler saves the event as failed (queued for redelivery) before its state guard throws, and the save is not rolled back when the 409 is answered (no transaction around the update and the check): a delivered (or pending) event is refused 409 the first time and redelivered (202) the second, instead of 409 every time; a failed event is redelivered as before.',
    install: (app) => {
      const store = capture(app, 'store');
      editReplies(app, ['redeliver'], (reply, exchange) => {
        if (reply.status !== 409) return reply;
        const stream = decoded(exchange.params.id);
        const event = decoded(exchange.params.event_id);
        const found = stream !== undefined && event !== undefined ? store().event(stream, event) : undefined;
        if (found) found.status = 'failed';
        return reply;
      });
    },
  },
  {
    id: 'ho16-stream-id-numeric-key',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: "Streams kept under a numeric key made from their id's base58 digits (bs58 decoded into a BigInt, then Number() for the driver's integer column), which keeps 53 of its 128 bits: a stream id whose last characters differ from an existing stream's is taken for that stream and its event redelivered (202) instead of 404; an id that differs in its eleventh character is still answered 404.",
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'redeliver', (exchange) => {
        const id = decoded(exchange.params.id);
        if (id === undefined || !STREAM_SHAPE.test(id) || store().stream(id)) return exchange;
        const key = numericKey(id);
        const twin = store()
          .streams()
          .find((stream) => STREAM_SHAPE.test(stream.id) && numericKey(stream.id) === key);
        return twin ? { ...exchange, params: { ...exchange.params, id: twin.id } } : exchange;
      });
    },
  },
  {
    id: 'ho16-not-found-message-from-string',
    clause: 'errors.404.vault',
    level: 'observed',
    bug: `Not-found refusals thrown as ${ERROR_CLASS} and answered with \`\${error}\` (String(error), "<name>: <message>") where error.message was meant: an unknown connection is answered 404 "${ERROR_CLASS}: Connection not found" instead of "Connection not found" (an unknown stream or event likewise); statusCode, error and the other refusals are as before.`,
    install: (app) =>
      editReplies(app, ['vault', 'redeliver'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && typeof reply.body.message === 'string'
          ? { ...reply, body: { ...reply.body, message: `${ERROR_CLASS}: ${reply.body.message}` } }
          : reply,
      ),
  },
]);
