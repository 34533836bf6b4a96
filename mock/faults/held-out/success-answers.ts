// What the operations answer when they succeed, where the real service's answer is recorded: a
// ticket body with one key more, ticket codes holding characters outside the recorded alphabet,
// and vault timestamps written without their milliseconds. Each changes one thing of one answer.
import { randomUUID } from 'node:crypto';
import { observed, schemaAt } from '../../../specs/index.ts';
import { capture } from '../support/captured.ts';
import { editSuccessReplies } from '../support/route-edits.ts';
import { heldOutFamily } from './held-out-fault.ts';

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
    id: 'ho-ticket-code-cut-from-a-uuid',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: `Ticket codes made as randomUUID() cut to the recorded ${observed.ticket.code_length} characters: as long as recorded, but holding the UUID's dashes ("3f2504e0-4f89-41d3-9a0c-0305e82c"), not only letters and digits.`,
    install: (app) => app.override('ticketCodes', () => () => randomUUID().slice(0, observed.ticket.code_length)),
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
