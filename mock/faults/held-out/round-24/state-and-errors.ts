// State and the errors: the event to redeliver read from the Cassandra table of failed events (an
// event in another state is not found there), a Spring Cloud Gateway filter that lets a request
// through when its token check fails with an error (onErrorResume); and the observed rules: a
// wrong audience named by jjwt's IncorrectClaimException.getClaimValue() (the value required), two
// state checks run in an asyncio TaskGroup whose ExceptionGroup of two reaches the framework (500),
// and the 401s of hapi's auth scheme answered with the Boom error's output instead of its payload.
// Each changes the answer to its near miss; the common answers are as before.
import { observed, operationKeys } from '../../../../specs/index.ts';
import { bearerToken, decodeJws } from '../../../auth/bearer.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody } from '../../support/route-edits.ts';
import { editStore } from '../../support/store-view.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead, headerOf } from '../support/answers.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const BEARER_CREDENTIAL = /^Bearer +(\S+)$/i;
/** The client the gateway's own service identity is. */
const SERVICE_ACCOUNT = 'global';
const BAD_AUDIENCE = observed.errors.bad_audience!.prefix!;
const PROFILE_NOT_FOUND = observed.errors.profile_not_found!.prefix!;
const CLIENT_NOT_GLOBAL = observed.errors.client_not_global!.message!;

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho24-event-read-from-failed-events-table',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: 'Events modelled in Cassandra query-first, one table per query, and the redelivery reading the event from failed_events_by_stream (the table of the redelivery screen, which holds failed events only) and answering its miss as an unknown event: a redelivery of the delivered event (or the pending one) of an existing stream is answered 404 instead of 409; the failed event is redelivered (202) as before.',
    install: (app) =>
      editStore(app, (store) => ({
        event: (streamId, eventId) => {
          const event = store.event(streamId, eventId);
          return event?.status === 'failed' ? event : undefined;
        },
      })),
  },
  {
    id: 'ho24-gateway-fails-open-on-error',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: `A Spring Cloud Gateway GlobalFilter calling the token introspection service with .onErrorResume(error -> chain.filter(exchange)) (meant to log a failure and carry on), and the service behind it, trusting the gateway's check, acting as the gateway's service identity: a credential the introspection service fails on with a 500, one that is not three dot-separated segments ("Authorization: Bearer abc"), gets the record (200) instead of 401; "Bearer a.b.c", which it answers as inactive, and no Authorization at all, are still 401.`,
    install: (app) => {
      const store = capture(app, 'store');
      const issuer = capture(app, 'issuer');
      for (const key of operationKeys) {
        editRequests(app, key, async (exchange) => {
          const authorization = exchange.headers.authorization;
          const credential = typeof authorization === 'string' ? BEARER_CREDENTIAL.exec(authorization)?.[1] : undefined;
          if (credential === undefined || credential.split('.').length === 3) return exchange;
          const account = store()
            .clients()
            .find((client) => client.name === SERVICE_ACCOUNT);
          if (!account) return exchange;
          const { accessToken } = await issuer().issue(account, account.scopes);
          return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${accessToken}` } };
        });
      }
    },
  },
  {
    id: 'ho24-bad-audience-names-required',
    clause: 'errors.401.message',
    level: 'observed',
    bug: `A Java resource server on jjwt (requireAudience), whose mapper writes "${BAD_AUDIENCE}" + e.getClaimValue() for an IncorrectClaimException, where getClaimValue() is the value the parser required, not the token's: a validly signed token for https://reports-api.example.com/ is answered 401 "${BAD_AUDIENCE}https://<tenant>/api/v2/" (the management audience) instead of "${BAD_AUDIENCE}https://reports-api.example.com/"; the status and the other 401s are as before.`,
    install: (app) => {
      const tenant = capture(app, 'tenant');
      editReplies(app, operationKeys, (reply, exchange) => {
        if (reply.status !== 401 || !isErrorBody(reply.body) || typeof reply.body.message !== 'string') return reply;
        if (!reply.body.message.startsWith(BAD_AUDIENCE)) return reply;
        const token = bearerToken(exchange.headers.authorization);
        const iss = token === undefined ? undefined : decodeJws(token)?.payload.iss;
        const required = typeof iss === 'string' ? tenant().identityForIssuer(iss, exchange.headers.host)?.audience : undefined;
        if (required === undefined) return reply;
        const message = `${BAD_AUDIENCE}${required}`;
        const challenge = headerOf(reply, 'www-authenticate');
        return {
          ...reply,
          headers:
            challenge === undefined
              ? reply.headers
              : { ...reply.headers, 'www-authenticate': challenge.replace(reply.body.message, message) },
          body: {
            ...reply.body,
            message,
            ...(isObject(reply.body.attributes) ? { attributes: { ...reply.body.attributes, error: message } } : {}),
          },
        };
      });
    },
  },
  {
    id: 'ho24-two-causes-exception-group',
    clause: 'errors.two-causes',
    level: 'observed',
    bug: "Ticket creation's two lookups, the profile and the connection name, run at once in an asyncio.TaskGroup (Python 3.11), whose handler unwraps the ExceptionGroup when it holds one HTTPException (except* HTTPException as group: if len(group.exceptions) == 1: raise group.exceptions[0]) and re-raises a group of two, which the framework answers 500: a ticket for a profile that does not exist naming a connection that already exists is answered 500 instead of the status of one of its causes (404 or 409); each defect alone is answered as before.",
    install: (app) => {
      const store = capture(app, 'store');
      const errors = capture(app, 'errors');
      app.wrapRoute('sso-ticket', (next) => async (exchange) => {
        const reply = await next(exchange);
        if (reply.status !== 404 || !isErrorBody(reply.body) || !String(reply.body.message).startsWith(PROFILE_NOT_FOUND)) return reply;
        if (!isJsonMediaType(exchange.headers['content-type'])) return reply;
        let body: unknown;
        try {
          body = JSON.parse(exchange.body.toString('utf8'));
        } catch {
          return reply;
        }
        const name = isObject(body) && isObject(body.connection_config) ? body.connection_config.name : undefined;
        return typeof name === 'string' && store().connectionNameTaken(name)
          ? answeredInstead(reply, errors().reply('internal_error'))
          : reply;
      });
    },
  },
  {
    id: 'ho24-401-body-boom-output',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: `The 401s of the hapi auth scheme answered with h.response(error.output).code(401), the Boom error's output where its payload was meant: a request with no token, or one that does not verify, is answered {"statusCode": 401, "payload": {statusCode, error, message, attributes}, "headers": {"WWW-Authenticate": ...}} instead of {statusCode, error, message}; the status, and the 401 "${CLIENT_NOT_GLOBAL}" raised by the handler, are as before.`,
    install: (app) =>
      editReplies(app, operationKeys, (reply) => {
        if (reply.status !== 401 || !isErrorBody(reply.body) || reply.body.message === CLIENT_NOT_GLOBAL) return reply;
        const challenge = headerOf(reply, 'www-authenticate');
        return {
          ...reply,
          body: {
            statusCode: reply.body.statusCode,
            payload: reply.body,
            headers: challenge === undefined ? {} : { 'WWW-Authenticate': challenge },
          },
        };
      }),
  },
]);
