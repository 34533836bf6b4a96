// The vault read's answer as a whole (spec 4.3, 9): where it is served, its status and content
// type, and which record it answers. Its record's fields are vault-record.ts's.
import { observed } from '../../specs/index.ts';
import { faultFamily } from './fault.ts';
import { capture } from './support/captured.ts';
import { editReplies, editSuccessReplies, replacing, withContentType } from './support/route-edits.ts';

const NON_AUTHORITATIVE = 203;
const ID_PREFIX_LENGTH = observed.identifiers.flows_vault_connection.prefix.length;

export const vaultReadFaults = faultFamily([
  {
    id: 'vault-not-under-base-path',
    clause: 'versioning.base-path',
    bug: 'The vault read mounted under another prefix than /api/v2: every request there is answered 404 Not Found (so every vault test fails; the other operations are where the spec says).',
    install(app) {
      const errors = capture(app, 'errors');
      editReplies(app, ['vault'], (reply) => replacing(reply, errors().reply('route_not_found')));
    },
  },
  {
    id: 'vault-203-from-cache',
    clause: 'vault.success.status',
    bug: 'A caching proxy that marks the answers it serves 203 Non-Authoritative Information: the vault read answers 203 instead of 200 (still a success, same record).',
    install: (app) => editSuccessReplies(app, 'vault', (reply) => ({ ...reply, status: NON_AUTHORITATIVE })),
  },
  {
    id: 'vault-content-type-text-plain',
    clause: 'vault.response.content-type',
    bug: 'A record written with a generic text writer: the vault read answers content type text/plain; charset=utf-8 instead of application/json (the body is still JSON).',
    install: (app) => editSuccessReplies(app, 'vault', (reply) => withContentType(reply, 'text/plain; charset=utf-8')),
  },
  {
    id: 'vault-answers-first-record-read',
    clause: 'vault.response.record',
    bug: 'A response cache keyed by the id\'s type prefix ("ac_") instead of the whole id: after the first read, every existing connection is answered with the first record read (unknown ids still get 404).',
    install(app) {
      const cache = new Map<string, unknown>();
      editSuccessReplies(app, 'vault', (reply, exchange) => {
        const key = (exchange.params.id ?? '').slice(0, ID_PREFIX_LENGTH);
        if (!cache.has(key)) cache.set(key, reply.body);
        return { ...reply, body: cache.get(key) };
      });
    },
  },
]);
