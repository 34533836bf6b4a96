// The ticket request at every depth: an organization's boolean members coerced from a list of one
// (ajv's coerceTypes "array"), ttl_sec's maximum checked in 32-bit milliseconds, provisioning
// scopes given as an OAuth scope string, a form rule making use_for_organization_discovery depend
// on enabled_organizations, and connection_config given as the name of a connection to copy; and
// the observed rules: an organization id given its "org_" prefix, a wildcard domain's "*." left
// out of its length, an empty scopes list skipped, google_workspace's extra members let through by
// a schema merge, a connection name checked with \w, display_name measured after its HTML tags are
// stripped, and client_authorizequery measured percent-decoded. Each check decides on a view of the
// body with that one near miss repaired (or, for the form rule, refuses what the spec allows); a
// plainly wrong value is answered as before.
import { capture } from '../../support/captured.ts';
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { withRule } from '../round-3/support/extra-rule.ts';
import { isObject, type Fields } from '../round-3/support/ticket-fields.ts';
import { nestedView, viewTicketBody, wrapTicketBodyChecks } from '../round-6/support/body-view.ts';

const TTL_SEC_MAX = 432_000;
const MS_MAX = TTL_SEC_MAX * 1000;
const ORGANIZATION_CODE = /^[A-Za-z0-9]{16}$/;
const ORGANIZATION_BOOLEANS = ['show_as_button', 'assign_membership_on_login'];
const STRICT_NAME = /^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/;
const WORD_NAME = /^\w+(-\w+)*$/;
const GOOGLE_WORKSPACE_MEMBERS = ['sync_users', 'sync_groups'];

/** The body with member `name` replaced by `repair(value)` where it gives one; else the body itself. */
function repaired(body: Fields, name: string, repair: (value: unknown) => unknown): Fields {
  if (!(name in body)) return body;
  const value = repair(body[name]);
  return value === undefined ? body : { ...body, [name]: value };
}

/** The body's enabled_organizations with each object item seen through `view`. */
function organizationsView(body: Fields, view: (item: Fields) => Fields): Fields {
  const list = body.enabled_organizations;
  return Array.isArray(list) ? { ...body, enabled_organizations: list.map((item: unknown) => (isObject(item) ? view(item) : item)) } : body;
}

/** The body's connection_config.options.idpinitiated seen through `view`. */
const idpView = (body: Fields, view: (idp: Fields) => Fields) =>
  nestedView(body, 'connection_config', (config) => nestedView(config, 'options', (options) => nestedView(options, 'idpinitiated', view)));

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho15-organization-booleans-array-coerced',
    clause: 'sso-ticket.body.enabled_organizations.show_as_button.type',
    level: 'contract',
    bug: 'The organization item\'s schema compiled by an ajv instance made with coerceTypes: "array", which takes a list of one scalar for the scalar: an enabled_organizations item with show_as_button [true] (or assign_membership_on_login [false]) gets a ticket instead of 400; [true, false] is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        organizationsView(body, (item) =>
          ORGANIZATION_BOOLEANS.reduce(
            (fields, name) =>
              repaired(fields, name, (value) =>
                Array.isArray(value) && value.length === 1 && typeof value[0] === 'boolean' ? value[0] : undefined,
              ),
            item,
          ),
        ),
      ),
  },
  {
    id: 'ho15-ttl-sec-max-in-int32-milliseconds',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `ttl_sec's maximum checked on (ttl_sec * 1000) | 0, the milliseconds the expiry job works in, a bitwise OR that wraps at 2^31: a ttl_sec of 2147484 (or up to 4294967) wraps to a small or negative number and gets a ticket instead of 400; ${TTL_SEC_MAX + 1} is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'ttl_sec', (value) =>
          Number.isInteger(value) && (value as number) > TTL_SEC_MAX && (((value as number) * 1000) | 0) <= MS_MAX
            ? TTL_SEC_MAX
            : undefined,
        ),
      ),
  },
  {
    id: 'ho15-provisioning-scopes-space-string',
    clause: 'sso-ticket.body.provisioning_config.scopes.type',
    level: 'contract',
    bug: 'provisioning_config.scopes also taken in the OAuth form, one space-separated string (value.split(" ")), as the provisioning service\'s own token requests write scopes: a scopes of "get:users post:users" gets a ticket instead of 400; "get:users,post:users" (one item, not a scope) is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) =>
          repaired(config, 'scopes', (value) => (typeof value === 'string' ? value.split(' ').filter((s) => s.length > 0) : undefined)),
        ),
      ),
  },
  {
    id: 'ho15-organization-id-prefix-added',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'organization_id passed through an ensurePrefix("org_") helper before its format check, so that ids pasted without their type prefix work: an organization_id of 16 letters and digits without "org_" gets a ticket instead of 400; one of 15 is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        organizationsView(body, (item) =>
          repaired(item, 'organization_id', (value) =>
            typeof value === 'string' && ORGANIZATION_CODE.test(value) ? `org_${value}` : undefined,
          ),
        ),
      ),
  },
  {
    id: 'ho15-pending-domain-wildcard-not-counted',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'domain_aliases_config.pending_domains items measured without a leading "*." (a wildcard domain\'s label taken off, as the DNS checker does before it resolves the name): an item of 256 or 257 characters starting with "*." gets a ticket instead of 400; one of 258 is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'domain_aliases_config', (config) =>
          repaired(config, 'pending_domains', (value) =>
            Array.isArray(value) && value.some((item) => typeof item === 'string' && item.startsWith('*.'))
              ? value.map((item: unknown) => (typeof item === 'string' && item.startsWith('*.') ? item.slice(2) : item))
              : undefined,
          ),
        ),
      ),
  },
  {
    id: 'ho15-organizations-require-discovery-flag',
    clause: 'sso-ticket.body.optional',
    level: 'contract',
    bug: 'A rule of the dashboard\'s form ("choose whether these organizations are used for discovery") written into the API\'s validator as dependentRequired: a body with enabled_organizations but no use_for_organization_discovery is refused 400 instead of getting a ticket; the same body with use_for_organization_discovery false still gets one.',
    install: (app) =>
      wrapTicketBodyChecks(app, (validate) =>
        withRule(validate, (value) =>
          isObject(value) && 'enabled_organizations' in value && !('use_for_organization_discovery' in value)
            ? {
                instancePath: '',
                schemaPath: '#/dependentRequired',
                keyword: 'dependentRequired',
                params: {
                  property: 'enabled_organizations',
                  missingProperty: 'use_for_organization_discovery',
                  depsCount: 1,
                  deps: 'use_for_organization_discovery',
                },
                message: 'must have property use_for_organization_discovery when property enabled_organizations is present',
              }
            : undefined,
        ),
      ),
  },
  {
    id: 'ho15-provisioning-scopes-empty-skipped',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'provisioning_config.scopes checked inside if (scopes?.length) { ... }, a length guard that skips the empty list the minItems rule refuses: a scopes of [] gets a ticket instead of 400; ["get:user"] is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) => {
          if (!Array.isArray(config.scopes) || config.scopes.length > 0) return config;
          const { scopes: _dropped, ...rest } = config;
          return rest;
        }),
      ),
  },
  {
    id: 'ho15-connection-config-template-name',
    clause: 'sso-ticket.body.connection_config.type',
    level: 'contract',
    bug: 'connection_config also taken as the name of an existing connection to copy (a "start from this connection" shortcut of the admin tool), the new connection named after it with "-copy": a connection_config of "<an existing connection\'s name>" gets a ticket instead of 400; the name of no connection is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editJsonBody(app, 'sso-ticket', (value) =>
        isObject(value) && typeof value.connection_config === 'string' && store().connectionNameTaken(value.connection_config)
          ? { ...value, connection_config: { name: `${value.connection_config}-copy` } }
          : value,
      );
    },
  },
  {
    id: 'ho15-google-workspace-extra-members',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'provisioning_config\'s schema put together by an allOf merger (json-schema-merge-allof) that drops additionalProperties: false from the nested google_workspace object: google_workspace {"sync_users": true, "customer_id": "C01"} gets a ticket instead of 400; {"sync_users": "yes"} is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) =>
          nestedView(config, 'google_workspace', (workspace) =>
            Object.keys(workspace).every((name) => GOOGLE_WORKSPACE_MEMBERS.includes(name))
              ? workspace
              : Object.fromEntries(Object.entries(workspace).filter(([name]) => GOOGLE_WORKSPACE_MEMBERS.includes(name))),
          ),
        ),
      ),
  },
  {
    id: 'ho15-connection-name-word-class',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config.name checked with /^\\w+(-\\w+)*$/, \\w taken for "letter or digit" though it also matches "_": a name of "new_conn" gets a ticket instead of 400; "new conn" or "new.conn" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          repaired(config, 'name', (value) =>
            typeof value === 'string' && !STRICT_NAME.test(value) && WORD_NAME.test(value) ? value.replace(/_/g, 'u') : undefined,
          ),
        ),
      ),
  },
  {
    id: 'ho15-display-name-measured-without-tags',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config.display_name measured after an HTML sanitiser (sanitize-html with no tags allowed) run in front of the validator, the value stored as sent: a display_name of 128 characters wrapped in "<b>...</b>" (135 in all) gets a ticket instead of 400; 129 characters inside the tags are still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          repaired(config, 'display_name', (value) =>
            typeof value === 'string' && /<[^>]*>/.test(value) ? value.replace(/<[^>]*>/g, '') : undefined,
          ),
        ),
      ),
  },
  {
    id: 'ho15-authorizequery-measured-decoded',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'options.idpinitiated.client_authorizequery measured after decodeURIComponent (the length of the query the identity provider will see), where the limit is on the text as sent: a value of 258 characters holding one "%20" (256 decoded) gets a ticket instead of 400; one of 259 with one "%20" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        idpView(body, (idp) =>
          repaired(idp, 'client_authorizequery', (value) => {
            if (typeof value !== 'string' || !value.includes('%')) return undefined;
            try {
              return decodeURIComponent(value);
            } catch {
              return undefined;
            }
          }),
        ),
      ),
  },
]);
