// Success answers: a Go service whose record has environment as a sql.NullString, and a Go
// handler that writes the redelivery's body before its status; and the observed rules: a Python
// ticket code that is bytes put in an f-string, and an Elixir (Ecto) schema whose timestamps are
// :utc_datetime, whole seconds. Each changes only what its row says.
import { editReplies, editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const MILLISECONDS = /\.\d{3}Z$/;

/** RFC 4648 base32 (no padding is needed for 20 bytes), as Python's base64.b32encode writes it. */
function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? out + BASE32[(value << (5 - bits)) & 31] : out;
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho36-environment-go-sql-nullstring',
    clause: 'vault.record.environment',
    level: 'contract',
    bug: 'A Go service whose record struct has Environment sql.NullString `json:"environment,omitempty"`, and sql.NullString has no MarshalJSON (and omitempty never omits a struct): environment is answered {"String": "<environment>", "Valid": true} instead of a string, and a connection without one answers {"String": "", "Valid": false}; the other fields are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body)) return reply;
        const environment = reply.body.environment;
        const nullString = typeof environment === 'string' ? { String: environment, Valid: true } : { String: '', Valid: false };
        return { ...reply, body: { ...reply.body, environment: nullString } };
      }),
  },
  {
    id: 'ho36-redeliver-go-superfluous-writeheader',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: 'A Go (net/http) handler that writes json.NewEncoder(w).Encode(struct{}{}) and then w.WriteHeader(http.StatusAccepted), and the first Write has already sent 200 ("http: superfluous response.WriteHeader call" in the log): a redelivery is answered 200 {} instead of 202; the refusals (409 for a delivered event) are as before.',
    install: (app) => editReplies(app, ['redeliver'], (reply) => (reply.status === 202 ? { ...reply, status: 200 } : reply)),
  },
  {
    id: 'ho36-ticket-code-python-bytes-fstring',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: 'A Python service that makes the ticket code with base64.b32encode(secrets.token_bytes(20)), which returns bytes, and builds the URL with f"https://{host}/self-service/connections-flow?ticket={code}", so the bytes\' repr goes in: the ticket is "...?ticket=b\'<32 base32 characters>\'" instead of 32 alphanumerics; the host and path are as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.ticket !== 'string') return reply;
        const url = reply.body.ticket;
        const at = url.indexOf('ticket=');
        if (at < 0) return reply;
        const code = url.slice(at + 'ticket='.length);
        const bytes = Buffer.concat([Buffer.from(code, 'utf8'), Buffer.alloc(20)]).subarray(0, 20);
        return { ...reply, body: { ...reply.body, ticket: `${url.slice(0, at)}ticket=b'${base32(bytes)}'` } };
      }),
  },
  {
    id: 'ho36-timestamps-ecto-utc-datetime-seconds',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'An Elixir (Phoenix) service whose Ecto schema declares timestamps(type: :utc_datetime), which truncates to whole seconds, encoded by Jason: created_at and updated_at are "2024-09-12T12:52:16Z" without milliseconds; refreshed_at, a :utc_datetime_usec field of its own copied from the provider, is as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body)) return reply;
        const body = { ...reply.body };
        for (const name of ['created_at', 'updated_at']) {
          const value = body[name];
          if (typeof value === 'string') body[name] = value.replace(MILLISECONDS, 'Z');
        }
        return { ...reply, body };
      }),
  },
]);
