// The answers' bodies: updated_at written by an SAP ABAP service as its TIMESTAMPL packed number,
// ready written with Delphi's BoolToStr, environment filled by a Progress OpenEdge temp-table's
// initial value, the id under SAP CAP's cuid key name; and the observed rule: the ticket code made
// by Delphi's TGUID.ToString. Each changes one part of the answer; the rest is as before.
import { randomUUID } from 'node:crypto';
import type { Reply } from '../../../exchange.ts';
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The record's body with one member rewritten by `edit` where it is a string. */
const editMember =
  (field: string, edit: (value: string) => unknown) =>
  (reply: Reply): Reply =>
    isObject(reply.body) && typeof reply.body[field] === 'string'
      ? { ...reply, body: { ...reply.body, [field]: edit(reply.body[field]) } }
      : reply;

/** ABAP's TIMESTAMPL: YYYYMMDDhhmmss.fffffff as a packed decimal, written by /ui2/cl_json as a number. */
function timestampl(iso: string): number | string {
  const parts = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?Z$/.exec(iso);
  if (!parts) return iso;
  const [, y, mo, d, h, mi, s, fraction = '0'] = parts;
  return Number(`${y}${mo}${d}${h}${mi}${s}.${fraction}`);
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho32-updated-at-abap-timestampl',
    clause: 'vault.record.updated_at',
    level: 'contract',
    bug: 'An SAP ABAP service whose connection structure types updated_at as TIMESTAMPL (a packed number, YYYYMMDDhhmmss.fffffff) and serialises it with /ui2/cl_json=>serialize without ts_as_iso8601: updated_at is answered as the number 20240912125216.553 instead of an ISO 8601 date-time; created_at and refreshed_at (kept as strings) are as before.',
    install: (app) => editSuccessReplies(app, 'vault', editMember('updated_at', timestampl)),
  },
  {
    id: 'ho32-ready-delphi-booltostr',
    clause: 'vault.record.ready',
    level: 'contract',
    bug: 'A Delphi (DataSnap) service that writes the flag with TJSONString.Create(BoolToStr(Conn.Ready)), and BoolToStr without its second argument writes True as "-1" and False as "0": ready is answered "-1" or "0" instead of true or false; the other members are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.ready === 'boolean'
          ? { ...reply, body: { ...reply.body, ready: reply.body.ready ? '-1' : '0' } }
          : reply,
      ),
  },
  {
    id: 'ho32-environment-openedge-initial-empty',
    clause: 'vault.record.environment',
    level: 'contract',
    bug: 'A Progress OpenEdge service that answers from a temp-table written with WRITE-JSON, whose CHARACTER fields start as "" (their INITIAL value), so a field never set is written rather than left out: a connection without an environment is answered with environment "" (and account_name "") instead of leaving them out; a connection that has them is as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body)) return reply;
        const body = { ...reply.body };
        for (const field of ['environment', 'account_name']) if (body[field] === undefined) body[field] = '';
        return { ...reply, body };
      }),
  },
  {
    id: 'ho32-vault-id-cap-cuid-key',
    clause: 'vault.record.id',
    level: 'contract',
    bug: 'An SAP CAP service whose VaultConnections entity uses the cuid aspect, whose key is named ID, and answers the entity as CAP reads it: the record has "ID": "ac_..." and no id member; the other members are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.id !== 'string') return reply;
        const { id, ...rest } = reply.body;
        return { ...reply, body: { ID: id, ...rest } };
      }),
  },
  {
    id: 'ho32-ticket-code-delphi-guid-braces',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: "A Delphi service that makes the ticket code with TGUID.NewGuid.ToString, which writes a GUID in capitals between braces, and puts it in the URL as it is: the ticket URL ends ?ticket={8F2C...-...} (38 characters with hyphens and braces) instead of 32 alphanumerics; the URL's host and path are as before.",
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) =>
        editMember('ticket', (value) => value.replace(/([?&]ticket=)[^&]*/, `$1{${randomUUID().toUpperCase()}}`))(reply),
      ),
  },
]);
