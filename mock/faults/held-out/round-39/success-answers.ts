// Success answers: a Django REST Framework view that keeps the browsable renderer; a Laravel API
// resource that merges the edit target in; and a cache row that packs two optional fields into one
// column. Other answers are as before.
import { parametersOf } from '../../support/parameter-edits.ts';
import { editSuccessReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
/** The width of the cache column that holds environment and account_name, joined by "|". */
const PACKED_WIDTH = 200;

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho39-ticket-drf-browsable-renderer',
    clause: 'sso-ticket.response.content-type',
    level: 'contract',
    bug: "A Django REST Framework ticket view left with the default renderer classes (JSONRenderer, BrowsableAPIRenderer), whose content negotiation picks the renderer the Accept header ranks first: a request with a browser's Accept (text/html,application/xhtml+xml,...,*/*;q=0.8) is answered 201 with the browsable page, typed text/html; charset=utf-8, instead of JSON; Accept application/json, */* or none still gets application/json.",
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        const accept = String(exchange.headers.accept ?? '');
        if (!/^\s*text\/html\b/i.test(accept)) return reply;
        const page = `<!DOCTYPE html><html><head><title>Sso Ticket Create - Django REST framework</title></head><body><pre>${JSON.stringify(reply.body)}</pre></body></html>`;
        return withHeader({ ...reply, body: page }, 'content-type', 'text/html; charset=utf-8');
      }),
  },
  {
    id: 'ho39-ticket-laravel-resource-merges-edit-target',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: 'A Laravel TicketResource whose toArray returns ["ticket" => $this->url, $this->mergeWhen($this->connection_id !== null, ["connection_id" => $this->connection_id])] (for the dashboard, which links the edit ticket to its connection): a ticket asked for with a connection_id is answered {"ticket": ..., "connection_id": "<id>"} instead of the ticket alone; a ticket without connection_id is answered as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        const body = parametersOf(exchange);
        if (!body || typeof body.connection_id !== 'string' || !isObject(reply.body)) return reply;
        return { ...reply, body: { ...reply.body, connection_id: body.connection_id } };
      }),
  },
  {
    id: 'ho39-vault-packed-environment-account-column',
    clause: 'vault.response.record',
    level: 'contract',
    bug: `A PHP service whose read-through cache keeps a connection's optional labels in one VARCHAR(${PACKED_WIDTH}) column as environment . "|" . account_name (MySQL in non-strict mode, which truncates what does not fit) and splits them back on the first "|": a connection whose environment and account_name together pass ${PACKED_WIDTH - 1} characters is answered with its account_name cut short; a connection with shorter labels, or with one of them alone, is answered as stored.`,
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body) || !/json/i.test(headerOf(reply, 'content-type') ?? '')) return reply;
        const { environment, account_name: accountName } = reply.body;
        if (typeof environment !== 'string' || typeof accountName !== 'string') return reply;
        const packed = `${environment}|${accountName}`.slice(0, PACKED_WIDTH);
        const kept = packed.slice(packed.indexOf('|') + 1);
        return kept === accountName ? reply : { ...reply, body: { ...reply.body, account_name: kept } };
      }),
  },
]);
