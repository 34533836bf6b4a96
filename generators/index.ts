// Arbitraries of boundary inputs for the conformance suites, one per file, named for what they
// produce. Bounds, shapes and schemas all come from specs/.

// Identifiers
export { streamId } from './identifiers/stream-id.ts';
export { streamIdOfLength } from './identifiers/stream-id-of-length.ts';
export { streamIdTooShort } from './identifiers/stream-id-too-short.ts';
export { streamIdTooLong } from './identifiers/stream-id-too-long.ts';
export { eventId } from './identifiers/event-id.ts';
export { eventIdOfLength } from './identifiers/event-id-of-length.ts';
export { eventIdTooShort } from './identifiers/event-id-too-short.ts';
export { eventIdTooLong } from './identifiers/event-id-too-long.ts';
export { selfServiceProfileId } from './identifiers/self-service-profile-id.ts';
export { vaultConnectionId } from './identifiers/vault-connection-id.ts';
export { vaultConnectionIdOfLength } from './identifiers/vault-connection-id-of-length.ts';
export { vaultConnectionIdAtMaximum } from './identifiers/vault-connection-id-at-maximum.ts';
export { vaultConnectionIdOverMaximum } from './identifiers/vault-connection-id-over-maximum.ts';
export { connectionId } from './identifiers/connection-id.ts';
export { organizationId } from './identifiers/organization-id.ts';
export { clientId } from './identifiers/client-id.ts';
export { idOfShape, type IdOfShapeConstraints } from './identifiers/id-of-shape.ts';
export { unknownIdOf } from './identifiers/unknown-id-of.ts';
export { extendedId, type ExtendedIdConstraints } from './identifiers/extended-id.ts';
export { truncatedId } from './identifiers/truncated-id.ts';
export { idInOtherCase, otherCase } from './identifiers/id-in-other-case.ts';
export { paddedId } from './identifiers/padded-id.ts';
export { idWithEscapedCharacter } from './identifiers/id-with-escaped-character.ts';

// ttl_sec
export { ttlSecWithinRange } from './ttl-sec/ttl-sec-within-range.ts';
export { ttlSecAtBounds } from './ttl-sec/ttl-sec-at-bounds.ts';
export { ttlSecBelowMinimum } from './ttl-sec/ttl-sec-below-minimum.ts';
export { ttlSecAboveMaximum } from './ttl-sec/ttl-sec-above-maximum.ts';
export { ttlSecNonInteger } from './ttl-sec/ttl-sec-non-integer.ts';
export { ttlSecOfWrongType } from './ttl-sec/ttl-sec-of-wrong-type.ts';
export { ttlSecWrappingIntoRange } from './ttl-sec/ttl-sec-wrapping-into-range.ts';

// tenant-custom-domain header, host names
export { customDomain } from './custom-domain/custom-domain.ts';
export { customDomainOfLength } from './custom-domain/custom-domain-of-length.ts';
export { customDomainTooShort } from './custom-domain/custom-domain-too-short.ts';
export { customDomainTooLong } from './custom-domain/custom-domain-too-long.ts';
export { hostNameOfLength } from './host-names/host-name-of-length.ts';

// Ticket request bodies
export { ticketRequestBody, type TicketRequestBody } from './ticket/ticket-request-body.ts';
export { ticketRequestBodyWithEveryField } from './ticket/ticket-request-body-with-every-field.ts';
export type { TicketRequestBodyConstraints } from './ticket/ticket-request-body-constraints.ts';
export { ticketRequestBodyWithFieldValue } from './ticket/ticket-request-body-with-field-value.ts';
export { ticketRequestBodyWithTtlSec } from './ticket/ticket-request-body-with-ttl-sec.ts';
export { ticketBodyTypeRules, type TicketBodyTypeRule } from './ticket/ticket-body-type-rules.ts';
export { ticketRequestBodyWithWrongType, ticketRequestBodyWithClosestWrongType } from './ticket/ticket-request-body-with-wrong-type.ts';
export { ticketObservedRules, type TicketObservedRule } from './ticket/ticket-observed-rules.ts';
export { ticketRequestBodyBreakingObservedRule } from './ticket/ticket-request-body-breaking-observed-rule.ts';
export { connectionConfig, type ConnectionConfig } from './ticket/connection-config.ts';
export { connectionName } from './ticket/connection-name.ts';
export { malformedConnectionName } from './ticket/malformed-connection-name.ts';
export { enabledClients, type EnabledClientsConstraints } from './ticket/enabled-clients.ts';
export { enabledOrganization, type EnabledOrganization, type EnabledOrganizationConstraints } from './ticket/enabled-organization.ts';
export { enabledOrganizations, type EnabledOrganizationsConstraints } from './ticket/enabled-organizations.ts';
export { provisioningConfig, type ProvisioningConfig } from './ticket/provisioning-config.ts';
export { domainAliasesConfig, type DomainAliasesConfig } from './ticket/domain-aliases-config.ts';
export { pendingDomain } from './ticket/pending-domain.ts';
export { enabledFeatures, type EnabledFeatures } from './ticket/enabled-features.ts';

// JSON values
export { jsonValueOfWrongType, type JsonValueOfWrongTypeConstraints } from './json/json-value-of-wrong-type.ts';
export { jsonValueOfClosestWrongType, type JsonValueOfClosestWrongTypeConstraints } from './json/json-value-of-closest-wrong-type.ts';
export type { JsonType } from './json/json-type.ts';

// Authorization header
export { malformedAuthorization } from './authorization/malformed-authorization.ts';
