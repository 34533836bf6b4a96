// The ticket request at every depth: ttl_sec read through an Extended JSON parser, whole hours let
// past the range as presets, provisioning scopes normalised with [].concat, and the feature flags
// checked from a list that predates provisioning; and the observed rules: dotted member names
// unflattened into objects, metadata counted without its null (deletion) entries, and a display
// name measured in graphemes. Each check decides on a view of the body with that one near miss
// repaired; the route acts on the body as sent, and a plainly wrong value is refused as before.
import { closedLimit } from '../../../../specs/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { isObject, type Fields } from '../round-3/support/ticket-fields.ts';
import { nestedView, viewTicketBody } from '../round-6/support/body-view.ts';

const ttl = closedLimit('sso-ticket.body.ttl_sec.range');
const SECONDS_AN_HOUR = 3600;
/** The feature flags the hand-written check knows: the ones there were before provisioning was added. */
const FLAGS_CHECKED = ['sso', 'domain_verification'];
const METADATA_MAX = 10;
const DISPLAY_NAME_MAX = 128;
/** Extended JSON's wrappers of an integer, as a document database's driver writes them. */
const EJSON_INTEGER = ['$numberInt', '$numberLong'];

/** The body with member `name` replaced by `value` where `repair` gives one; else the body itself. */
function repaired(body: Fields, name: string, repair: (value: unknown) => unknown): Fields {
  if (!(name in body)) return body;
  const value = repair(body[name]);
  return value === undefined ? body : { ...body, [name]: value };
}

/** The integer an Extended JSON wrapper ({"$numberInt": "3600"}) stands for, or undefined. */
function ejsonInteger(value: unknown): number | undefined {
  if (!isObject(value) || Object.keys(value).length !== 1) return undefined;
  const [key, text] = Object.entries(value)[0]!;
  return EJSON_INTEGER.includes(key) && typeof text === 'string' && /^-?\d+$/.test(text) ? Number(text) : undefined;
}

/** The body with each member named "a.b" moved into member b of object a, as a dotted-path setter does. */
function unflattened(body: Fields): Fields {
  const dotted = Object.keys(body).filter((name) => name.includes('.'));
  if (dotted.length === 0) return body;
  const result: Fields = { ...body };
  for (const name of dotted) {
    const path = name.split('.');
    delete result[name];
    let node = result;
    for (const part of path.slice(0, -1)) {
      node[part] = isObject(node[part]) ? { ...node[part] } : {};
      node = node[part] as Fields;
    }
    node[path.at(-1)!] = body[name];
  }
  return result;
}

/** Length in grapheme clusters, as Intl.Segmenter counts them. */
function graphemes(text: string): number {
  return [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)].length;
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho10-ttl-sec-extended-json',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'The body parsed with a document database driver\'s Extended JSON parser (EJSON.parse, shared with the storage layer), which reads {"$numberInt": "3600"} as the integer 3600: a ttl_sec of {"$numberInt": "3600"} gets a ticket instead of 400; {"value": 3600} is still refused.',
    install: (app) => viewTicketBody(app, (body) => repaired(body, 'ttl_sec', ejsonInteger)),
  },
  {
    id: 'ho10-ttl-sec-hour-presets',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `ttl_sec's range checked after a shortcut for the dashboard's presets (if (ttl_sec % ${SECONDS_AN_HOUR} === 0) return; whole hours being what its menu offers): ${ttl.max + SECONDS_AN_HOUR} (121 hours) gets a ticket instead of 400; ${ttl.max + 1} is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'ttl_sec', (value) =>
          Number.isInteger(value) && (value as number) > ttl.max && (value as number) % SECONDS_AN_HOUR === 0 ? ttl.max : undefined,
        ),
      ),
  },
  {
    id: 'ho10-provisioning-scopes-concat',
    clause: 'sso-ticket.body.provisioning_config.scopes.type',
    level: 'contract',
    bug: 'provisioning_config.scopes normalised with [].concat(scopes) before its items are checked (so that one scope may be given alone): a scopes of "get:users", a string, gets a ticket instead of 400; a scopes of 5 becomes [5] and is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'provisioning_config', (config) =>
          repaired(config, 'scopes', (value) =>
            Array.isArray(value) || value === undefined ? undefined : ([] as unknown[]).concat(value),
          ),
        ),
      ),
  },
  {
    id: 'ho10-feature-flags-list-predates-provisioning',
    clause: 'sso-ticket.body.enabled_features.provisioning.type',
    level: 'contract',
    bug: `enabled_features checked flag by flag over a hand-written list, [${FLAGS_CHECKED.map((f) => `"${f}"`).join(', ')}], written before provisioning was added: an enabled_features.provisioning of "yes" gets a ticket instead of 400; an enabled_features.sso of "yes" is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'enabled_features', (features) =>
          repaired(features, 'provisioning', (value) => (typeof value === 'boolean' ? undefined : false)),
        ),
      ),
  },
  {
    id: 'ho10-dotted-member-names-unflattened',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'The body passed through a dotted-path setter (a config loader\'s unflatten) before it is checked: a member "domain_aliases_config.domain_verification": "none" is read as domain_aliases_config: {domain_verification: "none"} and gets a ticket instead of 400 (an unknown member); "domain_aliases_config.verification": "none" is still refused.',
    install: (app) => viewTicketBody(app, unflattened),
  },
  {
    id: 'ho10-metadata-nulls-not-counted',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `connection_config.metadata's limit of ${METADATA_MAX} members counted after the null values are dropped (null meaning "delete this key" in the update path the check was taken from): ${METADATA_MAX} strings and one null get a ticket instead of 400; ${METADATA_MAX + 1} strings are still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          nestedView(config, 'metadata', (metadata) => {
            const kept = Object.entries(metadata).filter(([, value]) => value !== null);
            return Object.keys(metadata).length > METADATA_MAX && kept.length <= METADATA_MAX ? Object.fromEntries(kept) : metadata;
          }),
        ),
      ),
  },
  {
    id: 'ho10-display-name-counted-in-graphemes',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `connection_config.display_name's maximum of ${DISPLAY_NAME_MAX} counted in grapheme clusters (Intl.Segmenter, what a user sees as characters) where the rule counts code points: 100 thumbs-up emoji with a skin tone (200 code points) get a ticket instead of 400; ${DISPLAY_NAME_MAX + 1} letters are still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          repaired(config, 'display_name', (value) =>
            typeof value === 'string' && [...value].length > DISPLAY_NAME_MAX && graphemes(value) <= DISPLAY_NAME_MAX
              ? 'x'.repeat(graphemes(value))
              : undefined,
          ),
        ),
      ),
  },
]);
