// Success answers: vault reads served through a DataLoader shared across requests whose batch
// function returns rows in the table's order (two reads in one batch swap records), the ticket's
// host read from a mounted ConfigMap file with its trailing newline, the read's content type
// appended a second time by a Koa middleware (ctx.append); and the observed rules: created_at
// formatted by java.text.SimpleDateFormat under a th_TH default locale (the Buddhist year), the
// ticket URL reversed by Django under i18n_patterns (a language prefix in its path). Each changes
// one thing of the answer; the rest is as before.
import { cards } from '../../../../specs/cards/index.ts';
import type { Exchange } from '../../../exchange.ts';
import { checksOf } from '../../../validators.ts';
import { capture } from '../../support/captured.ts';
import { editSuccessReplies } from '../../support/route-edits.ts';
import { VAULT_RECORDS } from '../../support/store-view.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { headerOf, withHeader } from '../support/answers.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const VAULT_SCOPE = cards.vault.scope.value;
/** The DataLoader's batchScheduleFn: loads within this window share one query. */
const BATCH_WINDOW_MS = 40;
/** A well-formed connection id the store does not hold: what a key the batch found no row for is answered as. */
const NO_SUCH_ID = `ac_${'1'.repeat(22)}`;
/** The custom-domain header, under the spec's name and the service's. */
const CUSTOM_DOMAIN_HEADERS = ['tenant-custom-domain', 'auth0-custom-domain'];
/** The Buddhist era is 543 years ahead of the Gregorian. */
const BUDDHIST_ERA_OFFSET = 543;
/** LANGUAGE_CODE, the prefix i18n_patterns puts before every path it reverses. */
const LANGUAGE_CODE = 'en';

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};

export const successAnswerFaults = heldOutFamily([
  {
    id: 'ho24-vault-read-dataloader-order',
    clause: 'vault.response.record',
    level: 'contract',
    bug: `Vault reads served through one DataLoader shared by every request (batchScheduleFn waiting ${BATCH_WINDOW_MS} ms, to coalesce the dashboard's bursts) whose batch function answers SELECT ... WHERE id = ANY($1) in the table's order, where DataLoader wants the rows in the order of the keys: two reads of different connections arriving together, the second connection asked first, are each answered with the other's record (200, another id) instead of their own; a read alone, or reads asked in the table's order, are answered as before.`,
    install: (app) => {
      const store = capture(app, 'store');
      const verifier = capture(app, 'verifier');
      const validators = capture(app, 'validators');
      let batch: Array<{ id: string; release: (found: string | undefined) => void }> = [];
      const flush = () => {
        const current = batch;
        batch = [];
        const keys = [...new Set(current.map((entry) => entry.id))];
        const wanted = new Set(keys);
        const rows = store()
          .records(VAULT_RECORDS)
          .filter((record) => wanted.has(record.id));
        for (const entry of current) entry.release(rows[keys.indexOf(entry.id)]?.id);
      };
      const load = (id: string) =>
        new Promise<string | undefined>((resolve) => {
          batch.push({ id, release: resolve });
          if (batch.length === 1) setTimeout(flush, BATCH_WINDOW_MS);
        });
      app.wrapRoute('vault', (next) => async (exchange: Exchange) => {
        const raw = exchange.params.id;
        const id = exchange.method === 'GET' && raw !== undefined ? decodedOnce(raw) : undefined;
        const check = checksOf(validators(), 'vault').path.find((c) => c.name === 'id');
        if (id === undefined || !check?.validate(id)) return next(exchange);
        // Only a caller the route would serve reaches the loader.
        const verification = await verifier().verify(exchange.headers.authorization, exchange.headers.host);
        if (!verification.ok || !verification.principal.scopes.has(VAULT_SCOPE)) return next(exchange);
        const found = await load(id);
        const answered = found ?? (store().record(VAULT_RECORDS, id) ? NO_SUCH_ID : id);
        return next(answered === id ? exchange : { ...exchange, params: { ...exchange.params, id: encodeURIComponent(answered) } });
      });
    },
  },
  {
    id: 'ho24-ticket-host-configmap-newline',
    clause: 'sso-ticket.response.ticket',
    level: 'contract',
    bug: 'The ticket\'s host, when no custom domain is named, read with fs.readFileSync("/etc/tenant/public-host", "utf8") from a Kubernetes ConfigMap made with kubectl create configmap --from-file, which keeps the file\'s trailing newline: every such ticket is "https://tenant.example.com\\n/self-service/connections-flow?ticket=..." (a WHATWG parser drops the newline, but the string is no URI) instead of a URL; a ticket for a custom domain is as before.',
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        if (CUSTOM_DOMAIN_HEADERS.some((name) => exchange.headers[name] !== undefined)) return reply;
        if (!isObject(reply.body) || typeof reply.body.ticket !== 'string') return reply;
        return { ...reply, body: { ...reply.body, ticket: reply.body.ticket.replace(/^(https:\/\/[^/]+)/, '$1\n') } };
      }),
  },
  {
    id: 'ho24-vault-content-type-appended-koa',
    clause: 'vault.response.content-type',
    level: 'contract',
    bug: "A Koa middleware that 'makes sure' API answers are JSON with ctx.append('Content-Type', 'application/json') after the handler set the body (Koa had already typed it application/json; charset=utf-8), and append adds a second field: the read's answer has two Content-Type fields, which clients fold into \"application/json; charset=utf-8, application/json\", no media type, instead of application/json; the body is as before.",
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const type = headerOf(reply, 'content-type');
        return type === undefined ? reply : withHeader(reply, 'content-type', `${type}, application/json`);
      }),
  },
  {
    id: 'ho24-created-at-buddhist-calendar',
    clause: 'vault.record.timestamps-order',
    level: 'observed',
    bug: `created_at formatted by a legacy java.text.SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'") built without a locale on hosts whose default locale is th_TH, where the calendar is the Buddhist one (updated_at and refreshed_at go through java.time): created_at is "2567-09-12T12:52:16.553Z", ${BUDDHIST_ERA_OFFSET} years after updated_at, instead of "2024-09-12T12:52:16.553Z"; the other fields are as before.`,
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        if (!isObject(reply.body) || typeof reply.body.created_at !== 'string') return reply;
        const shifted = reply.body.created_at.replace(/^\d{4}/, (year) => String(Number(year) + BUDDHIST_ERA_OFFSET));
        return { ...reply, body: { ...reply.body, created_at: shifted } };
      }),
  },
  {
    id: 'ho24-ticket-url-django-language-prefix',
    clause: 'sso-ticket.response.shape',
    level: 'observed',
    bug: `The ticket URL built with Django's reverse() for the flow's view, which the urls.py puts under i18n_patterns (prefix_default_language left True) with the dashboard's pages: every ticket is "https://<host>/${LANGUAGE_CODE}/self-service/connections-flow?ticket=..." instead of "https://<host>/self-service/connections-flow?ticket=..."; the host and the code are as before.`,
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply) =>
        isObject(reply.body) && typeof reply.body.ticket === 'string'
          ? { ...reply, body: { ...reply.body, ticket: reply.body.ticket.replace(/^(https:\/\/[^/]+)\//, `$1/${LANGUAGE_CODE}/`) } }
          : reply,
      ),
  },
]);
