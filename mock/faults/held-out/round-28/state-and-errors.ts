// State and the errors: a redelivery refused with gRPC's FAILED_PRECONDITION, which grpc-gateway
// maps to 400, a Spring WebFlux route declared with consumes = "application/json" that a bodiless POST
// without a Content-Type does not match; and the observed rules: a malformed path id answered with
// go-playground/validator's message by a Gin handler, the unknown connection answered with Rails'
// RecordNotFound message, the 401s of a Sinatra service worded by the ruby-jwt gem. Each changes the
// answer to its near miss; the common answers are as before.
import { observed } from '../../../../specs/index.ts';
import type { Exchange } from '../../../exchange.ts';
import { editReplies, isErrorBody, MANAGEMENT_ROUTES, replacing, withStatus } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const VAULT_NOT_FOUND = observed.errors.vault_connection_not_found!.message!;
const INVALID_SIGNATURE = observed.errors.invalid_signature!.message!;
const EXPIRED_TOKEN = observed.errors.expired_token!.message!;
/** ruby-jwt's messages: JWT::VerificationError and JWT::ExpiredSignature. */
const RUBY_JWT_MESSAGES: ReadonlyMap<string, string> = new Map([
  [INVALID_SIGNATURE, 'Signature verification failed'],
  [EXPIRED_TOKEN, 'Signature has expired'],
]);
/** The Go struct the Gin handler binds the path to, and its fields by parameter. */
const GO_FIELDS: Readonly<Record<string, string>> = { id: 'ID', event_id: 'EventID' };
const REDELIVER_ID_LENGTH = observed.identifiers.event_stream.length;
/** What WebFlux answers when no Content-Type is sent: it takes the body for application/octet-stream. */
const WEBFLUX_MESSAGE = "Content type 'application/octet-stream' not supported";

const decodedOnce = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};
const paramOf = (exchange: Exchange, name: string) =>
  exchange.params[name] === undefined ? undefined : decodedOnce(exchange.params[name]);

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho28-redeliver-409-grpc-gateway-failed-precondition',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: 'A gRPC redelivery service that refuses an event in the wrong state with codes.FailedPrecondition (the code gRPC\'s own guide gives "the system is not in a state required"), behind grpc-gateway, whose runtime.HTTPStatusFromCode maps FAILED_PRECONDITION to 400: a delivered or pending event is answered 400 instead of 409; an unknown event is still 404 (NOT_FOUND), a failed one 202.',
    install: (app) => editReplies(app, ['redeliver'], (reply) => (reply.status === 409 ? withStatus(reply, 400) : reply)),
  },
  {
    id: 'ho28-redeliver-webflux-consumes-415',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: `A Spring WebFlux redelivery route declared @PostMapping(path = ..., consumes = "application/json") (copied from the other POST routes, which take a body), and WebFlux takes a request without Content-Type for application/octet-stream: a redelivery of a failed event sent as section 4.1 has it, with no body and no Content-Type, is answered 415 "${WEBFLUX_MESSAGE}" instead of 202; the same request with Content-Type: application/json is accepted (202).`,
    install: (app) =>
      editReplies(app, ['redeliver'], (reply, exchange) =>
        reply.status === 202 && exchange.headers['content-type'] === undefined
          ? replacing(reply, {
              status: 415,
              headers: { 'content-type': observed.content_type },
              body: { statusCode: 415, error: 'Unsupported Media Type', message: WEBFLUX_MESSAGE },
            })
          : reply,
      ),
  },
  {
    id: 'ho28-path-error-gin-validator-message',
    clause: 'errors.400.path',
    level: 'observed',
    bug: 'A Go (Gin) redelivery handler binding the path with c.ShouldBindUri into struct { ID string `uri:"id" binding:"len=26,base58id"`; EventID ... } and answering err.Error(), go-playground/validator\'s message: a malformed stream id is answered 400 "Key: \'RedeliverURI.ID\' Error:Field validation for \'ID\' failed on the \'len\' tag" instead of "Path validation error: ... on property id"; the status and errorCode are as before.',
    install: (app) =>
      editReplies(app, ['redeliver'], (reply, exchange) => {
        if (
          reply.status !== 400 ||
          !isErrorBody(reply.body) ||
          reply.body.errorCode !== 'invalid_uri' ||
          typeof reply.body.message !== 'string'
        )
          return reply;
        const parameter = /on property (\w+)$/.exec(reply.body.message)?.[1];
        const field = parameter === undefined ? undefined : GO_FIELDS[parameter];
        if (parameter === undefined || field === undefined) return reply;
        const value = paramOf(exchange, parameter);
        const tag = value === undefined || [...value].length !== REDELIVER_ID_LENGTH ? 'len' : 'base58id';
        return {
          ...reply,
          body: { ...reply.body, message: `Key: 'RedeliverURI.${field}' Error:Field validation for '${field}' failed on the '${tag}' tag` },
        };
      }),
  },
  {
    id: 'ho28-vault-404-rails-record-not-found',
    clause: 'errors.404.vault',
    level: 'observed',
    bug: `A Rails controller that loads the connection with VaultConnection.find(params[:id]) and renders the ActiveRecord::RecordNotFound it raises with its message: an unknown connection is answered 404 "Couldn't find VaultConnection with 'id'=<id>" instead of "${VAULT_NOT_FOUND}"; the status and the other members are as before.`,
    install: (app) =>
      editReplies(app, ['vault'], (reply, exchange) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === VAULT_NOT_FOUND
          ? { ...reply, body: { ...reply.body, message: `Couldn't find VaultConnection with 'id'=${paramOf(exchange, 'id') ?? ''}` } }
          : reply,
      ),
  },
  {
    id: 'ho28-401-ruby-jwt-messages',
    clause: 'errors.401.message',
    level: 'observed',
    bug: 'A Sinatra service that decodes tokens with the ruby-jwt gem and answers its exception\'s message: a token whose signature does not verify is answered 401 "Signature verification failed" (JWT::VerificationError) and an expired one "Signature has expired" (JWT::ExpiredSignature) instead of the service\'s messages; "Invalid token" and "Client is not global" are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (reply.status !== 401 || !isErrorBody(reply.body) || typeof reply.body.message !== 'string') return reply;
        const message = RUBY_JWT_MESSAGES.get(reply.body.message);
        if (message === undefined) return reply;
        const attributes = reply.body.attributes === undefined ? {} : { attributes: { error: message } };
        return { ...reply, body: { ...reply.body, message, ...attributes } };
      }),
  },
]);
