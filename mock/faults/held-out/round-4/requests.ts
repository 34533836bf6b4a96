// How a request reaches an operation: the base path matched ignoring letter case or without its
// version, a bare token taken for a bearer credential, a tab after the scheme, the custom domain
// validated under the SDK's header name and used under the spec's, a matrix parameter cut off a
// vault id, and a custom domain in capitals dropped for the tenant's host. Each changes the answer
// to one near miss; requests without it are answered as before.
import { basePath, closedLimit } from '../../../../specs/index.ts';
import { HOST_NAME_PATTERN } from '../../../validators.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { alsoServe } from './support/rerouted.ts';

const CUSTOM_DOMAIN = 'tenant-custom-domain';
/** The name the real service and its SDKs give the header (observed reference). */
const SDK_CUSTOM_DOMAIN = 'auth0-custom-domain';
const customDomainLength = closedLimit('sso-ticket.header.custom-domain.length');
const HOST_NAME = new RegExp(HOST_NAME_PATTERN);
/** The base path without its version segment: /api. */
const UNVERSIONED = basePath.replace(/\/v\d+$/, '');
/** A compact JWS alone, no scheme before it. */
const BARE_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/** "Bearer", then any white space (a tab included), then the credential. */
const ANY_SPACE_BEARER = /^Bearer\s+(\S+)$/i;

export const requestFaults = heldOutFamily([
  {
    id: 'ho4-base-path-case-insensitive',
    clause: 'versioning.base-path',
    level: 'contract',
    bug: `The interface mounted with the router's case-insensitive matching (Express's default): ${basePath.toUpperCase()}/... is served as ${basePath}/... (the record, a ticket, a redelivery) instead of 404; another version in any case is still 404.`,
    install: (app) =>
      alsoServe(app, (path) => {
        const prefix = path.slice(0, basePath.length);
        const rest = path.slice(basePath.length);
        return prefix !== basePath && prefix.toLowerCase() === basePath && (rest === '' || rest.startsWith('/'))
          ? `${basePath}${rest}`
          : undefined;
      }),
  },
  {
    id: 'ho4-base-path-version-optional',
    clause: 'versioning.base-path',
    level: 'contract',
    bug: `The interface mounted at "${UNVERSIONED}/(v2/)?" to keep early clients that called it without a version working: ${UNVERSIONED}/flows/vault/connections/<id> and the other operations' paths without the version segment are served instead of 404; ${UNVERSIONED}/v1/... is still 404.`,
    install: (app) =>
      alsoServe(app, (path) =>
        path.startsWith(`${UNVERSIONED}/`) && !path.startsWith(`${basePath}/`) ? `${basePath}${path.slice(UNVERSIONED.length)}` : undefined,
      ),
  },
  {
    id: 'ho4-redeliver-bare-token-accepted',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'Redelivery\'s credential extractor written authorization.replace(/^Bearer +/i, ""), which leaves a value without the scheme as it is: a valid token sent as the whole Authorization value, with no "Bearer", is accepted there instead of 401; "Basic <token>" is still refused, and the other operations refuse the bare token too.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const value = exchange.headers.authorization;
        return value !== undefined && BARE_JWS.test(value)
          ? { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${value}` } }
          : exchange;
      }),
  },
  {
    id: 'ho4-vault-bearer-tab-separated',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'The vault read\'s credential pattern written /^Bearer\\s+(\\S+)$/i, where RFC 6750 section 2.1 has one or more spaces: a valid token sent as "Bearer<TAB><token>" is accepted there instead of 401; a tab before anything but a valid token is still refused, and the other operations refuse the tab.',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const match = ANY_SPACE_BEARER.exec(exchange.headers.authorization ?? '');
        return match && exchange.headers.authorization!.includes('\t')
          ? { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${match[1]}` } }
          : exchange;
      }),
  },
  {
    id: 'ho4-custom-domain-checked-under-sdk-name',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: `The header check looks the custom domain up under the SDK's name first (${SDK_CUSTOM_DOMAIN}, then ${CUSTOM_DOMAIN}) while the ticket is built from ${CUSTOM_DOMAIN}: a request that sends both, ${CUSTOM_DOMAIN} of ${customDomainLength.min - 1} characters and a valid ${SDK_CUSTOM_DOMAIN}, gets a ticket on the ${customDomainLength.min - 1}-character host instead of 400; ${CUSTOM_DOMAIN} alone of that length is still refused.`,
    install: (app) =>
      app.wrapRoute('sso-ticket', (next) => async (exchange) => {
        const spec = exchange.headers[CUSTOM_DOMAIN];
        const sdk = exchange.headers[SDK_CUSTOM_DOMAIN];
        if (typeof spec !== 'string' || typeof sdk !== 'string' || spec === sdk) return next(exchange);
        const reply = await next({ ...exchange, headers: { ...exchange.headers, [CUSTOM_DOMAIN]: sdk } });
        const body = reply.body as { ticket?: unknown } | undefined;
        if (typeof body?.ticket !== 'string') return reply;
        const url = new URL(body.ticket);
        url.host = spec.toLowerCase();
        return { ...reply, body: { ...body, ticket: url.toString() } };
      }),
  },
  {
    id: 'ho4-vault-id-matrix-parameter-cut',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'The vault read behind a servlet container that cuts matrix parameters (";name=value") off each path segment before the application sees it: an existing connection\'s id followed by ";v=1" is answered 200 with its record instead of 400 invalid_uri; the id followed by another character is still refused.',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const id = exchange.params.id ?? '';
        const at = id.indexOf(';');
        return at > 0 ? { ...exchange, params: { ...exchange.params, id: id.slice(0, at) } } : exchange;
      }),
  },
  {
    id: 'ho4-custom-domain-in-capitals-dropped',
    clause: 'sso-ticket.custom-domain.host',
    level: 'observed',
    bug: `Ticket creation validates ${CUSTOM_DOMAIN} as the spec says and then passes it through a lower-case-only host pattern that, failing, falls back to the tenant's host: a custom domain written with capitals ("Login.Acme.Example", the same host) gets a ticket on the tenant's host instead of on it; in lower case it is used.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const value = exchange.headers[CUSTOM_DOMAIN];
        if (typeof value !== 'string' || value === value.toLowerCase() || !HOST_NAME.test(value)) return exchange;
        if (value.length < customDomainLength.min || value.length > customDomainLength.max) return exchange;
        const { [CUSTOM_DOMAIN]: _dropped, ...headers } = exchange.headers;
        return { ...exchange, headers };
      }),
  },
]);
