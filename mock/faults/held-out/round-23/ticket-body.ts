// The ticket body, at every depth: form values bound by ASP.NET Core under a German culture ("."
// groups thousands, "," is the decimal mark), a list of strings decoded by Go (a null item left as
// the zero value ""), ttl_sec's maximum read from configuration with parseInt (which stops at a
// numeric separator), enabled_features read with Play JSON's asOpt[JsObject] (a value of another
// type read as absent); and the observed rules: unknown top-level members dropped as Rails strong
// parameters drop unpermitted keys, connection_config.name converted to text as Json.NET converts
// scalars for a string property. Each lets its near miss through (or, for the maximum, refuses what
// is valid); a plainly wrong value is answered as before.
import { schema } from '../../../../specs/index.ts';
import { isFormMediaType } from '../../../stages/json-body.ts';
import { editBodySchema, fieldNode } from '../../support/check-edits.ts';
import { editJsonBody, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** A number as de-DE writes it: groups of three after "." and an optional "," decimal part. */
const GERMAN_NUMBER = /^-?\d{1,3}(?:\.\d{3})+(?:,\d+)?$|^-?\d+,\d+$/;
/** The configured maximum, written with a numeric separator as in the code it was copied from. */
const TTL_SEC_MAX_SETTING = '432_000';
/** The members the service's model knows at the top level (the observed body schema's). */
const PERMITTED = new Set(Object.keys(schema('SsoTicketRequest', 'observed').properties ?? {}));

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho23-ttl-sec-aspnet-german-culture',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'A form-encoded ticket body bound by ASP.NET Core model binding to a decimal TtlSec (so that a fraction gets a message of its own) under the server\'s culture, de-DE, where "." groups thousands and "," is the decimal mark: ttl_sec=3.600 is bound as 3600 and ttl_sec=3,0 as 3, and the ticket is created instead of 400 for a number with a fraction; ttl_sec=3,5 (3.5) is still refused.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
        const form = new URLSearchParams(exchange.body.toString('utf8'));
        const values = form.getAll('ttl_sec');
        if (values.length !== 1 || !GERMAN_NUMBER.test(values[0]!)) return exchange;
        form.set('ttl_sec', values[0]!.replace(/\./g, '').replace(',', '.'));
        return { ...exchange, body: Buffer.from(form.toString(), 'utf8') };
      }),
  },
  {
    id: 'ho23-enabled-clients-go-null-item',
    clause: 'sso-ticket.body.enabled_clients.type',
    level: 'contract',
    bug: 'The body decoded by Go\'s encoding/json into a struct whose EnabledClients is []string, and a JSON null unmarshalled into a string is a no-op that leaves its zero value: enabled_clients [null] is read as [""] and the ticket created instead of 400 for an item that is not a string; [5] ("cannot unmarshal number into Go value of type string") is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && Array.isArray(body.enabled_clients) && body.enabled_clients.includes(null)
          ? { ...body, enabled_clients: body.enabled_clients.map((item: unknown) => (item === null ? '' : item)) }
          : body,
      ),
  },
  {
    id: 'ho23-ttl-sec-max-parseint-separator',
    clause: 'sso-ticket.body.ttl_sec.range',
    level: 'contract',
    bug: `ttl_sec's maximum read from the service's configuration, TICKET_TTL_MAX_SEC="${TTL_SEC_MAX_SETTING}" (written with the numeric separator of the code it was copied from), with parseInt, which stops at the "_": the maximum is ${Number.parseInt(TTL_SEC_MAX_SETTING, 10)}, and ttl_sec 3600 (or 432000) is refused 400 instead of creating a ticket; ttl_sec 0 and 300 still create one, and 432001 is still refused.`,
    install: (app) =>
      editBodySchema(app, 'sso-ticket', (body) => {
        fieldNode(body, 'ttl_sec').maximum = Number.parseInt(TTL_SEC_MAX_SETTING, 10);
      }),
  },
  {
    id: 'ho23-enabled-features-play-asopt',
    clause: 'sso-ticket.body.enabled_features.type',
    level: 'contract',
    bug: 'enabled_features read by a Scala Play controller with (json \\ "enabled_features").asOpt[JsObject], which answers None for a value of another type as it does for a missing one: "enabled_features": true (or "sso", or null) is read as absent and the ticket created instead of 400; {"sso": "yes"}, an object, is still validated and refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !Object.hasOwn(body, 'enabled_features') || isObject(body.enabled_features)) return body;
        const { enabled_features: _dropped, ...rest } = body;
        return rest;
      }),
  },
  {
    id: 'ho23-unpermitted-members-dropped-rails',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'The body taken through Rails strong parameters, params.permit(...) listing the known members, with action_on_unpermitted_parameters left at :log, so an unknown top-level member is dropped silently instead of refused: {"ttl_sec": 3600, "tll_sec": 60} (or any misspelt member) creates the ticket instead of 400 invalid_body; an unknown member inside enabled_features is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || Object.keys(body).every((name) => PERMITTED.has(name))) return body;
        return Object.fromEntries(Object.entries(body).filter(([name]) => PERMITTED.has(name)));
      }),
  },
  {
    id: 'ho23-connection-name-json-net-scalar',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'connection_config deserialised by Json.NET (Newtonsoft) into a class whose Name is a string, and Json.NET converts a JSON number or boolean read for a string property to its text: connection_config.name 42 becomes "42" (true becomes "True") and the ticket is created instead of 400; {"name": {"value": "acme"}} is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.connection_config)) return body;
        const name = body.connection_config.name;
        if (typeof name !== 'number' && typeof name !== 'boolean') return body;
        const text = typeof name === 'boolean' ? (name ? 'True' : 'False') : String(name);
        return { ...body, connection_config: { ...body.connection_config, name: text } };
      }),
  },
]);
