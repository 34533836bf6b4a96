// The ticket request at every depth, alone and with other fields: an id given as an object, a
// connection named by a string, a comma-separated list of clients, organizations left unread when
// a connection is edited, ttl_sec's range lost for form bodies, provisioning switched on by true,
// its scopes and lifetime written the way OAuth scopes and durations are, features listed by name,
// and the observed rules (a field of the description's newest version refused, a domain's length
// counted in bytes). Each changes one field's rule; the others keep theirs.
import type { ErrorObject } from 'ajv';
import { closedLimit, schema, type JsonObject } from '../../../../specs/index.ts';
import { checksOf, compileFormBody } from '../../../validators.ts';
import { editBodySchema, fieldNode } from '../../support/check-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { withRule } from './support/extra-rule.ts';
import { editNested, editTicketFields, isObject, without, type Fields } from './support/ticket-fields.ts';

const BODY_SCHEMA = 'SsoTicketRequest';
const ttlSec = closedLimit('sso-ticket.body.ttl_sec.range');
/** The features enabled_features has, each a flag. */
const FEATURES = Object.keys((fieldNode(schema(BODY_SCHEMA, 'contract'), 'enabled_features').properties as JsonObject) ?? {});
/** The longest pending domain the service's description allows, in characters. */
const PENDING_DOMAIN_MAX = (fieldNode(schema(BODY_SCHEMA, 'observed'), 'domain_aliases_config.pending_domains').items as JsonObject)
  .maxLength as number;
/** The field of the description's newest version that an older copy of its schema lacks. */
const NEWEST_FIELD = 'third_party_client_access_config';
/** A duration the way ms() and Go's time.ParseDuration write one, and its unit in seconds. */
const DURATION = /^(\d+)(s|m|h|d)$/;
const SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho3-connection-id-object-unwrapped',
    clause: 'sso-ticket.body.connection_id.type',
    level: 'contract',
    bug: 'A binder that takes "an entity or its id" where an id is expected, reading .id from an object: connection_id sent as {"id": "con_..."} is accepted as that id instead of 400; an object without a string id is still refused.',
    install: (app) =>
      editTicketFields(app, (body) =>
        isObject(body.connection_id) && typeof body.connection_id.id === 'string'
          ? { ...body, connection_id: body.connection_id.id }
          : body,
      ),
  },
  {
    id: 'ho3-connection-config-name-shorthand',
    clause: 'sso-ticket.body.connection_config.type',
    level: 'contract',
    bug: 'A "shorthand" for the new connection: connection_config sent as a string is taken for {"name": <that string>} and the ticket created instead of 400; a number or a boolean there is still refused.',
    install: (app) =>
      editTicketFields(app, (body) =>
        typeof body.connection_config === 'string' ? { ...body, connection_config: { name: body.connection_config } } : body,
      ),
  },
  {
    id: 'ho3-enabled-clients-comma-separated',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'enabled_clients read by a converter shared with query strings, which splits a string on commas: "<client_id>,<client_id>", a string and not an array, is accepted as the list of those ids instead of 400; a number is still refused.',
    install: (app) =>
      editTicketFields(app, (body) =>
        typeof body.enabled_clients === 'string'
          ? {
              ...body,
              enabled_clients: body.enabled_clients
                .split(',')
                .map((id) => id.trim())
                .filter((id) => id.length > 0),
            }
          : body,
      ),
  },
  {
    id: 'ho3-enabled-organizations-unread-with-connection-id',
    clause: 'sso-ticket.body.enabled_organizations.type',
    level: 'contract',
    bug: 'The edit-connection branch (connection_id given) builds its ticket from connection_id and enabled_features and drops the rest unread: with connection_id, an enabled_organizations of any type (a string, an object) is accepted; without it, it is still refused with 400.',
    install: (app) =>
      editTicketFields(app, (body) =>
        body.connection_id !== undefined && body.enabled_organizations !== undefined ? without(body, 'enabled_organizations') : body,
      ),
  },
  {
    id: 'ho3-ttl-sec-range-unchecked-in-forms',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `Form-encoded ticket requests validated with a schema of their own, written for the converted types, that forgot ttl_sec's bounds: a form body with ttl_sec ${ttlSec.max + 1} (or -1) is accepted; the same value in JSON is still refused with 400, and a ttl_sec that is not a number still is in either.`,
    install(app) {
      const body = schema(BODY_SCHEMA, 'observed');
      const ttl = fieldNode(body, 'ttl_sec');
      delete ttl.minimum;
      delete ttl.maximum;
      const validateForm = compileFormBody(body, { strictTypes: false });
      app.override('validators', (validators) => {
        checksOf(validators, 'sso-ticket').formBody = validateForm;
        return validators;
      });
    },
  },
  {
    id: 'ho3-provisioning-config-true-as-defaults',
    clause: 'sso-ticket.body.provisioning_config.type',
    level: 'contract',
    bug: 'provisioning_config: true taken for "provisioning with its defaults" ({}), a convenience the console uses: the boolean is accepted instead of 400; a string or a number there is still refused.',
    install: (app) => editTicketFields(app, (body) => (body.provisioning_config === true ? { ...body, provisioning_config: {} } : body)),
  },
  {
    id: 'ho3-provisioning-scopes-space-separated',
    clause: 'sso-ticket.body.provisioning_config.scopes.type',
    level: 'contract',
    bug: 'provisioning_config.scopes read the way an OAuth scope parameter is, a space-separated string split into a list: "get:users post:users", a string, is accepted as those two scopes instead of 400; a number is still refused.',
    install: (app) =>
      editTicketFields(app, (body) =>
        editNested(body, 'provisioning_config', (config) =>
          typeof config.scopes === 'string' ? { ...config, scopes: config.scopes.split(' ').filter((scope) => scope.length > 0) } : config,
        ),
      ),
  },
  {
    id: 'ho3-token-lifetime-duration-string',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    level: 'contract',
    bug: 'provisioning_config.token_lifetime read with a duration parser (as ms() reads "1h") before the body is validated: a string such as "1h" or "2d" is accepted as that many seconds instead of 400; a string that is not a duration is still refused, and the observed minimum still holds.',
    install: (app) =>
      editTicketFields(app, (body) =>
        editNested(body, 'provisioning_config', (config) => {
          const match = typeof config.token_lifetime === 'string' ? DURATION.exec(config.token_lifetime) : null;
          return match ? { ...config, token_lifetime: Number(match[1]) * SECONDS[match[2]!]! } : config;
        }),
      ),
  },
  {
    id: 'ho3-enabled-features-list-of-names',
    clause: 'sso-ticket.body.enabled_features.type',
    level: 'contract',
    bug: `enabled_features also taken as a list of the features to switch on (${FEATURES.map((f) => `"${f}"`).join(', ')}), the way the console sends them: ["sso"], an array, is accepted as {"sso": true} instead of 400; a string, or a list naming something else, is still refused.`,
    install: (app) =>
      editTicketFields(app, (body) => {
        const list = body.enabled_features;
        if (!Array.isArray(list) || !list.every((name) => typeof name === 'string' && FEATURES.includes(name))) return body;
        return { ...body, enabled_features: Object.fromEntries(list.map((name) => [name, true])) as Fields };
      }),
  },
  {
    id: 'ho3-newest-description-field-refused',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `Ticket bodies validated with a schema generated from an older copy of the service's API description, before it listed ${NEWEST_FIELD}: a body with a valid ${NEWEST_FIELD} is refused with 400 as an unknown property; bodies without it are answered as before.`,
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        delete (body.properties as JsonObject)[NEWEST_FIELD];
      }),
  },
  {
    id: 'ho3-pending-domains-length-in-bytes',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `domain_aliases_config.pending_domains[] measured with Buffer.byteLength, so "at most ${PENDING_DOMAIN_MAX}" counts UTF-8 bytes: an internationalised domain of ${PENDING_DOMAIN_MAX} characters (with an ü, say) is refused with 400; an ASCII one of ${PENDING_DOMAIN_MAX} is still accepted and one of ${PENDING_DOMAIN_MAX + 1} still refused.`,
    install: (app) =>
      app.override('validators', (validators) => {
        const checks = checksOf(validators, 'sso-ticket');
        if (checks.body) checks.body = withRule(checks.body, overlongInBytes);
        if (checks.formBody) checks.formBody = withRule(checks.formBody, overlongInBytes);
        return validators;
      }),
  },
]);

/** The error of the first pending domain over the limit in UTF-8 bytes; undefined when none is. */
function overlongInBytes(value: unknown): ErrorObject | undefined {
  const config = isObject(value) ? value.domain_aliases_config : undefined;
  const domains = isObject(config) && Array.isArray(config.pending_domains) ? (config.pending_domains as unknown[]) : [];
  const at = domains.findIndex((domain) => typeof domain === 'string' && Buffer.byteLength(domain, 'utf8') > PENDING_DOMAIN_MAX);
  if (at < 0) return undefined;
  return {
    keyword: 'maxLength',
    instancePath: `/domain_aliases_config/pending_domains/${at}`,
    schemaPath: '#/properties/domain_aliases_config/properties/pending_domains/items/maxLength',
    params: { limit: PENDING_DOMAIN_MAX },
    message: `must NOT have more than ${PENDING_DOMAIN_MAX} characters`,
  };
}
