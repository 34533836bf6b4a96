// What redelivery allows and how the interface refuses: a redelivery debounced for a second, and an
// event read by a query filtered on its state; and the observed rules: the scope a 403 names
// percent-encoded, a period added to every message that lacks one, and the text of a nested body
// error passed on without the service's prefix. Each changes one answer; the others are as before.
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { MANAGEMENT_ROUTES, editReplies, isErrorBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const DEBOUNCE_MS = 1000;
const SCOPE_PREFIX = observed.errors.insufficient_scope!.prefix!;
const BODY_PREFIX = observed.errors.invalid_body!.prefix!;
const SENTENCE_END = /[.!?]$/;

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho9-redelivery-debounced',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: `Redeliveries debounced per event (a guard against double clicks in the dashboard, put in the API): a second redelivery of a failed event within ${DEBOUNCE_MS} ms of the first is answered 409 instead of 202; one a moment later is accepted as before.`,
    install: (app) => {
      const clock = capture(app, 'clock');
      const errors = capture(app, 'errors');
      const last = new Map<string, number>();
      editReplies(app, ['redeliver'], (reply, exchange) => {
        if (reply.status !== 202) return reply;
        const key = `${exchange.params.id ?? ''}/${exchange.params.event_id ?? ''}`;
        const now = clock().now();
        const before = last.get(key);
        if (before !== undefined && now - before < DEBOUNCE_MS) return answeredInstead(reply, errors().reply('event_not_redeliverable'));
        last.set(key, now);
        return reply;
      });
    },
  },
  {
    id: 'ho9-event-query-filtered-by-state',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: 'The event read with a query filtered on the redeliverable state (WHERE id = ? AND status = \'failed\'), so an event in any other state is not found: a delivered or pending event is answered 404 "The requested event does not exist." instead of 409; a failed event is redelivered as before.',
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 409 && isErrorBody(reply.body) && reply.body.message === errors().message('event_not_redeliverable')
          ? answeredInstead(reply, errors().reply('event_not_found'))
          : reply,
      );
    },
  },
  {
    id: 'ho9-403-scope-percent-encoded',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: 'The scope a 403 names passed through encodeURIComponent, as it is for the WWW-Authenticate challenge built beside it: the message reads "Insufficient scope, expected any of: update%3Aevent_deliveries" instead of naming update:event_deliveries.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (
          reply.status !== 403 ||
          !isErrorBody(reply.body) ||
          typeof reply.body.message !== 'string' ||
          !reply.body.message.startsWith(SCOPE_PREFIX)
        )
          return reply;
        const scopes = reply.body.message.slice(SCOPE_PREFIX.length);
        return { ...reply, body: { ...reply.body, message: `${SCOPE_PREFIX}${encodeURIComponent(scopes)}` } };
      }),
  },
  {
    id: 'ho9-messages-end-with-period',
    clause: 'errors.401.message',
    level: 'observed',
    bug: 'Error messages passed through a formatter that ends each sentence with a period: a 401 says "Invalid token." (and "Client is not global.") instead of the recorded "Invalid token"; a message that already ends with one ("The requested stream does not exist.") is answered as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        isErrorBody(reply.body) && typeof reply.body.message === 'string' && !SENTENCE_END.test(reply.body.message)
          ? { ...reply, body: { ...reply.body, message: `${reply.body.message}.` } }
          : reply,
      ),
  },
  {
    id: 'ho9-nested-body-error-unprefixed',
    clause: 'errors.400.body',
    level: 'observed',
    bug: `The validator's own text passed on for an error below the body's first level (the service's prefix added only where the error names a top-level member): an invalid enabled_organizations[0].show_as_button is answered 400 invalid_body with a message that lacks "${BODY_PREFIX}"; an invalid ttl_sec is answered with the prefix as before.`,
    install: (app) =>
      editReplies(app, ['sso-ticket'], (reply) => {
        if (reply.status !== 400 || !isErrorBody(reply.body) || reply.body.errorCode !== 'invalid_body') return reply;
        const message = String(reply.body.message);
        return message.startsWith(BODY_PREFIX) && /on property \S+[./[]/.test(message)
          ? { ...reply, body: { ...reply.body, message: message.slice(BODY_PREFIX.length) } }
          : reply;
      }),
  },
]);
