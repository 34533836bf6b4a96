// Success answers: ready answered as the driver's string, timestamps without their zone (a local
// date-time type), the ticket's answer sent as text/html; and the observed rules: the ticket URL
// joined with a doubled slash.
// Each changes one value or one header; everything else is answered as before.
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const TIMESTAMPS = ['created_at', 'updated_at', 'refreshed_at'];

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho17-ready-driver-string',
    clause: 'vault.record.ready',
    level: 'contract',
    bug: 'ready read from a BOOLEAN column through a driver that returns it as text (pg with the bool type parser removed): "true" instead of true; the other fields are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.ready === 'boolean'
          ? { ...reply, body: { ...reply.body, ready: String(reply.body.ready) } }
          : reply,
      ),
  },
  {
    id: 'ho17-timestamps-local-date-time',
    clause: 'vault.record.created_at',
    level: 'contract',
    bug: 'Timestamps serialised from a LocalDateTime-like type (no zone): "2024-09-12T12:52:16.553" instead of "2024-09-12T12:52:16.553Z", no RFC 3339 date-time; the date and time are as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body)
          ? {
              ...reply,
              body: Object.fromEntries(
                Object.entries(reply.body).map(([name, value]) => [
                  name,
                  TIMESTAMPS.includes(name) && typeof value === 'string' ? value.replace(/Z$/, '') : value,
                ]),
              ),
            }
          : reply,
      ),
  },
  {
    id: 'ho17-ticket-sent-as-html',
    clause: 'sso-ticket.response.content-type',
    level: 'contract',
    bug: 'The ticket answered with res.send(JSON.stringify(body)) (Express types a string as text/html): Content-Type text/html; charset=utf-8 instead of application/json; the body is as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => ({
        ...reply,
        headers: { ...reply.headers, 'content-type': 'text/html; charset=utf-8' },
      })),
  },
  {
    id: 'ho17-ticket-url-double-slash',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: 'The ticket URL joined as `${base}/${path}` with a base that already ends in "/": "https://<host>//self-service/..." instead of "https://<host>/self-service/..."; the code is as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.ticket !== 'string') return reply;
        const ticket = reply.body.ticket.replace(/^(https?:\/\/[^/]+)\//, '$1//');
        return { ...reply, body: { ...reply.body, ticket } };
      }),
  },
]);
