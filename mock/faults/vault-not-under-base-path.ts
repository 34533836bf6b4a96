// The vault read mounted under another prefix than the version 2 base path: /api/v2 answers 404
// for it. Every test of the vault read fails with it; the other operations are where the spec says.
import type { Fault } from './fault.ts';
import { capture } from './support/captured.ts';
import { editReplies, replacing } from './support/route-edits.ts';

export const vaultNotUnderBasePath: Fault = {
  id: 'vault-not-under-base-path',
  clause: 'versioning.base-path',
  description: 'The vault read is not served under /api/v2: every request there is answered 404 Not Found (so every vault test fails).',
  install(app) {
    const errors = capture(app, 'errors');
    editReplies(app, ['vault'], (reply) => replacing(reply, errors().reply('route_not_found')));
  },
};
