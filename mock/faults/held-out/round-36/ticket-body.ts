// The ticket body: a Flask handler reading the body with request.get_json(), which is Python's
// json.loads and takes NaN; a Rails controller whose strong parameters require the wrapped body;
// and the observed rules: a Rust (axum) service whose provisioning_config struct flattens a shared
// part, which serde's deny_unknown_fields does not survive, and whose scope enums derive strum's
// EnumString with ascii_case_insensitive. Other values are judged as before.
import { capture } from '../../support/captured.ts';
import { editJsonBody, editReplies, editRequests } from '../../support/route-edits.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
/** A ttl_sec written NaN, the literal Python's json module reads (JavaScript's does not). */
const TTL_NAN = /("ttl_sec"\s*:\s*)NaN(?=\s*[,}])/;
/** The members of provisioning_config the Rust struct names. */
const PROVISIONING_MEMBERS = new Set(['scopes', 'token_lifetime']);
const PROVISIONING_SCOPE = /^(get|post|put|patch|delete):(users|groups)$/;

export const ticketBodyFaults = heldOutFamily([
  {
    id: 'ho36-ttl-sec-flask-json-nan',
    clause: 'sso-ticket.body.ttl_sec.type',
    level: 'contract',
    bug: 'A Flask handler that reads the body with request.get_json(), which is json.loads and takes the non-standard literals NaN and Infinity, and checks if not isinstance(ttl, (int, float)) or ttl < 0 or ttl > 432000 (floats allowed for clients that send 3600.0), which NaN passes since every comparison with it is false: {"ttl_sec": NaN} creates a ticket (with the default lifetime) instead of 400; {"ttl_sec": Infinity} is still refused.',
    install: (app) =>
      editRequests(app, 'sso-ticket', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        const text = exchange.body.toString('utf8');
        return TTL_NAN.test(text) ? { ...exchange, body: Buffer.from(text.replace(TTL_NAN, '$10'), 'utf8') } : exchange;
      }),
  },
  {
    id: 'ho36-ticket-rails-require-wrapped-params',
    clause: 'sso-ticket.body.optional',
    level: 'contract',
    bug: 'A Rails controller whose ticket_params are params.require(:sso_ticket).permit(...), the JSON body wrapped under :sso_ticket by ParamsWrapper, and require raises ParameterMissing ("param is missing or the value is empty") when the wrapped hash is empty: a request whose body is {} (or that has no body) is refused 400 instead of creating a ticket; a body with any known field, {"ttl_sec": 0}, still creates one.',
    install: (app) => {
      const errors = capture(app, 'errors');
      editReplies(app, ['sso-ticket'], (reply, exchange) => {
        if (reply.status !== 201) return reply;
        const text = exchange.body.toString('utf8').trim();
        let empty = text.length === 0;
        if (!empty && isJsonMediaType(exchange.headers['content-type'])) {
          try {
            const value: unknown = JSON.parse(text);
            empty = isObject(value) && Object.keys(value).length === 0;
          } catch {
            empty = false;
          }
        }
        return empty ? answeredInstead(reply, errors().reply('invalid_body', 'param is missing or the value is empty: sso_ticket')) : reply;
      });
    },
  },
  {
    id: 'ho36-provisioning-config-serde-flatten-unknown',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'A Rust (axum) service whose ProvisioningConfig is #[serde(deny_unknown_fields)] with its token_lifetime in a #[serde(flatten)] struct shared with another type, and serde does not support deny_unknown_fields beside flatten (the unknown members go to the flattened part, which ignores them): provisioning_config {"scopes": ["get:users"], "extra": 1} creates a ticket instead of 400; an unknown member of domain_aliases_config, which flattens nothing, is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.provisioning_config)) return body;
        const config = body.provisioning_config;
        if (Object.keys(config).every((name) => PROVISIONING_MEMBERS.has(name))) return body;
        const known = Object.fromEntries(Object.entries(config).filter(([name]) => PROVISIONING_MEMBERS.has(name)));
        return { ...body, provisioning_config: known };
      }),
  },
  {
    id: 'ho36-provisioning-scopes-strum-case-insensitive',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'A Rust (axum) service that parses each provisioning scope as "<method>:<resource>" into two enums deriving strum\'s EnumString with #[strum(serialize_all = "lowercase", ascii_case_insensitive)]: provisioning_config.scopes ["GET:Users"] creates a ticket instead of 400; ["fetch:users"] is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.provisioning_config) || !Array.isArray(body.provisioning_config.scopes)) return body;
        const scopes = body.provisioning_config.scopes as unknown[];
        const folded = scopes.map((s) => (typeof s === 'string' && PROVISIONING_SCOPE.test(s.toLowerCase()) ? s.toLowerCase() : s));
        if (folded.every((s, i) => s === scopes[i])) return body;
        return { ...body, provisioning_config: { ...body.provisioning_config, scopes: folded } };
      }),
  },
]);
