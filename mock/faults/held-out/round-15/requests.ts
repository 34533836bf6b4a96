// How a request is read: a vault id taken by the basename of its decoded form, and trailing dots
// taken off the stream id as a Windows front end does; and the observed rule: the stream id's
// alphabet checked as base62. Each changes the answer to one near miss; requests without it are
// answered as before.
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const { event_stream: STREAM, event: EVENT, base58_alphabet: BASE58, alphanumeric_alphabet: BASE62 } = observed.identifiers;
const idPattern = (prefix: string, alphabet: string, length: number) => new RegExp(`^${prefix}[${alphabet}]{${length - prefix.length}}$`);
const STREAM_BASE58 = idPattern(STREAM.prefix, BASE58, STREAM.length);
const STREAM_BASE62 = idPattern(STREAM.prefix, BASE62, STREAM.length);
const EVENT_BASE58 = idPattern(EVENT.prefix, BASE58, EVENT.length);

export const requestFaults = heldOutFamily([
  {
    id: 'ho15-vault-id-decoded-basename',
    clause: 'vault.path.id.length',
    level: 'contract',
    bug: 'The vault id decoded and passed through path.basename, so that a resource name in the Google API style ("connections/ac_...") works too: a path id "connections%2F<valid id>" (37 characters decoded) reads that record (200) instead of 400; "connections%2F<unknown id>" is still answered 404 and "connections-<valid id>" 400.',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const id = exchange.params.id;
        if (id === undefined || !/%2f/i.test(id)) return exchange;
        let decoded: string;
        try {
          decoded = decodeURIComponent(id);
        } catch {
          return exchange;
        }
        const base = decoded.split('/').pop() ?? '';
        return base.length > 0 ? { ...exchange, params: { ...exchange.params, id: base } } : exchange;
      }),
  },
  {
    id: 'ho15-stream-id-trailing-dots-dropped',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: 'The stream id seen through a Windows-hosted front end that takes trailing dots off a path segment (as the file system does with names): a stream id of 27 characters ending in "." (or more dots) is redelivered (202) instead of 400; a valid id followed by ".x" is still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const id = exchange.params.id;
        if (id === undefined || !id.endsWith('.')) return exchange;
        const stripped = id.replace(/\.+$/, '');
        return stripped.length > 0 ? { ...exchange, params: { ...exchange.params, id: stripped } } : exchange;
      }),
  },
  {
    id: 'ho15-stream-id-base62-alphabet',
    clause: 'errors.400.path',
    level: 'observed',
    bug: `The stream id's pattern written with the alphanumeric (base62) class the connection ids use, where stream ids are base58, so the four characters base58 leaves out ("0", "O", "I", "l") pass: a stream id with one of them is looked up and answered 404 instead of 400 invalid_uri; a stream id with "_" or "-" is still refused 400.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply, exchange) => {
        const { id, event_id: event } = exchange.params;
        return reply.status === 400 &&
          isErrorBody(reply.body) &&
          reply.body.errorCode === 'invalid_uri' &&
          id !== undefined &&
          event !== undefined &&
          STREAM_BASE62.test(id) &&
          !STREAM_BASE58.test(id) &&
          EVENT_BASE58.test(event)
          ? answeredInstead(reply, errors().reply('stream_not_found'))
          : reply;
      });
    },
  },
]);
