// Success answers: a vault record whose false ready is dropped by Go's omitempty, its app_id written
// as the enum's ordinal; and the observed rule: the ticket answered with .NET's default (Pascal
// case) member names. Each changes one thing of the answer; the rest is as before.
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** The provider enum, in its declaration order. */
const APP_IDS = ['AUTH0', 'HTTP', 'SLACK', 'STRIPE', 'SENDGRID', 'TWILIO', 'ZAPIER'];
const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho20-vault-ready-omitempty',
    clause: 'vault.record.ready',
    level: 'contract',
    bug: 'The record marshalled from a Go struct whose Ready field is tagged `json:"ready,omitempty"`: a connection that is not ready is answered without ready (false is the zero value) instead of "ready": false; a ready connection answers "ready": true as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body) || reply.body.ready !== false) return reply;
        const { ready: _ready, ...rest } = reply.body;
        return { ...reply, body: rest };
      }),
  },
  {
    id: 'ho20-vault-app-id-ordinal',
    clause: 'vault.record.app_id',
    level: 'contract',
    bug: 'app_id serialised from a C# enum without a JsonStringEnumConverter, so as its ordinal: "app_id": 2 instead of "SLACK" (and 1 for HTTP); an app id the enum does not declare is written as text as before.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.app_id === 'string' && APP_IDS.includes(reply.body.app_id)
          ? { ...reply, body: { ...reply.body, app_id: APP_IDS.indexOf(reply.body.app_id) } }
          : reply,
      ),
  },
  {
    id: 'ho20-ticket-members-pascal-case',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: 'The ticket answer serialised by System.Text.Json without a naming policy, so with the C# property names: {"Ticket": "https://..."} instead of {"ticket": "https://..."}; the status and the URL are as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) =>
        isObject(reply.body)
          ? { ...reply, body: Object.fromEntries(Object.entries(reply.body).map(([name, value]) => [pascal(name), value])) }
          : reply,
      ),
  },
]);
