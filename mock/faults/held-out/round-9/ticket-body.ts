// The ticket request at every depth: ttl_sec bounded in whole days, use_for_organization_discovery
// compared with ==, enabled_clients spread into a list, enabled_features wrapped by Object(), and
// show_as_button compared as text; and the observed rules: members whose names start with "_" or
// "$" skipped as metadata, domain_verification looked for in its joined list of values, and the
// connection name's pattern tested line by line. Each check decides on a view of the body with
// that one near miss repaired; the route acts on the body as sent, and a plainly wrong value is
// refused as before.
import { closedLimit } from '../../../../specs/index.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { isObject, type Fields } from '../round-3/support/ticket-fields.ts';
import { nestedView, viewTicketBody } from '../round-6/support/body-view.ts';

const ttl = closedLimit('sso-ticket.body.ttl_sec.range');
const SECONDS_A_DAY = 86_400;
const VERIFICATION_MODES = ['none', 'optional', 'required'];
const CONNECTION_NAME = /^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/;

/** The body with member `name` replaced by `value` where `repair` gives one; else the body itself. */
function repaired(body: Fields, name: string, repair: (value: unknown) => unknown): Fields {
  if (!(name in body)) return body;
  const value = repair(body[name]);
  return value === undefined ? body : { ...body, [name]: value };
}

/** The organizations with each show_as_button that String() reads as a boolean made that boolean. */
function organizationsAsRead(organizations: unknown): unknown {
  if (!Array.isArray(organizations)) return undefined;
  let changed = false;
  const read = organizations.map((organization: unknown) => {
    if (!isObject(organization) || typeof organization.show_as_button === 'boolean' || !('show_as_button' in organization))
      return organization;
    const text = String(organization.show_as_button);
    if (text !== 'true' && text !== 'false') return organization;
    changed = true;
    return { ...organization, show_as_button: text === 'true' };
  });
  return changed ? read : undefined;
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho9-ttl-sec-bounded-in-whole-days',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `ttl_sec's maximum checked in days, Math.floor(ttl_sec / ${SECONDS_A_DAY}) <= ${ttl.max / SECONDS_A_DAY}, the limit being "five days": ${ttl.max + 1} (and anything short of ${6 * SECONDS_A_DAY}) gets a ticket instead of 400; ${6 * SECONDS_A_DAY} is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'ttl_sec', (value) =>
          Number.isInteger(value) && (value as number) > ttl.max && Math.floor((value as number) / SECONDS_A_DAY) <= ttl.max / SECONDS_A_DAY
            ? ttl.max
            : undefined,
        ),
      ),
  },
  {
    id: 'ho9-discovery-flag-loose-equality',
    clause: 'sso-ticket.body.use_for_organization_discovery.type',
    level: 'contract',
    bug: 'use_for_organization_discovery checked with value == true || value == false, whose loose equality converts what it compares: "1" and 0 get a ticket instead of 400; "yes" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'use_for_organization_discovery', (value) =>
          typeof value !== 'boolean' && (value == true || value == false) ? Boolean(Number(value)) : undefined,
        ),
      ),
  },
  {
    id: 'ho9-enabled-clients-spread',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'enabled_clients checked as [...enabled_clients].every((id) => typeof id === "string"), the spread making a list of any iterable: a string (a client id not in a list) gets a ticket instead of 400, as the list of its characters; a number, which does not spread, is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) => repaired(body, 'enabled_clients', (value) => (typeof value === 'string' ? [...value] : undefined))),
  },
  {
    id: 'ho9-enabled-features-object-wrapped',
    clause: 'sso-ticket.body.enabled_features.type',
    level: 'contract',
    bug: 'enabled_features read through Object(enabled_features) before its members are checked, so a boolean or a number becomes a wrapper object with no members: true, false or 1 gets a ticket instead of 400; a string, whose wrapper has its characters as members, is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        repaired(body, 'enabled_features', (value) => (typeof value === 'boolean' || typeof value === 'number' ? {} : undefined)),
      ),
  },
  {
    id: 'ho9-show-as-button-string-compared',
    clause: 'sso-ticket.body.enabled_organizations.show_as_button.type',
    level: 'contract',
    bug: 'show_as_button checked as ["true", "false"].includes(String(value)): an organization whose show_as_button is "false" (or ["true"]) gets a ticket instead of 400; "no" is still refused.',
    install: (app) => viewTicketBody(app, (body) => repaired(body, 'enabled_organizations', organizationsAsRead)),
  },
  {
    id: 'ho9-underscore-members-as-metadata',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'Members whose names start with "_" or "$" skipped by the unknown-member check, taken for metadata ("_links", "$schema"): a ticket request with "_comment": "onboarding" gets a ticket instead of 400; "comment": "onboarding" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) => {
        const kept = Object.entries(body).filter(([name]) => !name.startsWith('_') && !name.startsWith('$'));
        return kept.length === Object.keys(body).length ? body : Object.fromEntries(kept);
      }),
  },
  {
    id: 'ho9-domain-verification-in-joined-enum',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: `domain_verification checked as "${VERIFICATION_MODES.join('|')}".includes(value), a membership test on the joined list of values: "option" (or "none|optional") gets a ticket instead of 400; "maybe" is still refused.`,
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'domain_aliases_config', (config) =>
          repaired(config, 'domain_verification', (value) =>
            typeof value === 'string' && !VERIFICATION_MODES.includes(value) && VERIFICATION_MODES.join('|').includes(value)
              ? 'none'
              : undefined,
          ),
        ),
      ),
  },
  {
    id: 'ho9-connection-name-multiline-pattern',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config.name tested with its pattern compiled with the "m" flag (copied from a rule for multi-line text), so ^ and $ match at each line: "new-conn\\nnot a name!" gets a ticket instead of 400; "not a name!" is still refused.',
    install: (app) =>
      viewTicketBody(app, (body) =>
        nestedView(body, 'connection_config', (config) =>
          repaired(config, 'name', (value) =>
            typeof value === 'string' && !CONNECTION_NAME.test(value)
              ? value.split('\n').find((line) => CONNECTION_NAME.test(line))
              : undefined,
          ),
        ),
      ),
  },
]);
