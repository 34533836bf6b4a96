// The ticket body, at several depths: enabled_features made required beside connection_id by a
// Pydantic v2 model validator, enabled_organizations[].assign_membership_on_login declared with
// VineJS's accepted() rule by an AdonisJS controller, enabled_clients checked by a Phoenix
// controller with Enum.all?/2 (which walks a map as well as a list), and enabled_features decoded
// by a Lumen (PHP) controller with json_decode($body, true), where [] and {} are the same empty
// array. Each changes the answer to its near miss; a plainly wrong value is answered as before.
import type { Reply } from '../../../exchange.ts';
import { capture } from '../../support/captured.ts';
import { editJsonBody, editReplies } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';
import { parametersOf } from '../../support/parameter-edits.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

/** What VineJS's accepted() rule takes ("the field must be checked"). */
const VINE_ACCEPTED: readonly unknown[] = ['on', '1', 'yes', 'true', true, 1];
const ASSIGN = 'assign_membership_on_login';

/** Each organization item's assign_membership_on_login as VineJS's accepted() reads it. */
function acceptedRule(body: unknown): unknown {
  if (!isObject(body) || !Array.isArray(body.enabled_organizations)) return body;
  let changed = false;
  const organizations = body.enabled_organizations.map((item: unknown) => {
    if (!isObject(item) || !Object.hasOwn(item, ASSIGN) || item[ASSIGN] === true) return item;
    changed = true;
    // accepted() refuses false like any other value it does not list; the refusal is the mock's own.
    return { ...item, [ASSIGN]: VINE_ACCEPTED.includes(item[ASSIGN]) ? true : 'not accepted' };
  });
  return changed ? { ...body, enabled_organizations: organizations } : body;
}

const isEmptyObject = (value: unknown) => isObject(value) && Object.keys(value).length === 0;

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho30-features-pydantic-required-with-connection-id',
    clause: 'sso-ticket.body.optional',
    level: 'contract',
    bug: 'A FastAPI ticket model with a Pydantic v2 @model_validator(mode="after") that raises when connection_id is set and enabled_features is None, written from the line "applies only when connection_id is given" read as "is required when": a body holding a connection_id and no enabled_features is refused 400 instead of creating the ticket; with enabled_features as well, or without connection_id, it is answered as before.',
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['sso-ticket'], (reply: Reply, exchange) => {
        if (reply.status !== 201) return reply;
        const body = parametersOf(exchange);
        if (!body || body.connection_id === undefined || body.enabled_features !== undefined) return reply;
        return answeredInstead(reply, errors().reply('invalid_body', "'enabled_features is required when connection_id is given'"));
      });
    },
  },
  {
    id: 'ho30-assign-membership-vine-accepted',
    clause: 'sso-ticket.body.enabled_organizations.assign_membership_on_login.type',
    level: 'contract',
    bug: 'An AdonisJS controller whose VineJS schema declares assign_membership_on_login: vine.accepted().optional(), taken for the boolean rule, and accepted() passes only a checked box ("on", "1", "yes", "true", true, 1): an organization item with assign_membership_on_login "on" creates the ticket instead of 400, and one with false is refused 400 instead of creating it; "maybe" is still refused and true still accepted.',
    install: (app) => editJsonBody(app, 'sso-ticket', acceptedRule),
  },
  {
    id: 'ho30-enabled-clients-phoenix-enum-all-map',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'A Phoenix controller that checks enabled_clients with Enum.all?(clients, &is_binary/1) and no is_list guard, and Enum walks a map as a list of {key, value} tuples, so an empty map passes vacuously: enabled_clients {} creates the ticket instead of 400; {"a": "b"} (whose tuple is no binary) is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && isEmptyObject(body.enabled_clients) ? { ...body, enabled_clients: [] } : body,
      ),
  },
  {
    id: 'ho30-enabled-features-lumen-assoc-empty-array',
    clause: 'sso-ticket.body.enabled_features.type',
    level: 'contract',
    bug: 'A Lumen (PHP) controller that decodes the body with json_decode($request->getContent(), true), where {} and [] both become an empty PHP array, and checks enabled_features with is_array() and then its keys: enabled_features [] (an empty list) creates the ticket instead of 400; [true] (whose key 0 is no feature) is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && Array.isArray(body.enabled_features) && body.enabled_features.length === 0
          ? { ...body, enabled_features: {} }
          : body,
      ),
  },
]);
