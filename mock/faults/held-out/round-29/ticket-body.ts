// The ticket body, at every depth: enabled_features.provisioning read by a Rust (warp) service
// through serde_aux's deserialize_bool_from_anything, enabled_features.sso checked by Yii2's
// BooleanValidator without strict (PHP's == against '1' and '0'), provisioning_config.scopes
// coerced by a Grape API with Array(...), connection_config declared .nullish() in a zod schema
// mirroring a nullable Prisma Json column, enabled_organizations[].organization_id handed to a
// Mongoose query, which turns an array into $in. Each lets its near miss through; a plainly wrong
// value is answered as before.
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A member of body.enabled_features rewritten by `read` where it gives a boolean. */
const editFeature = (body: unknown, name: string, read: (value: unknown) => boolean | undefined): unknown => {
  if (!isObject(body) || !isObject(body.enabled_features) || typeof body.enabled_features[name] === 'boolean') return body;
  const value = read(body.enabled_features[name]);
  return value === undefined ? body : { ...body, enabled_features: { ...body.enabled_features, [name]: value } };
};

/** serde_aux::field_attributes::deserialize_bool_from_anything: 1 and 0 (integer or float), "true"/"false"/"1"/"0" in any case. */
function boolFromAnything(value: unknown): boolean | undefined {
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return undefined;
  const word = value.toLowerCase();
  return word === 'true' || word === '1' ? true : word === 'false' || word === '0' ? false : undefined;
}

/** A PHP 8 numeric string (leading and trailing white space allowed). */
const PHP_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;
/** Yii2's BooleanValidator (strict false): $value == '1' || $value == '0', compared as PHP 8 compares. */
function yiiLooseBoolean(value: unknown): boolean | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && PHP_NUMERIC.test(value) ? Number(value) : undefined;
  return number === 1 ? true : number === 0 ? false : undefined;
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho29-provisioning-warp-serde-aux-bool',
    clause: 'sso-ticket.body.enabled_features.provisioning.type',
    level: 'contract',
    bug: 'A Rust (warp) service whose EnabledFeatures struct reads provisioning with #[serde(deserialize_with = "deserialize_bool_from_anything")] from serde_aux (added for a form client), which takes 1 and 0 and the strings "true", "false", "1" and "0": enabled_features.provisioning 1 creates the ticket instead of 400; "enabled" is still refused.',
    install: (app) => editJsonBody(app, 'sso-ticket', (body) => editFeature(body, 'provisioning', boolFromAnything)),
  },
  {
    id: 'ho29-sso-yii2-boolean-validator-loose',
    clause: 'sso-ticket.body.enabled_features.sso.type',
    level: 'contract',
    bug: "A Yii2 model with ['enabled_features.sso', 'boolean'] and the validator's strict left false, so the value passes when $value == '1' or $value == '0', and PHP 8 compares two numeric strings as numbers: enabled_features.sso \"1.0\" (or 1, \"01\", \" 0\") creates the ticket instead of 400; \"yes\" is still refused.",
    install: (app) => editJsonBody(app, 'sso-ticket', (body) => editFeature(body, 'sso', yiiLooseBoolean)),
  },
  {
    id: 'ho29-provisioning-scopes-grape-array-coerce',
    clause: 'sso-ticket.body.provisioning_config.scopes.type',
    level: 'contract',
    bug: 'A Grape API declaring optional :scopes, type: Array[String], coerce_with: ->(v) { Array(v) } (written so that a form client may send one scope), and Kernel#Array wraps a lone string in a list: provisioning_config.scopes "get:users" (a string) creates the ticket instead of 400; 5 (which becomes [5], not a list of strings) is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && isObject(body.provisioning_config) && typeof body.provisioning_config.scopes === 'string'
          ? { ...body, provisioning_config: { ...body.provisioning_config, scopes: [body.provisioning_config.scopes] } }
          : body,
      ),
  },
  {
    id: 'ho29-connection-config-zod-nullish-prisma',
    clause: 'sso-ticket.body.connection_config.type',
    level: 'contract',
    bug: 'A TypeScript service whose zod schema was generated from its Prisma model, where connectionConfig is a nullable Json? column, so the field is z.object(...).nullish() and a null is then passed to Prisma as "no configuration": connection_config null creates the ticket instead of 400; connection_config "acme" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !Object.hasOwn(body, 'connection_config') || body.connection_config !== null) return body;
        const { connection_config: _null, ...rest } = body;
        return rest;
      }),
  },
  {
    id: 'ho29-organization-id-mongoose-array-in',
    clause: 'sso-ticket.body.enabled_organizations.organization_id.type',
    level: 'contract',
    bug: 'A Node service that checks each organization with Organization.findOne({ _id: item.organization_id }) and no type check of its own, and Mongoose casts an array given for a scalar path into $in: an organization item {"organization_id": ["org_..."]} (a list holding an organization id) creates the ticket instead of 400; {"organization_id": [42]} and {"organization_id": []} are still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !Array.isArray(body.enabled_organizations)) return body;
        let changed = false;
        const organizations = body.enabled_organizations.map((item: unknown) => {
          if (!isObject(item) || !Array.isArray(item.organization_id)) return item;
          const ids: unknown[] = item.organization_id;
          if (ids.length === 0 || !ids.every((id) => typeof id === 'string')) return item;
          changed = true;
          return { ...item, organization_id: ids[0] };
        });
        return changed ? { ...body, enabled_organizations: organizations } : body;
      }),
  },
]);
