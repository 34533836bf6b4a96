// Path ids: the vault connection looked up by an Express service in a plain object keyed by id, so
// a name of Object.prototype finds something; and the observed rule: the stream id checked with
// validator.js's isLength, which does not count a variation selector. Each answers its near miss
// otherwise; a plainly wrong id is answered as before.
import { observed } from '../../../../specs/index.ts';
import type { Exchange } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};
const paramOf = (exchange: Exchange, name: string) =>
  exchange.params[name] === undefined ? undefined : decodedOnce(exchange.params[name]);

/** The names a plain object's lookup finds on Object.prototype. */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
const STREAM = observed.identifiers.event_stream;
/** validator.js's isLength: length less variation selectors (U+FE0E, U+FE0F) and surrogate pairs. */
const validatorLength = (text: string) =>
  text.length - (text.match(/[\uFE0E\uFE0F]/g)?.length ?? 0) - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
const STREAM_START = new RegExp(`^${STREAM.prefix}[A-Za-z0-9]{${STREAM.length - STREAM.prefix.length}}`);

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho33-vault-id-object-prototype-key',
    clause: 'vault.response.record',
    level: 'contract',
    bug: 'An Express service that checks only the length of the id (at most 30 characters, as the spec states), keeps the connections in a plain object and reads const record = connections[req.params.id]; if (!record) return 404; res.json(record), and a name of Object.prototype finds the inherited function, which res.json writes as nothing: GET of the connection "constructor" (or "toString", "hasOwnProperty") is answered 200 with an empty body instead of being refused; an unknown connection id is still refused (404), and "constructors" still refused.',
    install: (app) =>
      editReplies(app, ['vault'], (reply, exchange) => {
        const id = paramOf(exchange, 'id');
        return (reply.status === 404 || reply.status === 400) && id !== undefined && PROTOTYPE_NAMES.has(id)
          ? { status: 200, headers: { ...reply.headers, 'content-type': 'application/json; charset=utf-8' } }
          : reply;
      }),
  },
  {
    id: 'ho33-stream-id-validator-islength-selector',
    clause: 'errors.400.path',
    level: 'observed',
    bug: `A Node service that checks the stream id with validator.js, isLength(id, { min: ${STREAM.length}, max: ${STREAM.length} }) && matches(id, /^${STREAM.prefix}[A-Za-z0-9]{${STREAM.length - STREAM.prefix.length}}/), and isLength does not count a variation selector (U+FE0F) while the pattern has no end anchor: the stream's id followed by %EF%B8%8F is looked up and answered 404 "The requested stream does not exist." instead of 400 invalid_uri; the id followed by "x" is still 400.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply, exchange) => {
        const id = paramOf(exchange, 'id');
        return reply.status === 400 &&
          isErrorBody(reply.body) &&
          reply.body.errorCode === 'invalid_uri' &&
          id !== undefined &&
          validatorLength(id) === STREAM.length &&
          STREAM_START.test(id)
          ? answeredInstead(reply, errors().reply('stream_not_found'))
          : reply;
      });
    },
  },
]);
