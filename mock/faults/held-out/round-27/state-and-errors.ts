// State and the errors: a redelivery guard comparing the stored status with an Avro enum's symbol
// (DELIVERED, never equal to the stored "delivered"), an X-Client-Global header set by an Envoy
// ext_authz filter and trusted when a caller sends it itself; and the observed rules: errors wrapped
// in a GraphQL errors list by a GraphQL-to-REST bridge, the 401 worded by Azure APIM's validate-jwt
// policy, the 429 written by AWS API Gateway's throttling. Each changes the answer to its near miss;
// the common answers are as before.
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, isErrorBody, MANAGEMENT_ROUTES } from '../../support/route-edits.ts';
import { editStore } from '../../support/store-view.ts';
import { editPrincipal } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const GLOBAL_HEADER = 'x-client-global';
/** APIM's validate-jwt default failed-validation-error-message. */
const APIM_MESSAGE = 'Unauthorized. Access token is missing or invalid.';

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho27-redeliver-delivered-avro-enum',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: 'A Kafka-fed service whose redelivery guard compares the stored status with the Avro enum\'s symbol (status == EventStatus.DELIVERED.name(), "DELIVERED") while the table keeps "delivered": a delivered event is redelivered (202) instead of 409; a pending event, checked against the string "pending", is still refused.',
    install: (app) =>
      editStore(app, (store) => ({
        event: (streamId, eventId) => {
          const event = store.event(streamId, eventId);
          return event && event.status === 'delivered' ? { ...event, status: 'failed' } : event;
        },
      })),
  },
  {
    id: 'ho27-global-envoy-header-trusted',
    clause: 'redeliver.global-client',
    level: 'contract',
    bug: 'A service behind Envoy whose ext_authz filter sets X-Client-Global: true for the global client and whose route does not strip the header from callers: a non-global client\'s token sent with "X-Client-Global: true" may redeliver instead of being refused 401; the same token without the header is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      let claimed = false;
      editRequests(app, 'redeliver', (exchange) => {
        claimed = exchange.headers[GLOBAL_HEADER] === 'true';
        return exchange;
      });
      editPrincipal(app, (principal) => {
        if (!claimed || principal.client.global) return principal;
        const global = store()
          .clients()
          .find((c) => c.global);
        return global ? { ...principal, client: global } : principal;
      });
    },
  },
  {
    id: 'ho27-errors-graphql-errors-list',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'Errors passed through a GraphQL-to-REST bridge that answers them as GraphQL does: {"errors": [{"message": ..., "extensions": {"code": ..., "statusCode": ...}}]} instead of {statusCode, error, message, errorCode}; the status is as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (reply.status < 400 || !isErrorBody(reply.body)) return reply;
        const { message, ...rest } = reply.body;
        return {
          ...reply,
          body: { errors: [{ message, extensions: { code: rest.errorCode ?? rest.error, statusCode: rest.statusCode } }] },
        };
      }),
  },
  {
    id: 'ho27-401-apim-validate-jwt-message',
    clause: 'errors.401.message',
    level: 'observed',
    bug: `An Azure API Management validate-jwt policy left with its default failed-validation-error-message: a request without a token, or with a bad one, is answered 401 with message "${APIM_MESSAGE}" instead of the service's messages; the status and the other members are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        reply.status === 401 && isErrorBody(reply.body) ? { ...reply, body: { ...reply.body, message: APIM_MESSAGE } } : reply,
      ),
  },
  {
    id: 'ho27-429-api-gateway-throttle-body',
    clause: 'errors.429.body',
    level: 'observed',
    bug: 'A usage plan\'s throttling on AWS API Gateway answering past the limit with its own body {"message": "Too Many Requests"}: a 429 carries only that message instead of {statusCode, error, message, errorCode}; the status and headers are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => (reply.status === 429 ? { ...reply, body: { message: 'Too Many Requests' } } : reply)),
  },
]);
