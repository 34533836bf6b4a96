// The ticket request at every depth: a negative ttl_sec taken as its absolute value, falsy items
// compacted out of enabled_clients, a body given as a list of one object unwrapped, feature flags
// written "enabled"/"disabled", a fractional token_lifetime truncated with "| 0", and
// enabled_features given as a comma-separated string of names; and the observed rules: an
// organization_id trimmed, a provisioning scope wildcard expanded, google_workspace's required
// sync_users satisfied by sync_groups, metadata keys counted case-folded, metadata values measured
// with their whitespace collapsed, an IdP client_id with its hyphens removed, and a connection name
// slugified. Each check decides on a view of the body with that one near miss repaired; the route
// acts on the body as sent, and a plainly wrong value is refused as before.
import { heldOutFamily } from '../held-out-fault.ts';
import { isObject, type Fields } from '../round-3/support/ticket-fields.ts';
import { checkedAs } from '../round-5/support/checked-as.ts';
import { nestedView, viewTicketBody, wrapTicketBodyChecks } from '../round-6/support/body-view.ts';

const TTL_SEC_MAX = 432_000;
/** The feature-flag service's words for a flag's two states. */
const FLAG_WORDS: Record<string, boolean> = { enabled: true, disabled: false };
const FEATURE_NAMES = ['sso', 'domain_verification', 'provisioning'];
/** The provisioning scopes of the published list. */
const PROVISIONING_SCOPES = ['get', 'post', 'put', 'patch', 'delete'].flatMap((action) => [`${action}:users`, `${action}:groups`]);
const METADATA_MAX_KEYS = 10;
const METADATA_VALUE_MAX = 255;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The connection name's published rule. */
const NAME_RULE = /^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/;

/** The body with member `name` replaced by `repair(value)` where it gives one; else the body itself. */
function repaired(body: Fields, name: string, repair: (value: unknown) => unknown): Fields {
  if (!(name in body)) return body;
  const value = repair(body[name]);
  return value === undefined ? body : { ...body, [name]: value };
}

/** connection_config seen through `view`. */
function connectionConfig(body: Fields, view: (config: Fields) => Fields): Fields {
  return nestedView(body, 'connection_config', view);
}

/** connection_config.metadata seen through `view`. */
function metadata(body: Fields, view: (metadata: Fields) => Fields): Fields {
  return connectionConfig(body, (config) => nestedView(config, 'metadata', view));
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho13-ttl-sec-absolute-value',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `ttl_sec passed through Math.abs before its range is checked, by a duration parser shared with a field where a sign means "ago": a ttl_sec of -3600 gets a ticket instead of 400; -500000 (whose absolute value is over ${TTL_SEC_MAX}) is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'ttl_sec', (value) => (Number.isInteger(value) && (value as number) < 0 ? Math.abs(value as number) : undefined)),
      ),
  },
  {
    id: 'ho13-enabled-clients-compacted',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'enabled_clients passed through lodash\'s _.compact before its items are checked, to drop the empty rows a form sends: ["<client id>", null] (or with false) gets a ticket instead of 400; ["<client id>", 5] is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'enabled_clients', (value) =>
          Array.isArray(value) && value.some((item) => !item) ? value.filter((item: unknown) => Boolean(item)) : undefined,
        ),
      ),
  },
  {
    id: 'ho13-body-list-of-one-unwrapped',
    clause: 'sso-ticket.body.object',
    level: 'contract',
    bug: 'The body read by a helper shared with the bulk endpoints, which unwraps a list holding a single object (a batch of one): a body [{"ttl_sec": 3600}] (or [{}]) gets a ticket instead of 400; [] and a list of two objects are still refused.',
    install: (app) =>
      wrapTicketBodyChecks(app, (validate) =>
        checkedAs(validate, (value) => (Array.isArray(value) && value.length === 1 && isObject(value[0]) ? value[0] : value)),
      ),
  },
  {
    id: 'ho13-feature-flags-enabled-words',
    clause: 'sso-ticket.body.enabled_features.sso.type',
    level: 'contract',
    bug: 'enabled_features read through the feature-flag service\'s mapping, whose flags are the words "enabled" and "disabled": enabled_features.sso "enabled" (or "disabled", on any of the three flags) gets a ticket instead of 400; "on" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'enabled_features', (features) =>
          Object.values(features).some((value) => typeof value === 'string' && Object.hasOwn(FLAG_WORDS, value))
            ? Object.fromEntries(
                Object.entries(features).map(([name, value]) => [
                  name,
                  typeof value === 'string' && Object.hasOwn(FLAG_WORDS, value) ? FLAG_WORDS[value] : value,
                ]),
              )
            : features,
        ),
      ),
  },
  {
    id: 'ho13-token-lifetime-bitwise-truncated',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    level: 'contract',
    bug: 'provisioning_config.token_lifetime made an integer with the idiom value | 0 before it is checked (so that an integer column takes it), which truncates a fraction: a token_lifetime of 900.5 (or 3600.25) gets a ticket instead of 400; "900" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) =>
          repaired(config, 'token_lifetime', (value) =>
            typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value) ? value | 0 : undefined,
          ),
        ),
      ),
  },
  {
    id: 'ho13-enabled-features-csv-string',
    clause: 'sso-ticket.body.enabled_features.type',
    level: 'contract',
    bug: 'enabled_features also taken in the form the ticket links of the old dashboard carry it, a comma-separated string of the enabled features, turned into flags: enabled_features "sso,provisioning" gets a ticket instead of 400; "everything" (no feature\'s name) is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'enabled_features', (value) => {
          if (typeof value !== 'string') return undefined;
          const names = value.split(',').map((name) => name.trim());
          return names.length > 0 && names.every((name) => FEATURE_NAMES.includes(name))
            ? Object.fromEntries(names.map((name) => [name, true]))
            : undefined;
        }),
      ),
  },
  {
    id: 'ho13-organization-id-trimmed',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'enabled_organizations[].organization_id trimmed before its format is checked (a string helper applied to every text field of the item) while the id is stored as sent: " org_..." or "org_... " (a space at either end) gets a ticket instead of 400; "org-..." is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'enabled_organizations', (items) =>
          Array.isArray(items) &&
          items.some(
            (item) => isObject(item) && typeof item.organization_id === 'string' && item.organization_id !== item.organization_id.trim(),
          )
            ? items.map((item: unknown) =>
                isObject(item) && typeof item.organization_id === 'string'
                  ? { ...item, organization_id: item.organization_id.trim() }
                  : item,
              )
            : undefined,
        ),
      ),
  },
  {
    id: 'ho13-provisioning-scopes-wildcard-expanded',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'provisioning_config.scopes expanded by the permission helper that takes "<action>:*" for every scope of that action, before the list is checked: scopes ["get:*"] gets a ticket instead of 400; ["get:everything"] is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) =>
          repaired(config, 'scopes', (value) =>
            Array.isArray(value) && value.some((scope) => typeof scope === 'string' && scope.endsWith(':*'))
              ? value.flatMap((scope: unknown) =>
                  typeof scope === 'string' && scope.endsWith(':*')
                    ? PROVISIONING_SCOPES.filter((known) => known.startsWith(scope.slice(0, -1)))
                    : [scope],
                )
              : undefined,
          ),
        ),
      ),
  },
  {
    id: 'ho13-google-workspace-either-flag',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'provisioning_config.google_workspace\'s required sync_users written as a rule that at least one sync flag is given (anyOf required sync_users, required sync_groups): {"google_workspace": {"sync_groups": true}} gets a ticket instead of 400; {"google_workspace": {}} is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) =>
          nestedView(config, 'google_workspace', (workspace) =>
            !('sync_users' in workspace) && 'sync_groups' in workspace ? { sync_users: false, ...workspace } : workspace,
          ),
        ),
      ),
  },
  {
    id: 'ho13-metadata-keys-counted-case-folded',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `connection_config.metadata's keys counted after they are lower-cased (the store's keys are case-insensitive, so "Region" and "region" are one entry there): metadata with ${METADATA_MAX_KEYS + 1} keys, two of which differ only in case, gets a ticket instead of 400; ${METADATA_MAX_KEYS + 1} distinct keys are still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        metadata(body, (entries) => {
          const keys = Object.keys(entries);
          if (keys.length <= METADATA_MAX_KEYS) return entries;
          const folded = new Map<string, string>();
          for (const key of keys) if (!folded.has(key.toLowerCase())) folded.set(key.toLowerCase(), key);
          return Object.fromEntries([...folded.values()].map((key) => [key, entries[key]]));
        }),
      ),
  },
  {
    id: 'ho13-metadata-value-whitespace-collapsed',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `connection_config.metadata's values measured after the text normaliser collapses runs of whitespace (value.replace(/\\s+/g, " ")), while they are stored as sent: a value of ${METADATA_VALUE_MAX + 1} characters holding a double space gets a ticket instead of 400; ${METADATA_VALUE_MAX + 1} characters without one are still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        metadata(body, (entries) =>
          Object.fromEntries(
            Object.entries(entries).map(([key, value]) => [key, typeof value === 'string' ? value.replace(/\s+/g, ' ') : value]),
          ),
        ),
      ),
  },
  {
    id: 'ho13-idp-client-id-hyphens-removed',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'options.idpinitiated.client_id normalised by removing hyphens before its format (32 letters and digits) is checked, so that ids copied with dashes from the dashboard pass: a UUID (36 characters, 32 hexadecimal digits) gets a ticket instead of 400; a UUID with a character missing is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        connectionConfig(body, (config) =>
          nestedView(config, 'options', (options) =>
            nestedView(options, 'idpinitiated', (idp) =>
              typeof idp.client_id === 'string' && UUID.test(idp.client_id)
                ? { ...idp, client_id: idp.client_id.replaceAll('-', '') }
                : idp,
            ),
          ),
        ),
      ),
  },
  {
    id: 'ho13-connection-name-slugified',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config.name checked after the slug helper of the dashboard turns underscores and spaces into hyphens: a name "new_conn" (or "new conn") gets a ticket instead of 400; "new.conn" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        connectionConfig(body, (config) => {
          if (typeof config.name !== 'string' || NAME_RULE.test(config.name)) return config;
          const slug = config.name.replace(/[_ ]/g, '-');
          return NAME_RULE.test(slug) ? { ...config, name: slug } : config;
        }),
      ),
  },
]);
