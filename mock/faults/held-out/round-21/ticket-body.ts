// The ticket body, at every depth: ttl_sec narrowed to a 32-bit integer (C#'s unchecked cast),
// token_lifetime 0 taken for "not set" (proto3's default values), enabled_clients items checked by a
// tuple-form "items" (only the first), organization ids checked with Python's str.isalnum, and
// domain_verification sent as a GraphQL enum name. Each lets its near miss through; a plainly wrong
// value is refused as before.
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const INT32_MAX = 2 ** 31 - 1;
const DOMAIN_VERIFICATION = ['none', 'optional', 'required'];
const ORGANIZATION_PREFIX = 'org_';

/** The body with `edit` applied to the object at `field`, when it is one. */
const atObject = (body: unknown, field: string, edit: (value: Fields) => Fields | undefined): unknown => {
  if (!isObject(body) || !isObject(body[field])) return body;
  const edited = edit(body[field]);
  return edited === undefined ? body : { ...body, [field]: edited };
};
/** Python's str.isalnum over the id's body: any letter or digit of Unicode, not only ASCII's. */
const unicodeAlnumId = (id: unknown): id is string =>
  typeof id === 'string' &&
  id.startsWith(ORGANIZATION_PREFIX) &&
  /^[\p{L}\p{N}]+$/u.test(id.slice(ORGANIZATION_PREFIX.length)) &&
  /[^\p{ASCII}]/u.test(id);

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho21-ttl-sec-int32-wrapped',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: "ttl_sec read as a long and narrowed with an unchecked (int) cast before the range check (C#'s default unchecked context): 4294970896 (2^32 + 3600) is taken as 3600 and the ticket created instead of 400; 4294967295 (taken as -1) is still refused.",
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && typeof body.ttl_sec === 'number' && Number.isSafeInteger(body.ttl_sec) && body.ttl_sec > INT32_MAX
          ? { ...body, ttl_sec: body.ttl_sec | 0 }
          : body,
      ),
  },
  {
    id: 'ho21-token-lifetime-zero-proto-default',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    level: 'contract',
    bug: 'The body decoded into a proto3 message whose token_lifetime is a plain int32, so 0 (the default value) cannot be told from absent: "token_lifetime": 0 creates the ticket with the default lifetime instead of 400 for a lifetime under the minimum; "token_lifetime": 1 is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        atObject(body, 'provisioning_config', (config) => {
          if (config.token_lifetime !== 0) return undefined;
          const { token_lifetime: _lifetime, ...rest } = config;
          return rest;
        }),
      ),
  },
  {
    id: 'ho21-enabled-clients-tuple-items',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'enabled_clients checked by a schema written with "items": [{"type": "string"}], which a draft-07 validator reads as a tuple (the first item checked, the rest allowed by the missing additionalItems): ["<client id>", 7] creates the ticket instead of 400; [7, "<client id>"] is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) &&
        Array.isArray(body.enabled_clients) &&
        typeof body.enabled_clients[0] === 'string' &&
        body.enabled_clients.some((item) => typeof item !== 'string')
          ? {
              ...body,
              enabled_clients: body.enabled_clients.map((item: unknown) => (typeof item === 'string' ? item : JSON.stringify(item))),
            }
          : body,
      ),
  },
  {
    id: 'ho21-organization-id-unicode-alnum',
    clause: 'sso-ticket.body.enabled_organizations.organization_id.type',
    level: 'contract',
    bug: 'Organization ids checked with id.startswith("org_") and id[4:].isalnum(), which Python answers true for any Unicode letter or digit: "org_abcdefghijklmnoé" creates the ticket instead of 400; "org_abcdefghijklmno-" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) &&
        Array.isArray(body.enabled_organizations) &&
        body.enabled_organizations.some((o) => isObject(o) && unicodeAlnumId(o.organization_id))
          ? {
              ...body,
              enabled_organizations: body.enabled_organizations.map((o: unknown) =>
                isObject(o) && unicodeAlnumId(o.organization_id)
                  ? { ...o, organization_id: o.organization_id.replace(/[^\p{ASCII}]/gu, 'a') }
                  : o,
              ),
            }
          : body,
      ),
  },
  {
    id: 'ho21-domain-verification-graphql-enum',
    clause: 'sso-ticket.body.domain_aliases_config.type',
    level: 'contract',
    bug: 'domain_aliases_config.domain_verification passed through a GraphQL layer whose enum values are the upper-case names and lower-cased on the way to REST: "OPTIONAL" creates the ticket instead of 400; "MANDATORY" (no such value) is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        atObject(body, 'domain_aliases_config', (config) =>
          typeof config.domain_verification === 'string' &&
          config.domain_verification !== config.domain_verification.toLowerCase() &&
          DOMAIN_VERIFICATION.includes(config.domain_verification.toLowerCase())
            ? { ...config, domain_verification: config.domain_verification.toLowerCase() }
            : undefined,
        ),
      ),
  },
]);
