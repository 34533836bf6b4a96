// Success answers: a Firebase Admin service that stores the record's times as Firestore
// Timestamps and returns the document as it reads it, a Parse Server class whose refreshed_at is a
// Date column answered in Parse's own encoding, and a Drogon handler that answers the redelivery
// with newHttpJsonResponse(Json::Value()), whose default is null. Each changes only its field.
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

/** What a Firestore Timestamp serialises to with JSON.stringify. */
const firestoreTimestamp = (iso: string) => {
  const ms = Date.parse(iso);
  return { _seconds: Math.floor(ms / 1000), _nanoseconds: (ms % 1000) * 1_000_000 };
};

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho34-created-at-firestore-timestamp',
    clause: 'vault.record.created_at',
    level: 'contract',
    bug: 'A Firebase Admin (Cloud Functions) service that keeps created_at as a Firestore Timestamp and answers res.json(doc.data()), which serialises it as {"_seconds": ..., "_nanoseconds": ...}: the record\'s created_at is that object instead of an ISO 8601 date-time; the other fields are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.created_at === 'string'
          ? { ...reply, body: { ...reply.body, created_at: firestoreTimestamp(reply.body.created_at) } }
          : reply,
      ),
  },
  {
    id: 'ho34-refreshed-at-parse-date-object',
    clause: 'vault.record.refreshed_at',
    level: 'contract',
    bug: 'A Parse Server class whose refreshed_at is a Date column, answered through object.toJSON(), which encodes a Date as {"__type": "Date", "iso": "..."}: a record with refreshed_at answers it as that object instead of an ISO 8601 date-time; created_at and updated_at (Parse\'s own fields, which it writes as strings) are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.refreshed_at === 'string'
          ? { ...reply, body: { ...reply.body, refreshed_at: { __type: 'Date', iso: reply.body.refreshed_at } } }
          : reply,
      ),
  },
  {
    id: 'ho34-redeliver-drogon-json-null',
    clause: 'redeliver.response.body',
    level: 'observed',
    bug: 'A Drogon (C++) handler that answers the redelivery with HttpResponse::newHttpJsonResponse(Json::Value()), and a default-constructed Json::Value is null, not an object: the 202 body is null instead of {}; the status and content type are as before.',
    install: (app) => editSuccessReplies(app, 'redeliver', (reply) => (isObject(reply.body) ? { ...reply, body: null } : reply)),
  },
]);
