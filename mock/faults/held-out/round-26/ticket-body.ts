// The ticket body, at every depth: ttl_sec coerced by Ruby's Integer() (a fraction dropped),
// enabled_clients read by a Play JSON Reads that takes one string for a list, enabled_features.sso
// coerced by Mojolicious' JSON::Validator, use_for_organization_discovery null read as absent by
// F#'s Thoth.Json, provisioning_config.token_lifetime read through Go's ",string" tag. Each lets its
// near miss through; a plainly wrong value is answered as before.
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho26-ttl-sec-ruby-integer-truncates',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'A Hanami (Ruby) action whose params schema declares ttl_sec with dry-types\' Coercible::Integer, which calls Kernel#Integer and truncates a Float: ttl_sec 3600.5 creates the ticket (for 3600 seconds) instead of 400 for a number with a fraction; ttl_sec "soon" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && typeof body.ttl_sec === 'number' && Number.isFinite(body.ttl_sec) && !Number.isInteger(body.ttl_sec)
          ? { ...body, ttl_sec: Math.trunc(body.ttl_sec) }
          : body,
      ),
  },
  {
    id: 'ho26-enabled-clients-play-single-or-list',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'A Play (Scala) controller whose Reads for enabled_clients is the team\'s singleOrList helper (Reads.list orElse a single string wrapped in a List), written for query parameters and reused for the body: enabled_clients "<a client id>" (a string, not an array) creates the ticket instead of 400; enabled_clients 5 is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && typeof body.enabled_clients === 'string' ? { ...body, enabled_clients: [body.enabled_clients] } : body,
      ),
  },
  {
    id: 'ho26-sso-feature-mojo-coerce-booleans',
    clause: 'sso-ticket.body.enabled_features.sso.type',
    level: 'contract',
    bug: 'A Mojolicious (Perl) app validating bodies with JSON::Validator under coerce => "booleans" (set for its query strings, where a boolean arrives as text), which turns "true" and "false" into booleans in the body as well: enabled_features.sso "true" (a string) creates the ticket instead of 400; "yes" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.enabled_features)) return body;
        const sso = body.enabled_features.sso;
        if (sso !== 'true' && sso !== 'false') return body;
        return { ...body, enabled_features: { ...body.enabled_features, sso: sso === 'true' } };
      }),
  },
  {
    id: 'ho26-org-discovery-thoth-null-optional',
    clause: 'sso-ticket.body.use_for_organization_discovery.type',
    level: 'contract',
    bug: 'An F# (Giraffe) decoder for the body written with Thoth.Json\'s get.Optional.Field "use_for_organization_discovery" Decode.bool, which yields None for a null as for a missing member: use_for_organization_discovery null creates the ticket instead of 400 for a value that is not a boolean; "no" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || body.use_for_organization_discovery !== null) return body;
        const { use_for_organization_discovery: _dropped, ...rest } = body;
        return rest;
      }),
  },
  {
    id: 'ho26-token-lifetime-go-string-tag',
    clause: 'sso-ticket.body.provisioning_config.token_lifetime.type',
    level: 'contract',
    bug: 'A Go handler whose ProvisioningConfig struct tags TokenLifetime `json:"token_lifetime,string"` (copied from a struct that carried 64-bit ids for JavaScript clients), so encoding/json reads the member from a quoted number: provisioning_config.token_lifetime "3600" (a string) creates the ticket instead of 400; "an hour" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.provisioning_config)) return body;
        const lifetime = body.provisioning_config.token_lifetime;
        if (typeof lifetime !== 'string' || !/^-?\d+$/.test(lifetime)) return body;
        return { ...body, provisioning_config: { ...body.provisioning_config, token_lifetime: Number(lifetime) } };
      }),
  },
]);
