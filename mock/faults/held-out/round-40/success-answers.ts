// Success answers, where one record meets another or two of its fields meet: a Go handler that
// decodes every row into one package-level struct; a serializer that omits updated_at when it
// equals created_at. Other answers are as before.
import { editSuccessReplies, withoutBodyField } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho40-vault-row-decoded-into-shared-struct',
    clause: 'vault.response.record',
    level: 'contract',
    bug: "A Go vault handler that decodes each row's JSON document with json.Unmarshal(row.Doc, &resp) into a package-level var resp ConnectionResponse (hoisted to save an allocation), json.Unmarshal leaving the fields a document lacks as they were: a connection without optional fields read after one with them is answered with the other's environment, account_name and refreshed_at; read first, or after another connection without them, it is answered as stored, and a connection with every field is answered as stored whatever came before.",
    install: (app) => {
      let resp: Json = {};
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body)) return reply;
        resp = { ...resp, ...reply.body };
        return { ...reply, body: { ...resp } };
      });
    },
  },
  {
    id: 'ho40-updated-at-omitted-when-equal-to-created',
    clause: 'vault.record.updated_at',
    level: 'contract',
    bug: 'A Rails vault serializer (ActiveModel::Serializer) with attribute :updated_at, if: -> { object.updated_at != object.created_at } (written for a dashboard that shows "edited" only for rows changed since creation): a connection whose updated_at equals its created_at is answered without updated_at; a connection updated after its creation is answered with it as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && reply.body.updated_at !== undefined && reply.body.updated_at === reply.body.created_at
          ? withoutBodyField(reply, 'updated_at')
          : reply,
      ),
  },
]);
