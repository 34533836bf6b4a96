// How a request reaches an operation: the custom-domain header measured without "www." or held to
// DNS's label limit, a stream id read by an unanchored pattern, a vault id cut at an encoded "#"
// or taken from the query, and the base path's version compared as a number. Each changes the
// answer to one near miss; requests without it are answered as before.
import { basePath, closedLimit, limit } from '../../../../specs/index.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { withRule } from '../round-3/support/extra-rule.ts';
import { alsoServe } from '../round-4/support/rerouted.ts';
import { checkedAs } from '../round-5/support/checked-as.ts';
import { editHeaderCheck } from './support/header-check.ts';

const CUSTOM_DOMAIN = 'tenant-custom-domain';
const customDomainLength = closedLimit('sso-ticket.header.custom-domain.length');
/** The longest DNS label (RFC 1035 section 2.3.4); the spec limits only the whole name. */
const LABEL_MAX = 63;
const WWW = 'www.';
const STREAM_ID_LENGTH = limit('redeliver.path.id.length').min!;
const VAULT_ID_MAX = limit('vault.path.id.length').max!;
/** A stream id as the real service shapes it (est_ and 22 base58 characters), without anchors. */
const STREAM_ID = /est_[1-9A-HJ-NP-Za-km-z]{22}/;
/** The base path with its version as text: /api/v<version>/... */
const VERSIONED = /^\/api\/v([0-9.]+)(\/.*)?$/;
const VERSION = Number(/\d+$/.exec(basePath)![0]);

function decoded(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export const requestFaults = heldOutFamily([
  {
    id: 'ho6-custom-domain-measured-without-www',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: `${CUSTOM_DOMAIN}'s length checked on the domain with a leading "${WWW}" taken off (a canonicalising helper meant for display): a domain of ${customDomainLength.max + 1} characters that starts with "${WWW}" gets a ticket on it instead of 400; a domain of ${customDomainLength.max + 1} characters without it is still refused.`,
    install: (app) =>
      editHeaderCheck(app, 'sso-ticket', CUSTOM_DOMAIN, (current) =>
        checkedAs(current, (value) => (typeof value === 'string' && value.toLowerCase().startsWith(WWW) ? value.slice(WWW.length) : value)),
      ),
  },
  {
    id: 'ho6-custom-domain-labels-held-to-63',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: `${CUSTOM_DOMAIN} checked by a host-name library that holds each dot-separated label to DNS's ${LABEL_MAX} characters: a custom domain of 100 characters, well within the spec's ${customDomainLength.min}..${customDomainLength.max}, whose first label is longer than ${LABEL_MAX} is refused 400 instead of getting a ticket; the same length in labels of ${LABEL_MAX} or fewer still gets one, and ${customDomainLength.max + 1} characters are still refused.`,
    install: (app) =>
      editHeaderCheck(app, 'sso-ticket', CUSTOM_DOMAIN, (current) =>
        withRule(current, (value) =>
          typeof value === 'string' && value.split('.').some((label) => label.length > LABEL_MAX)
            ? { keyword: 'maxLength', instancePath: '', schemaPath: '#/maxLength', params: { limit: LABEL_MAX }, message: 'label too long' }
            : undefined,
        ),
      ),
  },
  {
    id: 'ho6-stream-id-read-by-unanchored-pattern',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: `Redelivery reads its stream id as the first match of ${String(STREAM_ID)}, a pattern written without ^ and $: the stream's id followed by one more character (${STREAM_ID_LENGTH + 1} characters) redelivers the failed event of that stream, 202, instead of 400; a stream id of ${STREAM_ID_LENGTH - 1} characters is still refused.`,
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const id = decoded(exchange.params.id);
        const match = id !== undefined && id.length > STREAM_ID_LENGTH ? STREAM_ID.exec(id)?.[0] : undefined;
        return match === undefined ? exchange : { ...exchange, params: { ...exchange.params, id: match } };
      }),
  },
  {
    id: 'ho6-vault-id-cut-at-encoded-hash',
    clause: 'vault.path.id.length',
    level: 'contract',
    bug: `The vault read resolves its decoded id as a relative URL (new URL(id, base).pathname), which drops a fragment: the longest connection's ${VAULT_ID_MAX}-character id followed by %23x ("#x", ${VAULT_ID_MAX + 2} characters decoded) is answered 200 with that record instead of refused; the id followed by "x" is still refused.`,
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const id = decoded(exchange.params.id);
        if (id === undefined || !id.includes('#')) return exchange;
        return { ...exchange, params: { ...exchange.params, id: encodeURIComponent(id.slice(0, id.indexOf('#'))) } };
      }),
  },
  {
    id: 'ho6-vault-id-from-query',
    clause: 'vault.path.id.length',
    level: 'contract',
    bug: `The vault read takes its id from a merged parameter bag in which the query string wins over the path (Express's old req.param): a path id of ${VAULT_ID_MAX + 1} characters with ?id=<a valid connection id> is answered 200 with that connection instead of refused; the same path id without the query is still refused.`,
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const id = new URLSearchParams(exchange.query).get('id');
        return id === null ? exchange : { ...exchange, params: { ...exchange.params, id: encodeURIComponent(id) } };
      }),
  },
  {
    id: 'ho6-base-path-version-compared-as-number',
    clause: 'versioning.base-path',
    level: 'contract',
    bug: `The router parses the base path's version with Number() and compares it with ${VERSION}: /api/v2.0/flows/vault/connections/<id> and /api/v02/..., paths outside the base path ${basePath}, are served as the operations instead of 404; /api/v3/... is still 404.`,
    install: (app) =>
      alsoServe(app, (path) => {
        const match = VERSIONED.exec(path);
        if (!match || match[1] === String(VERSION) || Number(match[1]) !== VERSION) return undefined;
        return `${basePath}${match[2] ?? ''}`;
      }),
  },
]);
