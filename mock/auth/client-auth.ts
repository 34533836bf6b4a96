// Client authentication at the token endpoint. Secrets are compared in constant time, over
// digests so that lengths do not leak either, and an unknown client costs the same comparison as
// a known one: the answer and its timing say nothing about which client ids exist.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Client, Store } from '../store.ts';

const UNKNOWN_CLIENT_DIGEST = digest('no client has this secret');

export function authenticateClient(store: Store, clientId: string, secret: string): Client | undefined {
  const client = store.client(clientId);
  // A key-only client has no secret: the comparison still runs, against a digest nothing matches.
  const matches = timingSafeEqual(digest(secret), client?.secret !== undefined ? digest(client.secret) : UNKNOWN_CLIENT_DIGEST);
  return client && matches ? client : undefined;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
