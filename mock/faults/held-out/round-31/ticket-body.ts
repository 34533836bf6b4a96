// The ticket body: a Spring service whose ObjectMapper has ACCEPT_EMPTY_ARRAY_AS_NULL_OBJECT (for a
// PHP client that writes an empty map as []), so an empty list where an object belongs, the body
// itself included, is read as no object; and a Laravel service that decodes the body with
// json_decode($raw, true), where {} and [] are the same empty array, and refuses a list where an
// object belongs with array_is_list, which an empty array is. Each changes the answer to its near
// miss; other bodies are answered as before.
import { capture } from '../../support/captured.ts';
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const isEmptyList = (value: unknown) => Array.isArray(value) && value.length === 0;

/** The members of the body (and of its organization items) that are objects. */
const OBJECT_MEMBERS = ['connection_config', 'domain_aliases_config', 'provisioning_config', 'enabled_features'];

/** The fields whose empty list Jackson reads as a null object, which the service takes for "not given". */
function withoutEmptyLists(fields: Fields): Fields {
  let edited = fields;
  for (const name of OBJECT_MEMBERS) {
    if (isEmptyList(edited[name])) {
      const { [name]: _empty, ...rest } = edited;
      edited = rest;
    }
  }
  return edited;
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho31-body-jackson-empty-array-null-object',
    clause: 'sso-ticket.body.object',
    level: 'contract',
    bug: 'A Spring service whose ObjectMapper enables DeserializationFeature.ACCEPT_EMPTY_ARRAY_AS_NULL_OBJECT (for a PHP client that writes an empty map as []) and whose @RequestBody(required = false) takes a null body for no body: the body [] creates the ticket instead of 400, and so does [] for provisioning_config or enabled_features (read as not given); the body [1] and enabled_features ["sso"] are still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (isEmptyList(body)) return {};
        if (!isObject(body)) return body;
        const edited = withoutEmptyLists(body);
        return edited === body ? body : edited;
      }),
  },
  {
    id: 'ho31-provisioning-config-php-empty-object-as-list',
    clause: 'sso-ticket.body.provisioning_config.type',
    level: 'contract',
    bug: 'A Laravel service that reads the body with json_decode($raw, true), which makes {} and [] the same empty PHP array, and refuses a list where an object belongs with if (array_is_list($config)) abort(400), and array_is_list([]) is true: provisioning_config {} (an empty object) is refused 400 instead of creating the ticket; a provisioning_config with members is answered as before.',
    install: (app) => {
      const errors = capture(app, 'errors');
      app.wrapRoute('sso-ticket', (next) => async (exchange) => {
        const reply = await next(exchange);
        if (reply.status !== 201) return reply;
        let body: unknown;
        try {
          body = JSON.parse(exchange.body.toString('utf8'));
        } catch {
          return reply;
        }
        const config = isObject(body) ? body.provisioning_config : undefined;
        if (!isObject(config) || Object.keys(config).length > 0) return reply;
        return answeredInstead(reply, errors().reply('invalid_body', 'provisioning_config must be an object'));
      });
    },
  },
]);
