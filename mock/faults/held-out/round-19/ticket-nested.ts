// The ticket body's observed nested rules: a pending domain of 256 characters let through, an
// authorize query measured in UTF-8 bytes, a null token_lifetime refused by a non-nullable int, and
// an IdP-initiated protocol matched without regard to case. Each changes the answer to its near
// miss; the plainly wrong (or plainly right) value is answered as before.
import { editJsonBody } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const PENDING_MAX = 255;
const AUTHORIZE_QUERY_MAX = 256;
const PROTOCOLS = ['samlp', 'wsfed', 'oauth2'];

/** The body's connection_config.options.idpinitiated, edited by `edit` (undefined when it does not apply). */
const atIdpInitiated = (body: unknown, edit: (idp: Fields) => Fields | undefined): unknown => {
  if (!isObject(body) || !isObject(body.connection_config)) return body;
  const config = body.connection_config;
  if (!isObject(config.options) || !isObject(config.options.idpinitiated)) return body;
  const edited = edit(config.options.idpinitiated);
  return edited === undefined ? body : { ...body, connection_config: { ...config, options: { ...config.options, idpinitiated: edited } } };
};

export const ticketNestedFaults = heldOutFamily([
  {
    id: 'ho19-pending-domain-256-accepted',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'domain_aliases_config.pending_domains items checked with length <= 256 (the bound of client_authorizequery copied to them) instead of 255: a pending domain of 256 characters creates the ticket instead of 400; 257 characters are still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) => {
        if (!isObject(body) || !isObject(body.domain_aliases_config)) return body;
        const config = body.domain_aliases_config;
        if (
          !Array.isArray(config.pending_domains) ||
          !config.pending_domains.some((d) => typeof d === 'string' && d.length === PENDING_MAX + 1)
        )
          return body;
        const pending_domains = (config.pending_domains as unknown[]).map((d) =>
          typeof d === 'string' && d.length === PENDING_MAX + 1 ? d.slice(1) : d,
        );
        return { ...body, domain_aliases_config: { ...config, pending_domains } };
      }),
  },
  {
    id: 'ho19-authorizequery-measured-in-bytes',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'client_authorizequery measured with Buffer.byteLength (a VARCHAR(256) in bytes) instead of in characters: 255 ASCII characters and one "é" (256 characters, 257 bytes) are refused 400 instead of creating the ticket; 256 ASCII characters are accepted as before.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        atIdpInitiated(body, (idp) =>
          typeof idp.client_authorizequery === 'string' &&
          idp.client_authorizequery.length <= AUTHORIZE_QUERY_MAX &&
          Buffer.byteLength(idp.client_authorizequery, 'utf8') > AUTHORIZE_QUERY_MAX
            ? { ...idp, client_authorizequery: `${idp.client_authorizequery}${'x'.repeat(AUTHORIZE_QUERY_MAX)}` }
            : undefined,
        ),
      ),
  },
  {
    id: 'ho19-token-lifetime-null-refused',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'provisioning_config.token_lifetime bound to a non-nullable int (Go int, Java int) whose decoder refuses null: "token_lifetime": null is refused 400 instead of creating the ticket; 900 is accepted and 899 refused as before.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        isObject(body) && isObject(body.provisioning_config) && body.provisioning_config.token_lifetime === null
          ? { ...body, provisioning_config: { ...body.provisioning_config, token_lifetime: 'null' } }
          : body,
      ),
  },
  {
    id: 'ho19-client-protocol-case-folded',
    clause: 'sso-ticket.body.nested-rules',
    level: 'observed',
    bug: 'idpinitiated.client_protocol matched against its enum with equalsIgnoreCase (Enum.valueOf after toUpperCase): "SAMLP" creates the ticket instead of 400; "saml" is still refused.',
    install: (app) =>
      editJsonBody(app, 'sso-ticket', (body) =>
        atIdpInitiated(body, (idp) =>
          typeof idp.client_protocol === 'string' &&
          !PROTOCOLS.includes(idp.client_protocol) &&
          PROTOCOLS.includes(idp.client_protocol.toLowerCase())
            ? { ...idp, client_protocol: idp.client_protocol.toLowerCase() }
            : undefined,
        ),
      ),
  },
]);
