// The ticket body, at every depth: a Flask handler's request.get_json() or {} (any falsy JSON body
// read as an empty object), an OpenResty handler comparing a form's ttl_sec with the maximum as
// Lua strings; and the observed rules: an organization id's prefix tested with .NET's
// StringComparison.OrdinalIgnoreCase, a zod schema that gives allow_configuration a default, and a
// display name cleaned by bleach before its length is counted. Each lets its near miss through; a
// plainly wrong value is answered as before.
import { limit } from '../../../../specs/index.ts';
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import { editJsonBody, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const TTL_SEC_MAX = limit('sso-ticket.body.ttl_sec.range').max!;
const ORGANIZATION_PREFIX = 'org_';
const THIRD_PARTY = 'third_party_client_access_config';
/** What bleach.clean(value, tags=[], strip=True) removes: the tags, their text kept. */
const TAG = /<\/?[A-Za-z][^<>]*>/g;
const HAS_TAG = /<\/?[A-Za-z][^<>]*>/;

/** Python's truthiness of a JSON value: null, false, 0, "", [] and {} are falsy. */
function falsy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (isObject(value)) return Object.keys(value).length === 0;
  return value === null || value === false || value === 0 || value === '';
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho25-body-falsy-flask-or-empty',
    clause: 'sso-ticket.body.object',
    level: 'contract',
    bug: 'A Flask view that reads the body as data = request.get_json() or {} (the idiom for an optional body), where a JSON null, false, 0, "" or [] is falsy and becomes {}: a ticket request whose JSON body is null (or [], or false) creates a ticket with every field at its default instead of 400 for a body that is not an object; a body [1], truthy, is still refused.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        let body: unknown;
        try {
          body = JSON.parse(exchange.body.toString('utf8'));
        } catch {
          return exchange;
        }
        return falsy(body) && !isObject(body) ? { ...exchange, body: Buffer.from('{}', 'utf8') } : exchange;
      }),
  },
  {
    id: 'ho25-ttl-sec-form-lua-string-compare',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `An OpenResty handler for form-encoded ticket requests that checks args.ttl_sec <= "${TTL_SEC_MAX}" on the values ngx.req.get_post_args() gives, which are strings, so Lua compares them as strings: ttl_sec=1000000 ("1" sorts before "4") creates a ticket (kept at the maximum) instead of 400; ttl_sec=500000, and ttl_sec 1000000 in a JSON body, are still refused.`,
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
        const form = new URLSearchParams(exchange.body.toString('utf8'));
        const values = form.getAll('ttl_sec');
        const sent = values.length === 1 ? values[0]! : undefined;
        if (sent === undefined || !/^\d+$/.test(sent) || Number(sent) <= TTL_SEC_MAX || sent > String(TTL_SEC_MAX)) return exchange;
        form.set('ttl_sec', String(TTL_SEC_MAX));
        return { ...exchange, body: Buffer.from(form.toString(), 'utf8') };
      }),
  },
  {
    id: 'ho25-organization-prefix-ignore-case',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `enabled_organizations[].organization_id checked by an ASP.NET Core validator with id.StartsWith("${ORGANIZATION_PREFIX}", StringComparison.OrdinalIgnoreCase) (the option the team's analyzer asks for) and its alphabet after the prefix: "ORG_abcdefghijklmnop" (or "Org_...") creates the ticket instead of 400; "grp_abcdefghijklmnop" is still refused.`,
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !Array.isArray(body.enabled_organizations)) return body;
        const organizations = body.enabled_organizations as unknown[];
        const recased = (item: unknown) =>
          isObject(item) &&
          typeof item.organization_id === 'string' &&
          item.organization_id.slice(0, ORGANIZATION_PREFIX.length).toLowerCase() === ORGANIZATION_PREFIX &&
          !item.organization_id.startsWith(ORGANIZATION_PREFIX);
        if (!organizations.some(recased)) return body;
        return {
          ...body,
          enabled_organizations: organizations.map((item) =>
            recased(item)
              ? {
                  ...(item as Fields),
                  organization_id: `${ORGANIZATION_PREFIX}${((item as Fields).organization_id as string).slice(ORGANIZATION_PREFIX.length)}`,
                }
              : item,
          ),
        };
      }),
  },
  {
    id: 'ho25-third-party-config-zod-default',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `${THIRD_PARTY} checked with a zod schema, z.object({ allow_configuration: z.boolean().default(false) }).strict(), the default copied from the stored setting's model, so the required member may be left out: ${THIRD_PARTY} {} creates the ticket instead of 400; {"allow_configuration": "yes"} is still refused.`,
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body[THIRD_PARTY]) || body[THIRD_PARTY].allow_configuration !== undefined) return body;
        return { ...body, [THIRD_PARTY]: { ...body[THIRD_PARTY], allow_configuration: false } };
      }),
  },
  {
    id: 'ho25-display-name-bleach-stripped',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config.display_name passed through bleach.clean(value, tags=[], strip=True) in a Django serializer\'s to_internal_value, before the field\'s max_length=128 validator runs (the sanitiser meant against markup in the dashboard): a display name of 133 characters, "<b>" + 126 letters + "</b>", creates the ticket instead of 400; 129 letters are still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.connection_config)) return body;
        const name = body.connection_config.display_name;
        if (typeof name !== 'string' || !HAS_TAG.test(name)) return body;
        return { ...body, connection_config: { ...body.connection_config, display_name: name.replace(TAG, '') } };
      }),
  },
]);
