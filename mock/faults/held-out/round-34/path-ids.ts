// Path ids: an Appwrite function that checks the vault connection id with Appwrite's own UID
// validator, which allows 36 characters, where the interface allows 30; and the observed rule: a
// Hasura REST endpoint over a by_pk query, which answers an unknown id with null.
import { editPathParameter } from '../../support/parameter-edits.ts';
import { editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

/** Appwrite's UID validator: at most 36 characters, letters, digits, period, hyphen, underscore. */
const APPWRITE_UID = /^[A-Za-z0-9][A-Za-z0-9._-]{30,35}$/;

export const pathIdFaults = heldOutFamily([
  {
    id: 'ho34-vault-id-appwrite-uid-36',
    clause: 'vault.path.id.length',
    level: 'contract',
    bug: "An Appwrite function that validates the vault connection id with Appwrite's UID validator (at most 36 characters) instead of the interface's 30, then looks it up: an id of 31 to 36 characters (an existing id with characters appended) is answered 404 instead of 400; an id of 37 characters is still refused 400.",
    install: (app) =>
      editPathParameter(app, 'vault', 'id', (raw) =>
        APPWRITE_UID.test(raw) ? `${raw.slice(0, 29)}${raw[29] === 'z' ? 'y' : 'z'}` : undefined,
      ),
  },
  {
    id: 'ho34-vault-unknown-hasura-by-pk-null',
    clause: 'errors.404.vault',
    level: 'observed',
    bug: 'A Hasura RESTified endpoint over query ($id: String!) { vault_connections_by_pk(id: $id) { ... } }, and by_pk answers a missing row with null, not an error: an unknown (well-formed) vault connection id is answered 200 with the body null instead of 404 "Connection not found"; a malformed id is still refused 400.',
    install: (app) => editReplies(app, ['vault'], (reply) => (reply.status === 404 ? { ...reply, status: 200, body: null } : reply)),
  },
]);
