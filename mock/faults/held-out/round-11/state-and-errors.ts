// State, and how the interface refuses: event states compared by their order in an enum a code
// generator sorted, and an index of events warmed by a promise nobody awaits; and the observed
// rules: the vault's not-found text from an ICU plural message given a count of 0, the reason
// phrase of 413 from an RFC 2616 table, a body error's errorCode taken from the validator's
// keyword, a missing token let through as an anonymous caller by credentialsRequired: false, and
// created_at merged with Math.max where Math.min was meant. Each changes one answer; the others are as before.
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { MANAGEMENT_ROUTES, editReplies, editSuccessReplies, isErrorBody } from '../../support/route-edits.ts';
import { cards } from '../../../../specs/cards/index.ts';
import { answeredInstead } from '../support/answers.ts';
import { editStore } from '../../support/store-view.ts';
import { checksOf } from '../../../validators.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const VAULT_SCOPE = cards.vault.scope.value;
const VAULT_NOT_FOUND = observed.errors.vault_connection_not_found!.message!;
/** The "other" form of the ICU message {count, plural, one {Connection not found} other {Connections not found}}. */
const VAULT_NOT_FOUND_PLURAL = 'Connections not found';
/** The event states as the generated enum lists them, in alphabetical order: Delivered, Failed, Pending. */
const STATES_SORTED = ['delivered', 'failed', 'pending'];
/** RFC 2616's reason phrases where RFC 9110 renamed them. */
const RFC_2616_PHRASES: Record<number, string> = { 413: 'Request Entity Too Large', 414: 'Request-URI Too Long' };

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho11-states-compared-by-enum-order',
    clause: 'redeliver.errors.409.state',
    level: 'contract',
    bug: 'Whether an event may be redelivered written status >= EventStatus.Failed ("failed, or anything after it"), over an enum its code generator sorted alphabetically (Delivered, Failed, Pending): a pending event is redelivered (202) instead of 409; a delivered one is still refused 409.',
    install: (app) =>
      editStore(app, (store) => ({
        event: (streamId, eventId) => {
          const event = store.event(streamId, eventId);
          return event && STATES_SORTED.indexOf(event.status) >= STATES_SORTED.indexOf('failed') ? { ...event, status: 'failed' } : event;
        },
      })),
  },
  {
    id: 'ho11-event-index-warmed-unawaited',
    clause: 'redeliver.success.202',
    level: 'contract',
    bug: 'Events looked up in an index that the first lookup warms with warm().then(...) without awaiting it, the lookup reading the index as it is: the first redelivery after the service starts finds no event and is answered 404 instead of 202; the same redelivery sent again is answered 202.',
    install: (app) => {
      let warmed = false;
      editStore(app, (store) => ({
        event: (streamId, eventId) => {
          if (warmed) return store.event(streamId, eventId);
          warmed = true;
          return undefined;
        },
      }));
    },
  },
  {
    id: 'ho11-vault-404-icu-plural-zero',
    clause: 'errors.404.vault',
    level: 'observed',
    bug: `The vault's not-found text an ICU plural message, {count, plural, one {${VAULT_NOT_FOUND}} other {${VAULT_NOT_FOUND_PLURAL}}}, given the number of connections found, 0, which English puts in the "other" form: an unknown connection is answered 404 "${VAULT_NOT_FOUND_PLURAL}" instead of "${VAULT_NOT_FOUND}"; the status is as before.`,
    install: (app) =>
      editReplies(app, ['vault'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === VAULT_NOT_FOUND
          ? { ...reply, body: { ...reply.body, message: VAULT_NOT_FOUND_PLURAL } }
          : reply,
      ),
  },
  {
    id: 'ho11-413-rfc-2616-reason-phrase',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: `The reason phrases of error bodies taken from an HTTP library's table written from RFC 2616, before RFC 7231 renamed 413: a body over the size limit is answered 413 with "error": "${RFC_2616_PHRASES[413]!}" instead of "Payload Too Large"; the other statuses' phrases are as before.`,
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        isErrorBody(reply.body) && RFC_2616_PHRASES[reply.status] !== undefined
          ? { ...reply, body: { ...reply.body, error: RFC_2616_PHRASES[reply.status] } }
          : reply,
      ),
  },
  {
    id: 'ho11-body-error-code-from-keyword',
    clause: 'errors.400.body',
    level: 'observed',
    bug: 'A body error\'s errorCode filled from the first error of the validator (errors[0].keyword) where the service\'s own code was meant: a ttl_sec of "abc" is answered 400 with errorCode "type", and an unknown member with "additionalProperties", instead of invalid_body; the message is as before.',
    install: (app) => {
      const validators = capture(app, 'validators');
      editReplies(app, ['sso-ticket'], (reply, exchange) => {
        if (reply.status !== 400 || !isErrorBody(reply.body) || reply.body.errorCode !== 'invalid_body') return reply;
        const check = checksOf(validators(), 'sso-ticket').body;
        let value: unknown;
        try {
          value = JSON.parse(exchange.body.toString('utf8'));
        } catch {
          return reply;
        }
        const keyword = check && !check(value) ? check.errors?.[0]?.keyword : undefined;
        return keyword === undefined ? reply : { ...reply, body: { ...reply.body, errorCode: keyword } };
      });
    },
  },
  {
    id: 'ho11-vault-missing-token-credentials-optional',
    clause: 'errors.401.all-operations',
    level: 'observed',
    bug: "The vault route's token middleware configured with credentialsRequired: false (copied from a route that also serves anonymous callers), so a request without a token goes on as an anonymous caller holding no scope and is refused by the scope check: 403 insufficient_scope instead of 401; a request with an invalid token is still answered 401.",
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['vault'], (reply, exchange) =>
        reply.status === 401 && exchange.headers.authorization === undefined
          ? answeredInstead(reply, errors().reply('insufficient_scope', VAULT_SCOPE))
          : reply,
      );
    },
  },
  {
    id: 'ho11-vault-created-at-latest-time',
    clause: 'vault.record.timestamps-order',
    level: 'observed',
    bug: "created_at worked out by the migration that merged the old columns as Math.max over the record's times where Math.min was meant (the earliest being the creation): a refreshed connection is answered a created_at equal to its refreshed_at, after its updated_at; a connection whose times are all equal is answered as before.",
    install: (app) =>
      editSuccessReplies(app, 'vault', (reply) => {
        const record = reply.body as Record<string, unknown> | undefined;
        if (record === undefined || typeof record.created_at !== 'string') return reply;
        const times = [record.created_at, record.updated_at, record.refreshed_at].filter((t): t is string => typeof t === 'string');
        const latest = Math.max(...times.map((t) => Date.parse(t)));
        return { ...reply, body: { ...record, created_at: new Date(latest).toISOString() } };
      }),
  },
]);
