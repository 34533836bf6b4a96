// POST /self-service-profiles/{id}/sso-ticket (spec 4.2): create a ticket for a self-service
// profile. Its body fields and their types are the spec's; its scope, success status and errors
// are the real service's (observed). A profile that does not exist gets no ticket (inferred: the
// status is not known).
import { operation, type JsonObject } from '../openapi.ts';
import { observed } from '../observed.ts';
import { schema } from '../schemas.ts';
import type { OperationCard } from './card.ts';
import type { TargetFixtures } from './fixtures.ts';
import { scopeRule } from './scope.ts';

const BODY_SCHEMA = 'SsoTicketRequest';

/** A connection name no tenant of the suite's uses (a taken one is a 409). */
const NEW_CONNECTION_NAME = 'conformance-suite-flow';
/** A well-formed organization id, where the target file names none of its own. */
const MADE_UP_ORGANIZATION = `${observed.identifiers.organization.prefix}${'Cs7Mv2Xq9Lp4Hd8R'.slice(0, observed.identifiers.organization.length - observed.identifiers.organization.prefix.length)}`;
/** A ticket lifetime well inside the range, an hour. */
const AN_HOUR = 3600;

let observedBody: JsonObject | undefined;

/** The first value the observed schema allows at a path of the body (an enum's first member). */
function firstAllowed(path: string[]): unknown {
  observedBody ??= schema(BODY_SCHEMA, 'observed');
  let node: JsonObject = observedBody;
  for (const step of path) {
    node = step === '[]' ? (node.items as JsonObject) : ((node.properties as Record<string, JsonObject>)[step] as JsonObject);
  }
  return (node.enum as unknown[])[0];
}

/**
 * A body with every field, valid at both levels: it edits the target's connection (with
 * enabled_features, which applies only then) when the target file names one, else it configures a
 * new connection; what a service does with both at once is not known.
 */
function fullBody(fixtures: TargetFixtures, clients: { global: string }): JsonObject {
  const connection = fixtures.connectionId
    ? { connection_id: fixtures.connectionId, enabled_features: { sso: true, domain_verification: false, provisioning: false } }
    : { connection_config: { name: NEW_CONNECTION_NAME } };
  return {
    ...connection,
    enabled_clients: [clients.global],
    enabled_organizations: [
      { organization_id: fixtures.organizationId ?? MADE_UP_ORGANIZATION, assign_membership_on_login: false, show_as_button: true },
    ],
    ttl_sec: AN_HOUR,
    domain_aliases_config: {
      domain_verification: firstAllowed(['domain_aliases_config', 'domain_verification']),
      pending_domains: ['login.example.com'],
    },
    provisioning_config: { scopes: [firstAllowed(['provisioning_config', 'scopes', '[]'])], token_lifetime: AN_HOUR },
    use_for_organization_discovery: false,
    third_party_client_access_config: { allow_configuration: false },
  };
}

declare module '../openapi.ts' {
  interface OperationKeys {
    'sso-ticket': true;
  }
}

export const ssoTicketCard = {
  key: 'sso-ticket',
  spec: operation('sso-ticket'),
  success: { status: observed.operations['sso-ticket'].success.status, clause: 'sso-ticket.body.optional' },
  name: 'ticket creation',
  faultPrefix: 'ticket',
  scope: scopeRule('sso-ticket', {
    clause: 'sso-ticket.scope',
    statusClauses: ['sso-ticket.scope'],
    otherResource: 'create:self_service_profiles',
  }),
  roleWithoutScope: 'without_sso_ticket_scope',
  fixtures: ['selfServiceProfile'],
  writes: true,
  params: {
    id: {
      fixture: 'selfServiceProfile',
      names: 'profile',
      unknown: [{ clause: 'sso-ticket.profile.exists', outcome: { kind: 'refuse' } }],
    },
  },
  unauthenticated: { clause: 'errors.401.all-operations', signatureClause: 'errors.401.all-operations' },
  answer: {
    statusClause: 'sso-ticket.success.status',
    level: 'observed',
    body: {
      schema: 'SsoTicket',
      contentTypeClause: 'sso-ticket.response.content-type',
      fieldClause: () => 'sso-ticket.response.ticket',
      shapeClause: 'sso-ticket.response.shape',
      shape: `{"ticket": "https://<host>${observed.ticket.path}?${observed.ticket.query_parameter}=<${observed.ticket.code_length} alphanumerics>"} and nothing else`,
    },
    customDomainHostClause: 'sso-ticket.custom-domain.host',
  },
  body: {
    schema: BODY_SCHEMA,
    objectClause: 'sso-ticket.body.object',
    empty: {},
    full: fullBody,
    exclusive: [['connection_id', 'enabled_features'], ['connection_config']],
    identities: [
      'connection_id',
      'enabled_clients[]',
      'enabled_organizations[].organization_id',
      'connection_config.options.idpinitiated.client_id',
    ],
    observedCore: [
      'connection_config.name',
      'domain_aliases_config.domain_verification',
      'domain_aliases_config.pending_domains',
      'domain_aliases_config.pending_domains[]',
    ],
    rulesClause: 'sso-ticket.body.nested-rules',
    optionalClause: 'sso-ticket.body.optional',
  },
} as const satisfies OperationCard<'sso-ticket', 'without_sso_ticket_scope'>;
