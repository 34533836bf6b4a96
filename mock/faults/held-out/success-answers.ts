// What the operations answer when they succeed, where the real service's answer is recorded: a
// ticket body with one key more, ticket codes of another alphabet, and vault timestamps written
// without their milliseconds. Each changes one thing of one answer.
import { randomBytes } from 'node:crypto';
import { observed, schemaAt } from '../../../specs/index.ts';
import { capture } from '../support/captured.ts';
import { editSuccessReplies } from '../support/route-edits.ts';
import { heldOutFamily } from './held-out-fault.ts';

/** Bytes whose base64url text has the ticket code's length (4 characters per 3 bytes). */
const CODE_BYTES = (observed.ticket.code_length / 4) * 3;
/** The default ticket lifetime (ttl_sec omitted), which the convenience field assumes. */
const DEFAULT_TTL_MS =
  (schemaAt({ operation: 'sso-ticket', in: 'body', property: 'ttl_sec' })['x-default-when-omitted-or-zero'] as number) * 1000;
const TIMESTAMP_FIELDS = ['created_at', 'updated_at', 'refreshed_at'];

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho-ticket-answer-with-expiry',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: 'A ticket answer that also says when the ticket expires, as a convenience: the body is {"ticket": ..., "expires_at": ...} instead of the ticket alone.',
    install(app) {
      const clock = capture(app, 'clock');
      editSuccessReplies(app, 'sso-ticket', (reply) => ({
        ...reply,
        body: { ...(reply.body as Record<string, unknown>), expires_at: new Date(clock().now() + DEFAULT_TTL_MS).toISOString() },
      }));
    },
  },
  {
    id: 'ho-ticket-code-base64url',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: `Ticket codes made as randomBytes(${CODE_BYTES}).toString("base64url"): ${observed.ticket.code_length} characters as recorded, but about two codes in three hold "-" or "_", not only letters and digits.`,
    install: (app) => app.override('ticketCodes', () => () => randomBytes(CODE_BYTES).toString('base64url')),
  },
  {
    id: 'ho-vault-timestamps-without-milliseconds',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'Timestamps formatted to the second ("2024-09-12T12:52:16Z"): still ISO 8601, but not the millisecond UTC form the real service writes.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const record = { ...(reply.body as Record<string, unknown>) };
        for (const field of TIMESTAMP_FIELDS) {
          if (typeof record[field] === 'string') record[field] = record[field].replace(/\.\d{3}Z$/, 'Z');
        }
        return { ...reply, body: record };
      }),
  },
]);
