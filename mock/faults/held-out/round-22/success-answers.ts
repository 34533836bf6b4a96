// Success answers: a vault record's refreshed_at, a google.protobuf.Timestamp, written by Go's
// encoding/json instead of protojson ({"seconds": ...}), its fingerprint kept as a Node Buffer and
// serialised by JSON.stringify ({"type": "Buffer", "data": [...]}); and the observed rules: the
// record read from a DynamoDB single-table design with its key attributes left on, and a custom
// domain's punycode labels shown in Unicode in the ticket URL. Each changes one thing of the answer;
// the rest is as before.
import { domainToUnicode } from 'node:url';
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const HEX = /^(?:[0-9a-f]{2})+$/i;
/** The host of a ticket URL, as written. */
const TICKET_HOST = /^(https:\/\/)([^/?#]+)(.*)$/;

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho22-refreshed-at-protobuf-timestamp-struct',
    clause: 'vault.record.refreshed_at',
    level: 'contract',
    bug: 'refreshed_at, added to the record\'s protobuf message as a google.protobuf.Timestamp, written by a Go handler with encoding/json instead of protojson, which prints the struct\'s fields (nanos dropped by omitempty when 0): "refreshed_at": {"seconds": 1727771400} instead of "2024-10-01T08:30:00.000Z"; created_at and updated_at, kept as strings, are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.refreshed_at !== 'string') return reply;
        const ms = Date.parse(reply.body.refreshed_at);
        if (!Number.isFinite(ms)) return reply;
        const seconds = Math.floor(ms / 1000);
        const nanos = (ms - seconds * 1000) * 1_000_000;
        return { ...reply, body: { ...reply.body, refreshed_at: nanos === 0 ? { seconds } : { seconds, nanos } } };
      }),
  },
  {
    id: 'ho22-fingerprint-node-buffer-json',
    clause: 'vault.record.fingerprint',
    level: 'contract',
    bug: 'The fingerprint kept in a BINARY(16) column, read by mysql2 as a Node Buffer and put in the answer as it is, which JSON.stringify writes with Buffer.prototype.toJSON: "fingerprint": {"type": "Buffer", "data": [109, 140, ...]} instead of the string; the other fields are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.fingerprint === 'string' && HEX.test(reply.body.fingerprint)
          ? { ...reply, body: { ...reply.body, fingerprint: Buffer.from(reply.body.fingerprint, 'hex').toJSON() } }
          : reply,
      ),
  },
  {
    id: 'ho22-vault-record-dynamodb-keys',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'The record read from a DynamoDB single-table design and unmarshalled whole, its key attributes left on: the answer carries "PK": "CONNECTION#<id>" and "SK": "METADATA" besides the fields of section 2.1; those fields are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.id === 'string'
          ? { ...reply, body: { PK: `CONNECTION#${reply.body.id}`, SK: 'METADATA', ...reply.body } }
          : reply,
      ),
  },
  {
    id: 'ho22-ticket-host-idna-to-unicode',
    clause: 'sso-ticket.custom-domain.host',
    level: 'observed',
    bug: 'The ticket URL built from the custom domain after the host is passed through IDNA ToUnicode (a display helper shared with the dashboard): with tenant-custom-domain "xn--mnchen-3ya.example" the ticket is on "münchen.example" instead of that custom domain as given; an ASCII custom domain is as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.ticket !== 'string') return reply;
        const parts = TICKET_HOST.exec(reply.body.ticket);
        if (!parts || !/(^|\.)xn--/i.test(parts[2]!)) return reply;
        const host = domainToUnicode(parts[2]!);
        return host === '' || host === parts[2] ? reply : { ...reply, body: { ...reply.body, ticket: `${parts[1]}${host}${parts[3]}` } };
      }),
  },
]);
