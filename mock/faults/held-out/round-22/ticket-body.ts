// The ticket body, at every depth: ttl_sec moved into a COBOL PIC 9(6) field (high-order digits
// lost), connection_id checked inside Clojure's when-let (false taken for absent), union members
// written in Avro's JSON encoding unwrapped (provisioning_config.scopes, organization_id), ttl_sec
// made required by a serde struct without #[serde(default)]; and the observed rule: metadata values
// decoded weakly (numbers and booleans made strings). Each lets its near miss through (or, for the
// required field, refuses what is valid); a plainly wrong value is answered as before.
import { editJsonBody, editRequests } from '../../support/route-edits.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** The largest value a PIC 9(6) field holds, plus one: a MOVE keeps the six low-order digits. */
const PIC_9_6 = 1_000_000;

/** The body with `edit` applied to the object at `field`, when it is one. */
const atObject = (body: unknown, field: string, edit: (value: Fields) => Fields | undefined): unknown => {
  if (!isObject(body) || !isObject(body[field])) return body;
  const edited = edit(body[field]);
  return edited === undefined ? body : { ...body, [field]: edited };
};
/** Avro's JSON encoding of a union value, {"<branch type>": value}, when its branch is `type`. */
const avroBranch = (value: unknown, type: string, fits: (inner: unknown) => boolean): { found: boolean; inner?: unknown } => {
  if (!isObject(value)) return { found: false };
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === type && fits(value[type]) ? { found: true, inner: value[type] } : { found: false };
};

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho22-ttl-sec-cobol-pic-9-6',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: 'The request mapped onto a mainframe copybook whose TTL-SEC is PIC 9(6), the range checked by the COBOL program after the MOVE, which keeps the six low-order digits: ttl_sec 1003600 is taken as 3600 and the ticket created instead of 400; 1500000 (taken as 500000) is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && typeof body.ttl_sec === 'number' && Number.isSafeInteger(body.ttl_sec) && body.ttl_sec >= PIC_9_6
          ? { ...body, ttl_sec: body.ttl_sec % PIC_9_6 }
          : body,
      ),
  },
  {
    id: 'ho22-connection-id-false-clojure-when-let',
    clause: 'sso-ticket.body.connection_id.type',
    level: 'contract',
    bug: 'connection_id checked in Clojure inside (when-let [id (:connection_id body)] (validate-id id)), and false is as falsy as nil there: "connection_id": false (or null) skips the check and the ticket is created, as for no connection, instead of 400; 0, truthy in Clojure, is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || (body.connection_id !== false && body.connection_id !== null)) return body;
        const { connection_id: _skipped, ...rest } = body;
        return rest;
      }),
  },
  {
    id: 'ho22-provisioning-scopes-avro-union',
    clause: 'sso-ticket.body.provisioning_config.scopes.type',
    level: 'contract',
    bug: 'The body converted to an Avro record whose optional fields are unions ["null", ...], by a bridge that also takes Avro\'s JSON encoding of a union, {"<branch>": value}: provisioning_config.scopes {"array": ["get:users"]} creates the ticket instead of 400; {"list": ["get:users"]} is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        atObject(body, 'provisioning_config', (config) => {
          const branch = avroBranch(config.scopes, 'array', Array.isArray);
          return branch.found ? { ...config, scopes: branch.inner } : undefined;
        }),
      ),
  },
  {
    id: 'ho22-organization-id-avro-union',
    clause: 'sso-ticket.body.enabled_organizations.organization_id.type',
    level: 'contract',
    bug: 'The same Avro bridge for the organizations\' items, whose organization_id is a ["null", "string"] union: {"organization_id": {"string": "org_..."}} creates the ticket instead of 400; {"organization_id": {"str": "org_..."}} is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !Array.isArray(body.enabled_organizations)) return body;
        let changed = false;
        const organizations = body.enabled_organizations.map((item: unknown) => {
          if (!isObject(item)) return item;
          const branch = avroBranch(item.organization_id, 'string', (inner) => typeof inner === 'string');
          if (!branch.found) return item;
          changed = true;
          return { ...item, organization_id: branch.inner };
        });
        return changed ? { ...body, enabled_organizations: organizations } : body;
      }),
  },
  {
    id: 'ho22-ttl-sec-serde-required',
    clause: 'sso-ticket.body.optional',
    level: 'contract',
    bug: 'The body deserialised by serde into a struct whose ttl_sec is a u32 without #[serde(default)] (the default applied later, for 0 only), so a body without it fails with "missing field `ttl_sec`": a JSON body {} (or none) is refused 400 instead of creating a ticket; {"ttl_sec": 3600} and {"ttl_sec": 0} still create one.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        const text = exchange.body.toString('utf8');
        const missing = (value: unknown) => isObject(value) && !Object.hasOwn(value, 'ttl_sec');
        if (text.trim() === '') {
          return {
            ...exchange,
            headers: { ...exchange.headers, 'content-type': 'application/json' },
            body: Buffer.from(JSON.stringify({ ttl_sec: null }), 'utf8'),
          };
        }
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          return exchange;
        }
        return missing(value)
          ? { ...exchange, body: Buffer.from(JSON.stringify({ ...(value as Fields), ttl_sec: null }), 'utf8') }
          : exchange;
      }),
  },
  {
    id: 'ho22-metadata-numbers-weakly-decoded',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config.metadata decoded into a Go map[string]string by mapstructure with WeaklyTypedInput, which turns numbers and booleans into strings before anything checks them: metadata {"tier": 42} (or {"sso": true}) creates the ticket instead of 400; {"tier": {"level": 1}} is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        atObject(body, 'connection_config', (config) => {
          if (!isObject(config.metadata)) return undefined;
          const entries = Object.entries(config.metadata);
          const weak = (value: unknown) => typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
          if (!entries.some(([, value]) => weak(value))) return undefined;
          const metadata = Object.fromEntries(
            entries.map(([key, value]) => [key, weak(value) ? (typeof value === 'boolean' ? (value ? '1' : '0') : String(value)) : value]),
          );
          return { ...config, metadata };
        }),
      ),
  },
]);
