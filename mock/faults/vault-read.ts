// The vault read's answer as a whole (spec 4.3, 9): where it is served. Its status, content type and
// which record it answers break by the faults every card gets (operation-answers.ts); its
// record's fields are vault-record.ts's.
import { faultFamily } from './fault.ts';
import { capture } from './support/captured.ts';
import { editReplies, replacing } from './support/route-edits.ts';

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
]);
