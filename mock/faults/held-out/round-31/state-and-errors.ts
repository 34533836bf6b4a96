// State and the errors: a redelivery service keeping each stream as an S3 object, read without
// s3:ListBucket, so a missing stream is S3's 403 AccessDenied; events looked up with the
// Elasticsearch client, whose 404 is an uncaught ResponseError (500); and the observed rule: an
// unknown vault connection answered by Spring's ResponseEntity.notFound().build(), with no body.
// Each changes the answer to its near miss; the common answers are as before.
import { observed } from '../../../../specs/index.ts';
import { editReplies, isErrorBody, replacing, withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const STREAM_NOT_FOUND = observed.errors.stream_not_found!.message!;
const VAULT_NOT_FOUND = observed.errors.vault_connection_not_found!.message!;
/** The mock's message for an unknown event of a known stream. */
const EVENT_NOT_FOUND = 'The requested event does not exist.';
const JSON_TYPE = 'application/json; charset=utf-8';

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho31-unknown-stream-s3-access-denied',
    clause: 'redeliver.errors.404.stream',
    level: 'contract',
    bug: 'A redelivery service that keeps each stream as an S3 object (streams/<id>.json) and reads it with GetObject under a role without s3:ListBucket, so S3 answers a missing key with 403 AccessDenied, which the service passes on: an unknown stream is answered 403 "Access Denied" instead of 404; an unknown event of a known stream is still 404, a failed event 202.',
    install: (app) =>
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === STREAM_NOT_FOUND
          ? replacing(reply, {
              status: 403,
              headers: { 'content-type': JSON_TYPE },
              body: { statusCode: 403, error: 'Forbidden', message: 'Access Denied', errorCode: 'AccessDenied' },
            })
          : reply,
      ),
  },
  {
    id: 'ho31-unknown-event-elasticsearch-response-error',
    clause: 'redeliver.errors.404.event',
    level: 'contract',
    bug: "A Node redelivery service that reads the event with the Elasticsearch client, await client.get({ index: 'events', id }), and the client throws a ResponseError for the index's 404 where the code expected found: false, so the error handler's 500 answers: an unknown event of an existing stream is answered 500 instead of 404; an unknown stream (read from another store) is still 404, a failed event 202.",
    install: (app) =>
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === EVENT_NOT_FOUND
          ? replacing(reply, {
              status: 500,
              headers: { 'content-type': JSON_TYPE },
              body: { statusCode: 500, error: 'Internal Server Error', message: 'An internal server error occurred' },
            })
          : reply,
      ),
  },
  {
    id: 'ho31-vault-404-spring-not-found-build',
    clause: 'errors.404.vault',
    level: 'observed',
    bug: `A Spring controller that answers a missing connection with return ResponseEntity.notFound().build(), which has no body (and so no content type): an unknown connection is answered 404 with an empty body instead of {"statusCode": 404, "error": "Not Found", "message": "${VAULT_NOT_FOUND}"}; the status is as before.`,
    install: (app) =>
      editReplies(app, ['vault'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === VAULT_NOT_FOUND
          ? { ...withoutHeaders(reply, ['content-type']), body: undefined }
          : reply,
      ),
  },
]);
