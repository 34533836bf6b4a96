// Path ids: the event id matched by a Phoenix controller with an Elixir binary pattern, whose size
// counts bytes; and the observed rule: the vault connection id checked by a Go (echo) service with
// the one custom validator its handlers share for every resource id, which knows the shape of an id
// (a short prefix, an underscore, 22 base58 characters) but not which prefix each resource has.
// Each answers its near miss otherwise; a plainly wrong id is refused as before.
import { observed } from '../../../../specs/index.ts';
import type { Exchange } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

/** The shared validator's rule: a resource id of any type (validate:"resource_id"). */
const ANY_RESOURCE_ID = /^[a-z]{2,3}_[1-9A-HJ-NP-Za-km-z]{22}$/;
const INVALID_URI = observed.errors.invalid_uri!.errorCode!;
const VAULT_MAX = 30;

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};
const paramOf = (exchange: Exchange, name: string) =>
  exchange.params[name] === undefined ? undefined : decodedOnce(exchange.params[name]);
const idOf = (exchange: Exchange) => paramOf(exchange, 'id');

const EVENT = observed.identifiers.event;
/** <<"evt_", _::binary-size(22)>>: the prefix, then 22 bytes. */
const elixirBinaryMatch = (id: string) => id.startsWith(EVENT.prefix) && Buffer.byteLength(id, 'utf8') === EVENT.length;

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho30-event-id-elixir-binary-size',
    clause: 'redeliver.path.event_id.length',
    level: 'contract',
    bug: `A Phoenix redelivery action that checks the event id with a function head def valid_event_id?(<<"${EVENT.prefix}", _::binary-size(22)>>), do: true, and binary-size counts bytes, not characters: an event id of ${EVENT.length - 1} characters, one of them two bytes long in UTF-8 ("${EVENT.prefix}" then 20 letters and "é", ${EVENT.length} bytes), is looked up (and answered 404) instead of refused 400; an id of ${EVENT.length + 1} ASCII characters is still 400.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      const store = capture(app, 'store');
      editReplies(app, ['redeliver'], (reply, exchange) => {
        const eventId = paramOf(exchange, 'event_id');
        const streamId = paramOf(exchange, 'id');
        if (reply.status !== 400 || !isErrorBody(reply.body) || reply.body.errorCode !== INVALID_URI) return reply;
        if (eventId === undefined || streamId === undefined || !elixirBinaryMatch(eventId)) return reply;
        if ([...streamId].length !== observed.identifiers.event_stream.length) return reply;
        const found = store().stream(streamId) ? store().event(streamId, eventId) : undefined;
        if (found) return reply;
        return answeredInstead(reply, errors().reply(store().stream(streamId) ? 'event_not_found' : 'stream_not_found'));
      });
    },
  },
  {
    id: 'ho30-vault-id-echo-shared-resource-validator',
    clause: 'errors.400.path',
    level: 'observed',
    bug: `A Go (echo) service whose handlers bind their path ids into structs tagged validate:"resource_id", one go-playground custom validator for every resource (${ANY_RESOURCE_ID.source}), which checks the shape of an id and not its resource's prefix: a vault read of a well-formed id of another resource ("est_..." of 26 characters, within the ${VAULT_MAX} allowed) is answered 404 "Connection not found" instead of 400 invalid_uri; an "ac_" id holding a "0" (no base58 character) is still 400.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['vault'], (reply, exchange) => {
        const id = idOf(exchange);
        return reply.status === 400 &&
          isErrorBody(reply.body) &&
          reply.body.errorCode === INVALID_URI &&
          id !== undefined &&
          id.length <= VAULT_MAX &&
          ANY_RESOURCE_ID.test(id)
          ? answeredInstead(reply, errors().reply('vault_connection_not_found'))
          : reply;
      });
    },
  },
]);
