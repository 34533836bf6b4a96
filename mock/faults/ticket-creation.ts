// Ticket creation's answer and the rules of its request beyond types and limits (spec 2.2, 4.2):
// the status and content type of the answer, the ticket URL it holds, which bodies it takes (an
// object, every field optional), and the taken-name conflict.
import { decodeJwt } from 'jose';
import { observed, type JsonObject } from '../../specs/index.ts';
import type { FaultHooks } from '../app.ts';
import { bearerToken } from '../auth/bearer.ts';
import { faultFamily } from './fault.ts';
import { capture } from './support/captured.ts';
import { editBodySchema } from './support/check-edits.ts';
import { editJsonBody, editSuccessReplies, withContentType } from './support/route-edits.ts';
import { editStore } from './support/store-view.ts';

/** Changes the body of each ticket created; `edit` gets the ticket URL. */
function editTicketBody(app: FaultHooks, edit: (body: { ticket: string }) => unknown): void {
  editSuccessReplies(app, 'sso-ticket', (reply) => ({ ...reply, body: edit(reply.body as { ticket: string }) }));
}

/** The origin of the issuer a caller's bearer token names, where it names one. */
function callerOrigin(authorization: string | undefined): URL | undefined {
  const token = bearerToken(authorization);
  try {
    const issuer = token === undefined ? undefined : decodeJwt(token).iss;
    return issuer === undefined ? undefined : new URL(issuer);
  } catch {
    return undefined;
  }
}

/** Lets unknown properties through below the top level of a request schema. */
function allowUnknownBelow(node: JsonObject): void {
  for (const child of Object.values((node.properties as Record<string, JsonObject> | undefined) ?? {})) {
    const target = child.items !== undefined && typeof child.items === 'object' ? (child.items as JsonObject) : child;
    delete target.additionalProperties;
    allowUnknownBelow(target);
  }
}

export const ticketCreationFaults = faultFamily([
  {
    id: 'ticket-content-type-text-html',
    clause: 'sso-ticket.response.content-type',
    bug: "The serialized ticket sent as a string through a writer that defaults to HTML (as Express's res.send does): ticket creation answers with content type text/html; charset=utf-8 instead of application/json (the body is still JSON).",
    install: (app) => editSuccessReplies(app, 'sso-ticket', (reply) => withContentType(reply, 'text/html; charset=utf-8')),
  },
  {
    id: 'ticket-code-instead-of-url',
    clause: 'sso-ticket.response.ticket',
    bug: 'The bare ticket code answered, leaving the client to know where the flow lives: the ticket field is not a URL (so the observed URL shape and custom-domain host go too).',
    install: (app) => editTicketBody(app, ({ ticket }) => ({ ticket: new URL(ticket).searchParams.get(observed.ticket.query_parameter) })),
  },
  {
    id: 'ticket-url-over-http',
    clause: 'sso-ticket.response.shape',
    bug: 'A server behind a TLS-terminating proxy that builds the URL from the scheme it sees: the ticket URL starts with http:// instead of https://.',
    install: (app) => editTicketBody(app, ({ ticket }) => ({ ticket: ticket.replace(/^https:/, 'http:') })),
  },
  {
    id: 'ticket-ignores-custom-domain',
    clause: 'sso-ticket.custom-domain.host',
    bug: "A server that validates tenant-custom-domain and then builds the ticket URL from the tenant's own domain anyway: the URL is on the tenant's domain even when the header names another.",
    install(app) {
      const tenant = capture(app, 'tenant');
      editTicketBody(app, ({ ticket }) => {
        const url = new URL(ticket);
        url.host = tenant().domain;
        return { ticket: url.toString() };
      });
    },
  },
  {
    id: 'ticket-custom-domain-spliced-into-caller-origin',
    clause: 'sso-ticket.custom-domain.host',
    bug: "The custom-domain ticket made from the origin the caller's token names, its host name replaced by text (origin.replace(hostname, domain)): a caller whose token names the tenant at an address with a port gets the ticket on <domain>:<port>; a caller of the canonical host gets the domain.",
    install: (app) =>
      editSuccessReplies(app, 'sso-ticket', (reply, exchange) => {
        const ticket = new URL((reply.body as { ticket: string }).ticket);
        const origin = callerOrigin(exchange.headers.authorization);
        if (origin === undefined || origin.port === '' || !exchange.headers['tenant-custom-domain']) return reply;
        const spliced = `https://${origin.host.replace(origin.hostname, ticket.hostname)}${ticket.pathname}${ticket.search}`;
        return { ...reply, body: { ticket: spliced } };
      }),
  },
  {
    id: 'ticket-refuses-empty-body',
    clause: 'sso-ticket.body.optional',
    bug: 'A validator that wants at least one field where every field is optional: ticket creation refuses {} with 400 (so every test that creates a ticket with {} fails).',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        body.minProperties = 1;
      }),
  },
  {
    id: 'ticket-requires-enabled-features-with-connection-id',
    clause: 'sso-ticket.body.optional',
    bug: '"enabled_features applies only with connection_id" read backwards: ticket creation refuses a body with connection_id but without enabled_features with 400, though every field is optional.',
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        body.dependentRequired = { connection_id: ['enabled_features'] };
      }),
  },
  {
    id: 'ticket-null-body-as-empty',
    clause: 'sso-ticket.body.object',
    bug: 'A body read as `JSON.parse(text) ?? {}`: ticket creation takes a body of JSON null for an empty object and creates a ticket.',
    install: (app) => editJsonBody(app, 'sso-ticket', (value) => value ?? {}),
  },
  {
    id: 'ticket-array-body-as-empty',
    clause: 'sso-ticket.body.object',
    bug: "A body checked with `typeof body === 'object'`, then read field by field: ticket creation takes an array, which has none of the fields, for an empty object and creates a ticket.",
    install: (app) => editJsonBody(app, 'sso-ticket', (value) => (Array.isArray(value) ? {} : value)),
  },
  {
    id: 'ticket-accepts-unknown-nested-properties',
    clause: 'sso-ticket.body.nested-rules',
    bug: 'A validator that refuses unknown properties at the top of the request only: ticket creation accepts them inside the nested objects (enabled_organizations items, domain_aliases_config, provisioning_config, enabled_features).',
    install: (app) => editBodySchema(app, 'sso-ticket', allowUnknownBelow),
  },
  {
    id: 'ticket-ignores-taken-connection-name',
    clause: 'sso-ticket.errors.409.name-taken',
    bug: 'A server that leaves the name clash to when the flow runs: ticket creation accepts a connection_config naming an existing connection instead of answering 409.',
    install: (app) => editStore(app, () => ({ connectionNameTaken: () => false })),
  },
]);
