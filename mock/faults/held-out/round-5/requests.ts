// How a request reaches an operation: slashes merged before routing, the custom-domain header read
// by its last occurrence, invisible characters deleted from the vault id, a length demanded of a
// bodiless POST, OPTIONS answered by a CORS layer, and an over-long vault id answered as an
// over-long URI. Each changes the answer to one near miss; requests without it are answered as
// before.
import { basePath, closedLimit, limit } from '../../../../specs/index.ts';
import { reasonPhrase } from '../../../errors.ts';
import { jsonReply, type Reply } from '../../../exchange.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { alsoServe } from '../round-4/support/rerouted.ts';

const CUSTOM_DOMAIN = 'tenant-custom-domain';
const customDomainLength = closedLimit('sso-ticket.header.custom-domain.length');
const VAULT_ID_MAX = limit('vault.path.id.length').max!;
/** Zero-width space, non-joiner, joiner, word joiner and BOM: what a "clean pasted text" helper deletes. */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/;
const EVERY_INVISIBLE = new RegExp(INVISIBLE.source, 'g');
const LENGTH_REQUIRED = 411;
const URI_TOO_LONG = 414;
const NO_CONTENT = 204;

function decoded(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** An error body in the management interface's shape, for a status no catalogue entry has. */
function statusReply(status: number): Reply {
  const error = reasonPhrase(status);
  return jsonReply(status, { statusCode: status, error, message: error });
}

export const requestFaults = heldOutFamily([
  {
    id: 'ho5-base-path-slashes-merged',
    clause: 'versioning.base-path',
    level: 'contract',
    bug: `The interface behind a proxy that merges repeated slashes before routing (nginx's merge_slashes): ${basePath.replace('/v', '//v')}/flows/vault/connections/<id>, a path outside the base path ${basePath}, is served as the vault read (and the other operations likewise) instead of 404; another version (/api/v3/...) is still 404.`,
    install: (app) =>
      alsoServe(app, (path) => {
        const merged = path.replace(/\/{2,}/g, '/');
        return merged !== path ? merged : undefined;
      }),
  },
  {
    id: 'ho5-custom-domain-last-occurrence',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: `${CUSTOM_DOMAIN} read by its last occurrence (the comma-joined value split and its last item taken, as a framework's header getter does): a request that sends the header twice, first with ${customDomainLength.min - 1} characters and then with a valid domain, gets a ticket on the valid one instead of 400; a single header of ${customDomainLength.min - 1} characters is still refused.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const value = exchange.headers[CUSTOM_DOMAIN];
        if (typeof value !== 'string' || !value.includes(',')) return exchange;
        const last = value.split(',').pop()!.trim();
        return { ...exchange, headers: { ...exchange.headers, [CUSTOM_DOMAIN]: last } };
      }),
  },
  {
    id: 'ho5-vault-id-invisible-characters-deleted',
    clause: 'vault.path.id.length',
    level: 'contract',
    bug: `The vault read passes its path id through a helper that deletes zero-width characters from pasted text (U+200B and its kin) before validating it: the longest connection's ${VAULT_ID_MAX}-character id followed by an encoded zero-width space, ${VAULT_ID_MAX + 1} characters, is answered 200 with that record instead of refused; the id followed by a visible character is still refused.`,
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const id = decoded(exchange.params.id);
        if (id === undefined || !INVISIBLE.test(id)) return exchange;
        return { ...exchange, params: { ...exchange.params, id: encodeURIComponent(id.replace(EVERY_INVISIBLE, '')) } };
      }),
  },
  {
    id: 'ho5-redeliver-bodiless-post-length-required',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: `Redelivery behind a front end that demands a length on every POST: a redelivery of a failed event sent, as section 4.1 says, with no body and therefore no Content-Length (as curl -X POST sends it) is answered ${LENGTH_REQUIRED} Length Required instead of 202; the same request with "Content-Length: 0" is accepted.`,
    install: (app) =>
      app.wrapRoute('redeliver', (next) => async (exchange) => {
        const { 'content-length': length, 'transfer-encoding': encoding } = exchange.headers;
        return length === undefined && encoding === undefined ? statusReply(LENGTH_REQUIRED) : next(exchange);
      }),
  },
  {
    id: 'ho5-options-answered-by-cors-layer',
    clause: 'routes.method',
    level: 'observed',
    bug: `A CORS layer in front of the interface answers OPTIONS on every path itself: OPTIONS on an operation's path is answered ${NO_CONTENT} with Access-Control-Allow-Methods instead of refused (405); DELETE and the other methods the path does not take are still refused.`,
    install: (app) =>
      app.wrapRoute('method-not-allowed', (next) => async (exchange) => {
        if (exchange.method !== 'OPTIONS' || !exchange.allow?.length) return next(exchange);
        const methods = [...exchange.allow, 'OPTIONS'].join(', ');
        return { status: NO_CONTENT, headers: { 'access-control-allow-origin': '*', 'access-control-allow-methods': methods } };
      }),
  },
  {
    id: 'ho5-long-vault-id-answered-414',
    clause: 'errors.400.path',
    level: 'observed',
    bug: `The vault id's maximum enforced by a guard written against oversized URIs, which answers ${URI_TOO_LONG} URI Too Long: a vault id of more than ${VAULT_ID_MAX} characters is answered ${URI_TOO_LONG} instead of 400 invalid_uri; a malformed id of allowed length is still answered 400 invalid_uri.`,
    install: (app) =>
      editReplies(app, ['vault'], (reply, exchange) => {
        const id = decoded(exchange.params.id);
        if (!isErrorBody(reply.body) || reply.body.errorCode !== 'invalid_uri' || id === undefined || [...id].length <= VAULT_ID_MAX)
          return reply;
        return { ...statusReply(URI_TOO_LONG), headers: { ...reply.headers } };
      }),
  },
]);
