// A JWKS served from a cache made before the key was renamed: the published key carries an old kid,
// so a client that selects the key by the token's kid finds none.
import type { Fault } from './fault.ts';
import { editReplies } from './support/route-edits.ts';

const OK = 200;

export const jwksPublishesStaleKid: Fault = {
  id: 'jwks-publishes-stale-kid',
  clause: 'token.observed.jwks',
  description: 'The JWKS publishes the signing key under another kid than the tokens carry, so it does not verify them.',
  install(app) {
    editReplies(app, ['jwks'], (reply) => {
      if (reply.status !== OK) return reply;
      const { keys } = reply.body as { keys: Array<{ kid: string }> };
      return { ...reply, body: { keys: keys.map((key) => ({ ...key, kid: `${key.kid}-previous` })) } };
    });
  },
};
