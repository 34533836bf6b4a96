// Success answers: an ASP.NET Core service whose System.Text.Json options set
// ReferenceHandler.Preserve (to get past an Entity Framework navigation cycle), which writes "$id"
// into every object it serialises. The record's fields are as before.
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho35-vault-record-stj-reference-preserve',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'An ASP.NET Core service configured with builder.Services.ConfigureHttpJsonOptions(o => o.SerializerOptions.ReferenceHandler = ReferenceHandler.Preserve), set to stop an Entity Framework navigation cycle from throwing, and Preserve writes metadata into every object: the vault record answers {"$id": "1", "id": ..., ...} instead of the fields of section 2.1 alone; the fields themselves are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => (isObject(reply.body) ? { ...reply, body: { $id: '1', ...reply.body } } : reply)),
  },
]);
