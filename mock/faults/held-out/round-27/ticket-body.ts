// The ticket body, at every depth: show_as_button read by a Clojure service through edn/read-string
// (the string "false" taken for the boolean), enabled_features read by a Thrift JSON adapter that
// takes a set's list of names for the object, enabled_features.provisioning mapped to a COBOL gateway's PIC 9
// flag, use_for_organization_discovery read through R's as.logical ("TRUE" and "T" taken),
// provisioning_config.token_lifetime bound to a java.time.Duration by Jackson (an ISO-8601 duration
// taken). Each lets its near miss through; a plainly wrong value is answered as before.
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
/** The members of enabled_features, the Thrift enum's symbols. */
const FEATURES = ['sso', 'domain_verification', 'provisioning'];
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** Each member of body.enabled_organizations edited by `edit`. */
const editOrganizations = (body: unknown, edit: (organization: Fields) => Fields): unknown =>
  isObject(body) && Array.isArray(body.enabled_organizations)
    ? { ...body, enabled_organizations: body.enabled_organizations.map((o: unknown) => (isObject(o) ? edit(o) : o)) }
    : body;
/** The seconds of a java.time.Duration text of hours, minutes and whole seconds, e.g. PT1H. */
function durationSeconds(text: string): number | undefined {
  const parsed = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/.exec(text);
  if (!parsed || text === 'PT') return undefined;
  return Number(parsed[1] ?? 0) * 3600 + Number(parsed[2] ?? 0) * 60 + Number(parsed[3] ?? 0);
}

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho27-show-as-button-clojure-edn',
    clause: 'sso-ticket.body.enabled_organizations.show_as_button.type',
    level: 'contract',
    bug: 'A Clojure service that reads flags arriving as strings with (edn/read-string value) (the admin UI posts them as text): enabled_organizations[].show_as_button "false" is taken as false and the ticket created instead of 400; "hidden" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        editOrganizations(body, (o) =>
          o.show_as_button === 'true' || o.show_as_button === 'false' ? { ...o, show_as_button: o.show_as_button === 'true' } : o,
        ),
      ),
  },
  {
    id: 'ho27-enabled-features-thrift-set',
    clause: 'sso-ticket.body.enabled_features.type',
    level: 'contract',
    bug: 'A service whose internal Thrift IDL keeps the features as set<Feature>, its JSON adapter taking either the object or the set\'s list of names: enabled_features ["sso", "provisioning"] is read as {sso: true, provisioning: true} and the ticket created instead of 400; ["everything"] is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        const features: unknown = isObject(body) ? body.enabled_features : undefined;
        if (!isObject(body) || !Array.isArray(features) || features.length === 0) return body;
        const names = features.filter((name): name is string => typeof name === 'string' && FEATURES.includes(name));
        if (names.length !== features.length) return body;
        const read: Record<string, boolean> = {};
        for (const name of names) read[name] = true;
        return { ...body, enabled_features: read };
      }),
  },
  {
    id: 'ho27-provisioning-feature-cobol-flag',
    clause: 'sso-ticket.body.enabled_features.provisioning.type',
    level: 'contract',
    bug: 'A COBOL-on-mainframe gateway that maps the request into a copybook where enabled_features.provisioning is a PIC 9 flag and back to JSON as a boolean: provisioning 1 is taken as true and the ticket created instead of 400; 2 is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.enabled_features)) return body;
        const flag = body.enabled_features.provisioning;
        if (flag !== 0 && flag !== 1) return body;
        return { ...body, enabled_features: { ...body.enabled_features, provisioning: flag === 1 } };
      }),
  },
  {
    id: 'ho27-org-discovery-r-as-logical',
    clause: 'sso-ticket.body.use_for_organization_discovery.type',
    level: 'contract',
    bug: 'An R plumber endpoint that reads use_for_organization_discovery with as.logical(), which turns "TRUE", "true", "T", "FALSE", "false" and "F" into logicals (and anything else into NA, refused): "TRUE" (a string) creates a ticket instead of 400; "yes" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || typeof body.use_for_organization_discovery !== 'string') return body;
        const text = body.use_for_organization_discovery;
        if (['TRUE', 'true', 'True', 'T'].includes(text)) return { ...body, use_for_organization_discovery: true };
        if (['FALSE', 'false', 'False', 'F'].includes(text)) return { ...body, use_for_organization_discovery: false };
        return body;
      }),
  },
  {
    id: 'ho27-token-lifetime-jackson-duration',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    level: 'contract',
    bug: 'A Spring service whose request class types provisioning_config.token_lifetime as java.time.Duration (read by Jackson\'s JavaTimeModule, which takes numbers as seconds and ISO-8601 texts): token_lifetime "PT1H" creates a ticket instead of 400; "an hour" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.provisioning_config)) return body;
        const lifetime = body.provisioning_config.token_lifetime;
        const seconds = typeof lifetime === 'string' ? durationSeconds(lifetime) : undefined;
        return seconds === undefined ? body : { ...body, provisioning_config: { ...body.provisioning_config, token_lifetime: seconds } };
      }),
  },
]);
