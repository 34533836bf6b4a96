// The answers' bodies and headers: created_at written as MongoDB Extended JSON by a bson json_util
// dump, refreshed_at written in Unix seconds by a Gleam service's birl.to_unix, the ticket answer
// typed text/plain by a Fastly Compute handler, the ticket URL percent-encoded by an Azure APIM
// set-body policy; and the observed rule: an OData "@odata.context" member added by ASP.NET Core
// OData. Each changes one part of the answer; the rest is as before.
import { editSuccessReplies, withContentType } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho27-created-at-mongo-extended-json',
    clause: 'vault.record.created_at',
    level: 'contract',
    bug: 'A Python service that answers the MongoDB document through bson.json_util.dumps (relaxed Extended JSON): created_at is written {"$date": "2024-09-12T12:52:16.553Z"} instead of the date-time string; the other members are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.created_at === 'string'
          ? { ...reply, body: { ...reply.body, created_at: { $date: reply.body.created_at } } }
          : reply,
      ),
  },
  {
    id: 'ho27-refreshed-at-gleam-unix-seconds',
    clause: 'vault.record.refreshed_at',
    level: 'contract',
    bug: "A Gleam service that encodes refreshed_at with json.int(birl.to_unix(time)) (the way its events table stores it): a connection's refreshed_at is answered as a number of seconds instead of a date-time string; created_at and updated_at are as before.",
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.refreshed_at === 'string'
          ? { ...reply, body: { ...reply.body, refreshed_at: Math.floor(Date.parse(reply.body.refreshed_at) / 1000) } }
          : reply,
      ),
  },
  {
    id: 'ho27-ticket-fastly-text-plain',
    clause: 'sso-ticket.response.content-type',
    level: 'contract',
    bug: 'A Fastly Compute handler that builds the ticket answer with Response::from_body(json_text) and no content type, so the platform types it text/plain; charset=utf-8: the 201 is typed text/plain instead of application/json; the body is the same JSON.',
    install: (app) => editSuccessReplies(app, 'sso-ticket', (reply) => withContentType(reply, 'text/plain; charset=utf-8')),
  },
  {
    id: 'ho27-ticket-url-apim-url-encoded',
    clause: 'sso-ticket.response.ticket',
    level: 'contract',
    bug: 'An Azure API Management policy that rewrites the ticket URL onto the public gateway with set-body and wraps the new value in System.Net.WebUtility.UrlEncode: the ticket is answered "https%3A%2F%2F..." (percent-encoded) instead of a URL; the status and the other members are as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) =>
        isObject(reply.body) && typeof reply.body.ticket === 'string'
          ? { ...reply, body: { ...reply.body, ticket: encodeURIComponent(reply.body.ticket) } }
          : reply,
      ),
  },
  {
    id: 'ho27-vault-odata-context',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'A connection controller served through ASP.NET Core OData, whose formatter adds "@odata.context": "<base>/$metadata#VaultConnections/$entity" to each entity: the record carries an extra "@odata.context" member; its own members are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body)
          ? { ...reply, body: { '@odata.context': '/api/v2/$metadata#VaultConnections/$entity', ...reply.body } }
          : reply,
      ),
  },
]);
