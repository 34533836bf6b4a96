// What the operations answer when they succeed: a vault record cut to a fields parameter the spec
// does not have, environment filled from account_name, the id echoed as the path sent it, a text
// view for clients that accept text, a fingerprint in capitals; a ticket answered under the
// request's media type; and a 202 without its charset. Each changes one thing of one answer.
import { FORM_MEDIA_TYPE, isFormMediaType } from '../../../stages/json-body.ts';
import { editSuccessReplies, withContentType } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;

const FIELDS_PARAMETER = 'fields';
const TEXT_VIEW = 'text/plain; charset=utf-8';
const JSON_WITHOUT_CHARSET = 'application/json';

function decoded(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho4-vault-fields-parameter-honoured',
    clause: 'vault.response.record',
    level: 'contract',
    bug: `The vault read wired to the generic field-selection helper of the service's list endpoints: with ?${FIELDS_PARAMETER}=id,name in the URL (a parameter the operation does not have) it answers only those fields, a record without app_id, ready, created_at, updated_at and fingerprint; without the parameter the record is whole.`,
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply, exchange) => {
        const wanted = new URLSearchParams(exchange.query).get(FIELDS_PARAMETER);
        if (!wanted) return reply;
        const names = wanted.split(',').map((name) => name.trim());
        return { ...reply, body: Object.fromEntries(Object.entries(reply.body as Fields).filter(([name]) => names.includes(name))) };
      }),
  },
  {
    id: 'ho4-vault-environment-from-account-name',
    clause: 'vault.record.environment',
    level: 'contract',
    bug: "A serializer line copied from the one above it: environment written from the account_name column, so a connection with an account name comes back with it as its environment (150 characters for the longest, past environment's 55) and a connection without one loses its environment.",
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const { environment, ...record } = reply.body as Fields;
        if (environment === record.account_name) return reply;
        return { ...reply, body: record.account_name === undefined ? record : { ...record, environment: record.account_name } };
      }),
  },
  {
    id: 'ho4-vault-id-echoed-as-sent',
    clause: 'vault.record.id',
    level: 'contract',
    bug: "The record's id filled from the path parameter as the router hands it, still percent-encoded: a read that writes a character of the id escaped (%5F for its underscore, the same URI) gets the escaped text as the record's id (32 characters for the 30-character connection, past the maximum); an id written plainly comes back as it is.",
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply, exchange) => {
        const sent = exchange.params.id;
        return sent !== undefined && decoded(sent) !== sent ? { ...reply, body: { ...(reply.body as Fields), id: sent } } : reply;
      }),
  },
  {
    id: 'ho4-vault-text-view-for-accept',
    clause: 'vault.response.content-type',
    level: 'contract',
    bug: `A debugging view of the vault read chosen with accept.includes("text/plain"): a client whose Accept header names text/plain among others (axios sends "application/json, text/plain, */*") gets the record as ${TEXT_VIEW} instead of application/json; without text/plain in Accept it is JSON.`,
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply, exchange) =>
        /text\/plain/i.test(exchange.headers.accept ?? '') ? withContentType(reply, TEXT_VIEW) : reply,
      ),
  },
  {
    id: 'ho4-ticket-answered-in-request-type',
    clause: 'sso-ticket.response.content-type',
    level: 'contract',
    bug: `Ticket answers written by a codec picked from the request's Content-Type: a ticket requested with a form-encoded body is answered with content type ${FORM_MEDIA_TYPE} (the body still JSON) instead of application/json; a JSON request gets JSON.`,
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) =>
        isFormMediaType(exchange.headers['content-type']) ? withContentType(reply, FORM_MEDIA_TYPE) : reply,
      ),
  },
  {
    id: 'ho4-vault-fingerprint-in-capitals',
    clause: 'vault.response.shape',
    level: 'observed',
    bug: 'fingerprint written with a hex encoder that uses capitals (as Java\'s DatatypeConverter.printHexBinary does): "6D8CD5D8..." instead of the 32 lowercase hex characters the real service writes.',
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const record = reply.body as Fields;
        return typeof record.fingerprint === 'string'
          ? { ...reply, body: { ...record, fingerprint: record.fingerprint.toUpperCase() } }
          : reply;
      }),
  },
  {
    id: 'ho4-redeliver-202-without-charset',
    clause: 'redeliver.response.body',
    level: 'observed',
    bug: `Redelivery answers through the queue service's own JSON writer: the 202's body is {} with content type ${JSON_WITHOUT_CHARSET}, without the "; charset=utf-8" the real service sends (the other operations keep it).`,
    install: (app) => editSuccessReplies(app, 'redeliver', (reply) => withContentType(reply, JSON_WITHOUT_CHARSET)),
  },
]);
