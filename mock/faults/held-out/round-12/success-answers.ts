// Success answers: the vault record's updated_at touched by an ORM when the record is read, ready
// answered as a PostgreSQL boolean's text, and account_name given a handle's "@" by a display
// serializer; and the observed rule: the fingerprint passed through a number and back, its
// leading zeros lost. Each changes one value; everything else is answered as before.
import { capture } from '../../support/captured.ts';
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;

/** The record answered with `edit` applied to its fields. */
function editRecord(edit: (record: Fields) => Fields) {
  return <R extends { body?: unknown }>(reply: R): R =>
    reply.body !== null && typeof reply.body === 'object' ? { ...reply, body: edit(reply.body as Fields) } : reply;
}

const HEX = /^[0-9a-f]+$/;

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho12-vault-updated-at-touched-on-read',
    clause: 'vault.response.record',
    level: 'contract',
    bug: "The record loaded through an ORM entity whose updated_at is an @UpdateDateColumn, and the read handler saves the entity after it refreshes the connection's status, so the column is touched on every read: updated_at is answered as the time of the read instead of the connection's own; the other fields are the record's.",
    install: (app) => {
      const clock = capture(app, 'clock');
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) =>
          typeof record.updated_at === 'string' ? { ...record, updated_at: new Date(clock().now()).toISOString() } : record,
        ),
      );
    },
  },
  {
    id: 'ho12-vault-ready-postgres-text',
    clause: 'vault.record.ready',
    level: 'contract',
    bug: 'The record read with a PostgreSQL driver whose type parsers were turned off (to keep timestamps as text), so boolean columns come back as their text: ready is answered "t" or "f" instead of true or false; the other fields are as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) => (typeof record.ready === 'boolean' ? { ...record, ready: record.ready ? 't' : 'f' } : record)),
      ),
  },
  {
    id: 'ho12-vault-account-name-handle',
    clause: 'vault.record.account_name',
    level: 'contract',
    bug: 'account_name passed through the display serializer of the chat providers\' accounts, which writes it as a handle with a leading "@": "acme-workspace" is answered "@acme-workspace", and an account name at the 150-character maximum is answered with 151 characters, over it; connections without one are answered as before.',
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) => (typeof record.account_name === 'string' ? { ...record, account_name: `@${record.account_name}` } : record)),
      ),
  },
  {
    id: 'ho12-vault-fingerprint-number-round-trip',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: "The fingerprint kept as a number (BigInt('0x' + hex), for a compact column) and written back with toString(16), which drops leading zeros: a fingerprint starting with 0 is answered with 31 hexadecimal digits instead of 32; other fingerprints are as before.",
    install: (app) =>
      editSuccessReplies(
        app,
        'vault',
        editRecord((record) =>
          typeof record.fingerprint === 'string' && HEX.test(record.fingerprint)
            ? { ...record, fingerprint: BigInt(`0x${record.fingerprint}`).toString(16) }
            : record,
        ),
      ),
  },
]);
