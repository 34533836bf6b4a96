// The ticket body, contract-level fields at every depth: null organizations skipped, a membership
// flag taken as a MySQL TINYINT, enabled_features.sso read with Go's strconv.ParseBool,
// domain_aliases_config built from entry pairs, provisioning_config decoded twice from a JSON
// string, provisioning scopes taken from a PHP-style index object, token_lifetime truncated to an
// int, and ttl_sec coerced from a boolean. Each lets its near miss through; a plainly wrong value is
// refused as before.
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const PARSE_BOOL: Record<string, boolean> = { '1': true, t: true, T: true, TRUE: true, true: true, True: true };
for (const word of ['0', 'f', 'F', 'FALSE', 'false', 'False']) PARSE_BOOL[word] = false;

/** The body with `edit` applied to the object at `field`, when it is one. */
const atObject = (body: unknown, field: string, edit: (value: Fields) => Fields | undefined): unknown => {
  if (!isObject(body) || !isObject(body[field])) return body;
  const edited = edit(body[field]);
  return edited === undefined ? body : { ...body, [field]: edited };
};

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho19-enabled-organizations-null-items-skipped',
    clause: 'sso-ticket.body.enabled_organizations.type',
    level: 'contract',
    bug: 'enabled_organizations iterated with a loop that skips null items (if (!org) continue, a null-safe habit): [null, {organization_id}] creates the ticket instead of 400 for an item that is not an object; ["org_..."] is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && Array.isArray(body.enabled_organizations) && body.enabled_organizations.includes(null)
          ? { ...body, enabled_organizations: body.enabled_organizations.filter((item) => item !== null) }
          : body,
      ),
  },
  {
    id: 'ho19-assign-membership-tinyint',
    clause: 'sso-ticket.body.enabled_organizations.assign_membership_on_login.type',
    level: 'contract',
    bug: 'assign_membership_on_login bound to a TINYINT(1) column, where 1 and 0 are the booleans: "assign_membership_on_login": 1 creates the ticket instead of 400; 2 is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !Array.isArray(body.enabled_organizations)) return body;
        const items: unknown[] = body.enabled_organizations;
        const tiny = (item: unknown) => isObject(item) && (item.assign_membership_on_login === 0 || item.assign_membership_on_login === 1);
        if (!items.some(tiny)) return body;
        return {
          ...body,
          enabled_organizations: items.map((item) =>
            tiny(item) ? { ...(item as Fields), assign_membership_on_login: (item as Fields).assign_membership_on_login === 1 } : item,
          ),
        };
      }),
  },
  {
    id: 'ho19-sso-feature-parse-bool',
    clause: 'sso-ticket.body.enabled_features.sso.type',
    level: 'contract',
    bug: 'enabled_features.sso read with strconv.ParseBool when it arrives as a string (a Go handler\'s fallback for "stringly" JSON): "sso": "T" or "1" creates the ticket instead of 400; "sso": "yes" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        atObject(body, 'enabled_features', (features) =>
          typeof features.sso === 'string' && features.sso in PARSE_BOOL ? { ...features, sso: PARSE_BOOL[features.sso] } : undefined,
        ),
      ),
  },
  {
    id: 'ho19-domain-aliases-config-from-pairs',
    clause: 'sso-ticket.body.domain_aliases_config.type',
    level: 'contract',
    bug: 'domain_aliases_config passed through Object.fromEntries when it is an array (a helper written for Map-like input): [["domain_verification", "none"]] creates the ticket instead of 400 for an array; ["none"] is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) &&
        Array.isArray(body.domain_aliases_config) &&
        body.domain_aliases_config.length > 0 &&
        body.domain_aliases_config.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string')
          ? { ...body, domain_aliases_config: Object.fromEntries(body.domain_aliases_config as Array<[string, unknown]>) }
          : body,
      ),
  },
  {
    id: 'ho19-provisioning-config-json-string',
    clause: 'sso-ticket.body.provisioning_config.type',
    level: 'contract',
    bug: 'provisioning_config decoded again when it arrives as a string (a double-encoded payload tolerated with json.loads): "provisioning_config": "{\\"scopes\\":[\\"get:users\\"]}" creates the ticket instead of 400; "provisioning_config": "get:users" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || typeof body.provisioning_config !== 'string') return body;
        try {
          const decoded: unknown = JSON.parse(body.provisioning_config);
          return isObject(decoded) ? { ...body, provisioning_config: decoded } : body;
        } catch {
          return body;
        }
      }),
  },
  {
    id: 'ho19-provisioning-scopes-index-object',
    clause: 'sso-ticket.body.provisioning_config.scopes.type',
    level: 'contract',
    bug: 'provisioning_config.scopes taken with Object.values when it is an object keyed "0", "1"... (a PHP array serialised as an object): {"0": "get:users"} creates the ticket instead of 400; {"first": "get:users"} is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        atObject(body, 'provisioning_config', (config) =>
          isObject(config.scopes) &&
          Object.keys(config.scopes).length > 0 &&
          Object.keys(config.scopes).every((key, i) => key === String(i))
            ? { ...config, scopes: Object.values(config.scopes) }
            : undefined,
        ),
      ),
  },
  {
    id: 'ho19-token-lifetime-fraction-truncated',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    level: 'contract',
    bug: 'token_lifetime converted with int() (Python truncation) instead of being checked as an integer: 1000.5 is taken as 1000 and the ticket created instead of 400; "1000" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        atObject(body, 'provisioning_config', (config) =>
          typeof config.token_lifetime === 'number' && !Number.isInteger(config.token_lifetime) && config.token_lifetime >= 900
            ? { ...config, token_lifetime: Math.trunc(config.token_lifetime) }
            : undefined,
        ),
      ),
  },
  {
    id: 'ho19-ttl-sec-boolean-coerced',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'ttl_sec read with Number(value) when it is not a number (true becomes 1, false 0): "ttl_sec": true creates the ticket instead of 400; "ttl_sec": "soon" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && typeof body.ttl_sec === 'boolean' ? { ...body, ttl_sec: Number(body.ttl_sec) } : body,
      ),
  },
]);
