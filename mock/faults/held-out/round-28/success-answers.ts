// The answers' bodies and headers: the vault record answered by an nginx njs handler with
// r.return(200, json) and no content type (nginx's default_type applies), the ticket URL built by an
// Elixir view from a %URI{} without its scheme, the record's id written by a Rails jbuilder view from
// the table's integer primary key, account_name typed as Pydantic's SecretStr (so written masked); and
// the observed rule: the ticket URL built by a Ruby (Roda) service with the lifetime as a second query
// parameter. Each changes one part of the answer; the rest is as before.
import { capture } from '../../support/captured.ts';
import { editSuccessReplies, withContentType } from '../../support/route-edits.ts';
import { VAULT_RECORDS } from '../../support/store-view.ts';
import { parametersOf } from '../../support/parameter-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** nginx's default_type in the stock nginx.conf. */
const NGINX_DEFAULT_TYPE = 'application/octet-stream';
/** How Pydantic writes a SecretStr: ten asterisks, whatever it holds. */
const SECRET_MASK = '**********';
/** ttl_sec's default (spec section 8), which the Roda service writes when none is given. */
const DEFAULT_TTL = 432000;

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho28-vault-njs-default-type',
    clause: 'vault.response.content-type',
    level: 'contract',
    bug: `The vault read answered by an nginx njs handler (js_content) with r.return(200, JSON.stringify(record)) and no r.headersOut["Content-Type"], so nginx's default_type from the stock nginx.conf applies: the record is typed ${NGINX_DEFAULT_TYPE} instead of application/json; the body is the same JSON, and the errors are as before.`,
    install: (app) => editSuccessReplies(app, 'vault', (reply) => withContentType(reply, NGINX_DEFAULT_TYPE)),
  },
  {
    id: 'ho28-ticket-elixir-uri-without-scheme',
    clause: 'sso-ticket.response.ticket',
    level: 'contract',
    bug: 'An Elixir view that builds the ticket with URI.to_string(%URI{host: host, path: "/self-service/connections-flow", query: URI.encode_query(ticket: code)}), the struct given no scheme: the ticket is "//<tenant host>/self-service/connections-flow?ticket=..." (a network-path reference, not a URL) instead of "https://..."; the status and the code are as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) =>
        isObject(reply.body) && typeof reply.body.ticket === 'string' && reply.body.ticket.startsWith('https://')
          ? { ...reply, body: { ...reply.body, ticket: reply.body.ticket.slice('https:'.length) } }
          : reply,
      ),
  },
  {
    id: 'ho28-vault-id-rails-integer-key',
    clause: 'vault.record.id',
    level: 'contract',
    bug: "A Rails jbuilder view written json.extract! connection, :id, :app_id, :name, ... over a table whose integer primary key is id and whose public \"ac_...\" id is kept in public_id: the record's id is answered as the row's number (1 for the first connection) instead of the connection's id string; the other members are as before.",
    install: (app) => {
      const store = capture(app, 'store');
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.id !== 'string') return reply;
        const id = reply.body.id;
        const row = store()
          .records(VAULT_RECORDS)
          .findIndex((record) => record.id === id);
        return row < 0 ? reply : { ...reply, body: { ...reply.body, id: row + 1 } };
      });
    },
  },
  {
    id: 'ho28-account-name-pydantic-secret-str',
    clause: 'vault.response.record',
    level: 'contract',
    bug: `A FastAPI service whose response model types account_name as pydantic.SecretStr (a security review took "account" for a credential), which model_dump_json writes masked: a connection's account_name is answered "${SECRET_MASK}" instead of its name; a connection without one, and the other members, are as before.`,
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) =>
        isObject(reply.body) && typeof reply.body.account_name === 'string'
          ? { ...reply, body: { ...reply.body, account_name: SECRET_MASK } }
          : reply,
      ),
  },
  {
    id: 'ho28-ticket-url-roda-expires-param',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: 'A Ruby (Roda) service that builds the ticket with URI::HTTPS.build(host:, path:, query: URI.encode_www_form(ticket: code, expires_in: ttl)), the lifetime added for the flow\'s front end to show: the ticket is "https://<host>/self-service/connections-flow?ticket=<code>&expires_in=432000" instead of ending with the code; the status and the host are as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        if (!isObject(reply.body) || typeof reply.body.ticket !== 'string') return reply;
        const ttl = parametersOf(exchange)?.ttl_sec;
        const seconds = typeof ttl === 'number' && ttl > 0 ? ttl : typeof ttl === 'string' && Number(ttl) > 0 ? Number(ttl) : DEFAULT_TTL;
        return { ...reply, body: { ...reply.body, ticket: `${reply.body.ticket}&expires_in=${seconds}` } };
      }),
  },
]);
