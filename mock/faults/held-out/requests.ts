// How a request reaches an operation: its method, the encoding of its path, its Authorization
// scheme, its Content-Type, a body that is absent, and the custom-domain header at its lower
// bound. Each is a front end or a parser that handles one near miss differently from the spec;
// requests without the near miss are answered as before.
import { closedLimit, type OperationKey } from '../../../specs/index.ts';
import { isJsonMediaType } from '../../stages/json-body.ts';
import { checksOf, HOST_NAME_PATTERN } from '../../validators.ts';
import { capture } from '../support/captured.ts';
import { compileCheck } from '../support/check-edits.ts';
import { editReplies, editRequests } from '../support/route-edits.ts';
import { heldOutFamily } from './held-out-fault.ts';
import { VAULT_RECORDS } from '../support/store-view.ts';
import { answeredInstead } from './support/answers.ts';

const OPERATIONS: readonly OperationKey[] = ['redeliver', 'sso-ticket', 'vault'];
const CUSTOM_DOMAIN = 'tenant-custom-domain';
const customDomainLength = closedLimit('sso-ticket.header.custom-domain.length');

/** A percent-encoded slash, which a decoding proxy turns into a path separator. */
const ENCODED_SLASH = /%2f/i;
/** A percent-encoded NUL, where a C string ends. */
const ENCODED_NUL = /%00/;

/** A Content-Type the ticket operation refuses (415), standing for one its strict comparison does not recognise. */
const UNRECOGNISED_CONTENT_TYPE = 'application/octet-stream';
/** What a hand-rolled reader hands JSON.parse when the request has no body at all: not JSON. */
const NOTHING_AS_JSON = 'undefined';

export const requestFaults = heldOutFamily([
  {
    id: 'ho-vault-head-served-without-token',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: "A response cache in front of the vault read that answers HEAD from the record without asking the service: HEAD on an existing connection's URL without any credential answers 200 (GET still needs a valid token; an unknown id is still refused).",
    install(app) {
      const store = capture(app, 'store');
      editReplies(app, ['vault'], (reply, exchange) => {
        if (exchange.method !== 'HEAD' || reply.status !== 401) return reply;
        let id: string;
        try {
          id = decodeURIComponent(exchange.params.id ?? '');
        } catch {
          return reply;
        }
        const record = store().record(VAULT_RECORDS, id);
        return record
          ? answeredInstead(reply, { status: 200, headers: { 'content-type': reply.headers['content-type']! }, body: record })
          : reply;
      });
    },
  },
  {
    id: 'ho-encoded-slash-decoded-before-routing',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'A proxy that decodes %2F before the router splits the path: a path id holding an encoded slash makes the path one segment longer, so it is answered 404 Not Found (no route) instead of 400 invalid_uri.',
    install(app) {
      const errors = capture(app, 'errors');
      editReplies(app, OPERATIONS, (reply, exchange) =>
        ENCODED_SLASH.test(exchange.path) ? answeredInstead(reply, errors().reply('route_not_found')) : reply,
      );
    },
  },
  {
    id: 'ho-vault-path-id-not-percent-decoded',
    clause: 'vault.response.record',
    level: 'contract',
    bug: "A router that hands the vault read its path parameter as sent, still percent-encoded: an existing connection's id with a letter written as %XX (the same URI, RFC 3986 section 6.2.2.2) is refused with 400 instead of answered with the record.",
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const id = exchange.params.id ?? '';
        return id.includes('%') ? { ...exchange, params: { ...exchange.params, id: id.replace(/%/g, '%25') } } : exchange;
      }),
  },
  {
    id: 'ho-redeliver-stream-id-cut-at-nul',
    clause: 'redeliver.path.id.length',
    level: 'contract',
    bug: 'A database driver that ends strings at a NUL byte: redelivery under an existing stream id followed by %00 and more characters (27 or more in all) is taken for that stream and accepted; other ids of the wrong length are still refused.',
    install: (app) =>
      editRequests(app, 'redeliver', (exchange) => {
        const id = exchange.params.id ?? '';
        const nul = id.search(ENCODED_NUL);
        return nul > 0 ? { ...exchange, params: { ...exchange.params, id: id.slice(0, nul) } } : exchange;
      }),
  },
  {
    id: 'ho-vault-bearer-scheme-case-sensitive',
    clause: 'auth.schemes',
    level: 'contract',
    bug: 'The vault read\'s gateway matches the scheme with startsWith("Bearer "): a valid token sent as "bearer <token>" or "BEARER <token>" (the scheme is case-insensitive, RFC 7235 section 2.1) is refused with 401 there (the other operations accept it).',
    install: (app) =>
      editRequests(app, 'vault', (exchange) => {
        const authorization = exchange.headers.authorization;
        if (authorization === undefined || authorization.startsWith('Bearer ') || !/^bearer\s/i.test(authorization)) return exchange;
        return { ...exchange, headers: { ...exchange.headers, authorization: authorization.replace(/^\S+/, 'Unrecognised') } };
      }),
  },
  {
    id: 'ho-ticket-json-with-charset-refused',
    clause: 'sso-ticket.response.ticket',
    level: 'contract',
    bug: 'Ticket creation compares Content-Type with the exact string application/json: a JSON body sent as "application/json; charset=utf-8" (the same media type) is refused with 415 instead of creating a ticket.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const contentType = exchange.headers['content-type'];
        if (!isJsonMediaType(contentType) || !contentType?.includes(';')) return exchange;
        return { ...exchange, headers: { ...exchange.headers, 'content-type': UNRECOGNISED_CONTENT_TYPE } };
      }),
  },
  {
    id: 'ho-ticket-without-body-refused',
    clause: 'sso-ticket.body.optional',
    level: 'contract',
    bug: 'A hand-rolled body reader that hands the request body to JSON.parse whatever it is: a ticket request with no body at all (the request body is optional) is answered 400 "Invalid request payload JSON format"; {} still creates a ticket.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) =>
        exchange.body.length === 0
          ? { ...exchange, body: Buffer.from(NOTHING_AS_JSON), headers: { ...exchange.headers, 'content-type': 'application/json' } }
          : exchange,
      ),
  },
  {
    id: 'ho-custom-domain-of-3-refused',
    clause: 'sso-ticket.header.custom-domain.length',
    level: 'contract',
    bug: `"At least ${customDomainLength.min}" written as length > ${customDomainLength.min}: ticket creation refuses a tenant-custom-domain of exactly ${customDomainLength.min} characters with 400 (${customDomainLength.min + 1} and up are accepted).`,
    install: (app) =>
      app.override('validators', (validators) => {
        const checks = checksOf(validators, 'sso-ticket').headers;
        const index = checks.findIndex((check) => check.name === CUSTOM_DOMAIN);
        if (index < 0) throw new Error(`ticket creation has no ${CUSTOM_DOMAIN} check`);
        const validate = compileCheck({
          type: 'string',
          minLength: customDomainLength.min + 1,
          maxLength: customDomainLength.max,
          pattern: HOST_NAME_PATTERN,
        });
        checks[index] = { ...checks[index]!, validate };
        return validators;
      }),
  },
]);
