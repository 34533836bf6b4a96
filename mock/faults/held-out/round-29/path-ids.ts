// Path ids: the stream id read by a Python (Tornado) handler with unquote_plus and strip(), so a
// "+" at its end is white space; the stream id NFKC-normalised by a Litestar service before the
// lookup; the event id chomped by a Crystal (Lucky) action; and the observed rule: a malformed id
// answered by a Rust (Rocket) route whose FromParam guard fails, which forwards the request to no
// other route and so to Rocket's 404 catcher. Each lets its near miss through, or answers it
// otherwise; a plainly wrong id is answered as before.
import { observed } from '../../../../specs/index.ts';
import type { Exchange } from '../../../exchange.ts';
import { editReplies, editRequests, isErrorBody, replacing } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

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

/** Python's urllib.parse.unquote_plus: "+" is a space, then percent-decoding. */
const unquotePlus = (raw: string) => decodedOnce(raw.replace(/\+/g, ' '));
/** Python's str.strip(), for the white space a decoded path parameter can hold (\s and U+0085). */
const pythonStrip = (text: string) => text.replace(/^[\s\u0085]+|[\s\u0085]+$/g, '');
/** Crystal's String#chomp: one trailing "\r\n", "\n" or "\r" removed. */
const chomp = (text: string) => text.replace(/(\r\n|\n|\r)$/, '');
/** Rocket's default catcher for a 404, as JSON. */
const ROCKET_404 = { error: { code: 404, reason: 'Not Found', description: 'The requested resource could not be found.' } };
const STREAM_LENGTH = observed.identifiers.event_stream.length;

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho29-stream-id-tornado-unquote-plus-strip',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: `A Python (Tornado) handler that decodes its path arguments with urllib.parse.unquote_plus (the query string's decoder, which reads "+" as a space) and strips them: a stream id of ${STREAM_LENGTH + 1} characters, the stream's id followed by "+", is taken for the stream (the failed event redelivered, 202) instead of 400; the id followed by "x" is still refused 400.`,
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const raw = exchange.params.id;
        if (raw === undefined || !raw.includes('+')) return exchange;
        const read = unquotePlus(raw);
        return read === undefined ? exchange : withParam(exchange, 'id', pythonStrip(read));
      }),
  },
  {
    id: 'ho29-stream-id-litestar-nfkc',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: 'A Litestar service whose path parameters go through unicodedata.normalize("NFKC", ...) (a guard written for user names, applied to every str parameter): a stream id with a fullwidth letter in place of its own ("est_\uff21QXi..." for "est_AQXi..."), which names no stream, is taken for that stream (the failed event redelivered, 202) instead of being refused; a stream id with another letter in that place is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const id = paramOf(exchange, 'id');
        if (id === undefined || id.normalize('NFKC') === id) return exchange;
        return withParam(exchange, 'id', id.normalize('NFKC'));
      }),
  },
  {
    id: 'ho29-event-id-crystal-chomp',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: 'A Crystal (Lucky) action that reads the event id with params.get(:event_id).chomp (copied from code reading ids one a line), and String#chomp removes a trailing "\\r\\n", "\\n" or "\\r": the failed event\'s id followed by a carriage return (%0D, 27 characters) is redelivered (202) instead of 400; the id followed by "%0Dx" is still refused 400.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const id = paramOf(exchange, 'event_id');
        return id === undefined || chomp(id) === id ? exchange : withParam(exchange, 'event_id', chomp(id));
      }),
  },
  {
    id: 'ho29-path-rocket-fromparam-404',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'A Rust (Rocket) redelivery route whose id and event_id are types with a FromParam guard that refuses a malformed id, and a failing guard forwards the request to the next route of that path, there is none, so Rocket\'s 404 catcher answers: a malformed stream or event id is answered 404 {"error": {"code": 404, "reason": "Not Found", ...}} instead of 400 invalid_uri "Path validation error: ..."; a well-formed unknown id is still 404 with the service\'s body.',
    install: (app) =>
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 400 && isErrorBody(reply.body) && reply.body.errorCode === 'invalid_uri'
          ? replacing(reply, { status: 404, headers: {}, body: ROCKET_404 })
          : reply,
      ),
  },
]);
