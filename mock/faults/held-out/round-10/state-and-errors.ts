// What the interface refuses and how, all at the observed level: the error field filled from its
// neighbour errorCode, a translation key shown where its text is missing, a path error naming the
// schema instead of the parameter, the taken-name check run on display_name, a shared not-found
// template filled with the resource's display name, and a 403 naming the scope in the permission
// model's resource:action order. Each changes one answer; the others are as before.
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { MANAGEMENT_ROUTES, editReplies, isErrorBody } from '../../support/route-edits.ts';
import { editStore } from '../../support/store-view.ts';
import type { Store } from '../../../store.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';
import { isObject } from '../round-3/support/ticket-fields.ts';

const SCOPE_PREFIX = observed.errors.insufficient_scope!.prefix!;
const PATH_PREFIX = observed.errors.invalid_uri!.prefix!;
const VAULT_NOT_FOUND = observed.errors.vault_connection_not_found!.message!;
const STREAM_NOT_FOUND = observed.errors.stream_not_found!.message!;
/** The i18n key the message table would have held the vault's not-found text under. */
const VAULT_MESSAGE_KEY = 'errors.vault_connection_not_found';
/** Each operation's path parameters by the name of the schema (the OpenAPI component) that checks them. */
const SCHEMA_NAMES: Record<string, Record<string, string>> = {
  redeliver: { id: 'EventStreamId', event_id: 'EventId' },
  'sso-ticket': { id: 'SelfServiceProfileId' },
  vault: { id: 'FlowsVaultConnectionId' },
};

/** A message that names `resource` through the shared not-found template. */
const notFoundTemplate = (resource: string) => `The requested ${resource} does not exist.`;

/** The display_name of the connection_config of a JSON ticket request, if it has one. */
function displayNameOf(body: Buffer): string | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    const config = isObject(value) ? value.connection_config : undefined;
    return isObject(config) && typeof config.display_name === 'string' ? config.display_name : undefined;
  } catch {
    return undefined;
  }
}

export const stateAndErrorFaults = heldOutFamily([
  {
    id: 'ho10-error-field-from-error-code',
    clause: 'errors.body.shape',
    level: 'observed',
    bug: 'The error body built as errorBody(status, errorCode ?? reasonPhrase(status), message), the code meant for errorCode put in error as well: a 403 body says "error": "insufficient_scope" (and a 400 "invalid_uri") instead of the reason phrase "Forbidden"; errors without a code (401, 404) are answered as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) =>
        isErrorBody(reply.body) && typeof reply.body.errorCode === 'string'
          ? { ...reply, body: { ...reply.body, error: reply.body.errorCode } }
          : reply,
      ),
  },
  {
    id: 'ho10-vault-404-translation-key',
    clause: 'errors.404.vault',
    level: 'observed',
    bug: `The vault's not-found message looked up in a message table that lacks the entry, and the i18n library's fallback is the key itself: an unknown connection is answered 404 "${VAULT_MESSAGE_KEY}" instead of "${VAULT_NOT_FOUND}"; an unknown stream's 404 message is as before.`,
    install: (app) =>
      editReplies(app, ['vault'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === VAULT_NOT_FOUND
          ? { ...reply, body: { ...reply.body, message: VAULT_MESSAGE_KEY } }
          : reply,
      ),
  },
  {
    id: 'ho10-path-error-names-schema',
    clause: 'errors.400.path',
    level: 'observed',
    bug: `A path error naming what the validator reports as the schema's id (the OpenAPI component, "EventStreamId") where the parameter's name was meant: a malformed stream id is answered 400 invalid_uri "${PATH_PREFIX}'...' on property EventStreamId" instead of "... on property id"; the status and code are as before.`,
    install: (app) =>
      editReplies(app, ['redeliver', 'sso-ticket', 'vault'], (reply, exchange) => {
        if (reply.status !== 400 || !isErrorBody(reply.body) || reply.body.errorCode !== 'invalid_uri') return reply;
        const names =
          Object.keys(exchange.params).length > 1
            ? SCHEMA_NAMES.redeliver!
            : exchange.path.includes('/sso-ticket')
              ? SCHEMA_NAMES['sso-ticket']!
              : SCHEMA_NAMES.vault!;
        const message = String(reply.body.message).replace(/on property (\w+)$/, (whole, name: string) =>
          names[name] ? `on property ${names[name]}` : whole,
        );
        return { ...reply, body: { ...reply.body, message } };
      }),
  },
  {
    id: 'ho10-taken-name-checked-on-display-name',
    clause: 'sso-ticket.errors.409.name-taken',
    level: 'observed',
    bug: "The taken-name check run on connection_config.display_name, the field beside name that the form shows: a connection_config naming an existing connection (acme-existing-sso) gets a ticket instead of 409; a new name whose display_name is an existing connection's name is answered 409 instead of getting a ticket.",
    install: (app) => {
      let real: Store | undefined;
      const errors = capture(app, 'errors');
      editStore(app, (store) => {
        real = store;
        return { connectionNameTaken: () => false };
      });
      editReplies(app, ['sso-ticket'], (reply, exchange) => {
        const displayName = displayNameOf(exchange.body);
        return reply.status === 201 && displayName !== undefined && real?.connectionNameTaken(displayName)
          ? answeredInstead(reply, errors().reply('connection_name_taken'))
          : reply;
      });
    },
  },
  {
    id: 'ho10-stream-404-template-display-name',
    clause: 'errors.404.stream',
    level: 'observed',
    bug: `The not-found messages made from one template, "The requested {resource} does not exist.", filled with each resource's display name: an unknown stream is answered 404 "${notFoundTemplate('event stream')}" instead of "${STREAM_NOT_FOUND}"; an unknown event's message is as before.`,
    install: (app) =>
      editReplies(app, ['redeliver'], (reply) =>
        reply.status === 404 && isErrorBody(reply.body) && reply.body.message === STREAM_NOT_FOUND
          ? { ...reply, body: { ...reply.body, message: notFoundTemplate('event stream') } }
          : reply,
      ),
  },
  {
    id: 'ho10-403-scope-resource-first',
    clause: 'errors.403.scope-named',
    level: 'observed',
    bug: 'The scope a 403 names written from the permission model\'s (resource, action) pair in its own order: the message reads "Insufficient scope, expected any of: event_deliveries:update" instead of naming update:event_deliveries; status and errorCode are as before.',
    install: (app) =>
      editReplies(app, MANAGEMENT_ROUTES, (reply) => {
        if (
          reply.status !== 403 ||
          !isErrorBody(reply.body) ||
          typeof reply.body.message !== 'string' ||
          !reply.body.message.startsWith(SCOPE_PREFIX)
        )
          return reply;
        const scopes = reply.body.message
          .slice(SCOPE_PREFIX.length)
          .split(',')
          .map((scope) => scope.split(':').reverse().join(':'));
        return { ...reply, body: { ...reply.body, message: `${SCOPE_PREFIX}${scopes.join(',')}` } };
      }),
  },
]);
