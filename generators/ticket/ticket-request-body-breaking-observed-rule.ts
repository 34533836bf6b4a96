// A ticket request body that passes the contract but breaks one observed rule, and only that
// one: the rest of the body is valid at both levels. Lengths, values and property names come from
// the observed schema in specs/.
import fc from 'fast-check';
import { observed, type JsonObject } from '../../specs/index.ts';
import { hostNameOfLength } from '../host-names/host-name-of-length.ts';
import { idOfShape } from '../identifiers/id-of-shape.ts';
import { jsonScalar } from '../json/json-scalar.ts';
import { domainAliasesConfig } from './domain-aliases-config.ts';
import type { EnabledOrganization } from './enabled-organization.ts';
import { enabledFeatures } from './enabled-features.ts';
import { enabledOrganizations } from './enabled-organizations.ts';
import { malformedConnectionName } from './malformed-connection-name.ts';
import { pendingDomain } from './pending-domain.ts';
import { provisioningConfig } from './provisioning-config.ts';
import { ticketRequestBody } from './ticket-request-body.ts';
import type { TicketRequestBodyConstraints } from './ticket-request-body-constraints.ts';
import { ticketRequestBodyWithFieldValue } from './ticket-request-body-with-field-value.ts';
import type { TicketObservedRule } from './ticket-observed-rules.ts';
import { enumAt, keywordAt, parseFieldPath, propertyNamesAt } from './ticket-schema.ts';
import { unknownPropertyName } from './unknown-property-name.ts';
import { withUnknownProperty } from './with-unknown-property.ts';

type Constraints = TicketRequestBodyConstraints;
/** How far past a length or value limit the breaking values go. */
const OVERSHOOT = 20;

const builders: Record<TicketObservedRule, (constraints: Constraints) => fc.Arbitrary<JsonObject>> = {
  'an unknown top-level property': (c) =>
    withUnknownProperty(ticketRequestBody(c) as fc.Arbitrary<JsonObject>, propertyNamesAt('observed', [])),
  'an unknown property in an enabled_organizations item': (c) =>
    ticketRequestBodyWithFieldValue('enabled_organizations', organizationsWithUnknownProperty(c), c),
  'an unknown property in domain_aliases_config': (c) =>
    ticketRequestBodyWithFieldValue('domain_aliases_config', withUnknownProperty(domainAliasesConfig(), known('domain_aliases_config')), c),
  'an unknown property in provisioning_config': (c) =>
    ticketRequestBodyWithFieldValue('provisioning_config', withUnknownProperty(provisioningConfig(), known('provisioning_config')), c),
  'an unknown property in enabled_features': (c) =>
    ticketRequestBodyWithFieldValue('enabled_features', withUnknownProperty(enabledFeatures(), known('enabled_features')), c),
  'an enabled_organizations item without organization_id': (c) =>
    ticketRequestBodyWithFieldValue('enabled_organizations[]', organizationWithoutId(), c),
  'an organization_id over the maximum length': (c) =>
    ticketRequestBodyWithFieldValue('enabled_organizations[].organization_id', organizationIdTooLong(), c),
  'empty provisioning_config.scopes': (c) => ticketRequestBodyWithFieldValue('provisioning_config.scopes', fc.constant([]), c),
  'a provisioning_config scope outside the allowed values': (c) =>
    ticketRequestBodyWithFieldValue('provisioning_config.scopes[]', scopeOutsideAllowedValues(), c),
  'a provisioning_config.token_lifetime under the minimum': (c) =>
    ticketRequestBodyWithFieldValue('provisioning_config.token_lifetime', tokenLifetimeUnderMinimum(), c),
  'domain_aliases_config without domain_verification': (c) =>
    ticketRequestBodyWithFieldValue('domain_aliases_config', domainAliasesWithoutVerification(), c),
  'a domain_verification outside the allowed values': (c) =>
    ticketRequestBodyWithFieldValue('domain_aliases_config.domain_verification', domainVerificationOutsideAllowedValues(), c),
  'a pending domain of a wrong length': (c) =>
    ticketRequestBodyWithFieldValue('domain_aliases_config.pending_domains[]', pendingDomainOfWrongLength(), c),
  'connection_config without a name': (c) => ticketRequestBodyWithFieldValue('connection_config', fc.constant({}), c),
  'a malformed connection_config name': (c) => ticketRequestBodyWithFieldValue('connection_config.name', malformedConnectionName(), c),
};

export function ticketRequestBodyBreakingObservedRule(rule: TicketObservedRule, constraints: Constraints = {}): fc.Arbitrary<JsonObject> {
  const build = builders[rule];
  if (!build) throw new Error(`no observed rule "${rule}"`);
  return build(constraints);
}

function known(field: string): string[] {
  return propertyNamesAt('observed', parseFieldPath(field));
}

function organizationsWithUnknownProperty(constraints: Constraints): fc.Arbitrary<EnabledOrganization[]> {
  const organizations = enabledOrganizations({ organizationIds: constraints.organizationIds, minLength: 1 });
  return fc.tuple(organizations, unknownPropertyName(known('enabled_organizations[]')), jsonScalar(), fc.nat()).map(oneItemWithProperty);
}

function oneItemWithProperty([items, name, value, position]: [EnabledOrganization[], string, unknown, number]): EnabledOrganization[] {
  const at = position % items.length;
  return items.map(function withPropertyAt(item, index) {
    return index === at ? { ...item, [name]: value } : item;
  });
}

function organizationWithoutId(): fc.Arbitrary<Omit<EnabledOrganization, 'organization_id'>> {
  return fc.record({ assign_membership_on_login: fc.boolean(), show_as_button: fc.boolean() }, { requiredKeys: [], noNullPrototype: true });
}

function organizationIdTooLong(): fc.Arbitrary<string> {
  const max = keywordAt('observed', parseFieldPath('enabled_organizations[].organization_id'), 'maxLength');
  return fc.integer({ min: max + 1, max: max + OVERSHOOT }).chain(function organizationIdOfLength(length) {
    return idOfShape(observed.identifiers.organization, { length });
  });
}

function scopeOutsideAllowedValues(): fc.Arbitrary<string> {
  const allowed = new Set(enumAt('observed', parseFieldPath('provisioning_config.scopes[]')));
  const action = fc.constantFrom('get', 'post', 'put', 'patch', 'delete', 'read', 'create', 'update', 'GET');
  const resource = fc.constantFrom('users', 'groups', 'roles', 'organizations', 'user', 'Users');
  const nearMiss = fc.tuple(action, resource).map(joinedWithColon);
  const odd = fc.constantFrom('', 'users', 'get:users ', 'get users', 'read:users', '*');
  return fc.oneof(nearMiss, odd).filter(function isNotAllowed(scope) {
    return !allowed.has(scope);
  });
}

function joinedWithColon([action, resource]: [string, string]): string {
  return `${action}:${resource}`;
}

function tokenLifetimeUnderMinimum(): fc.Arbitrary<number> {
  const min = keywordAt('observed', parseFieldPath('provisioning_config.token_lifetime'), 'minimum');
  return fc.oneof(fc.constant(min - 1), fc.integer({ max: min - 1 }));
}

function domainAliasesWithoutVerification(): fc.Arbitrary<{ pending_domains?: string[] }> {
  return fc.record({ pending_domains: fc.uniqueArray(pendingDomain(), { maxLength: 3 }) }, { requiredKeys: [], noNullPrototype: true });
}

function domainVerificationOutsideAllowedValues(): fc.Arbitrary<string> {
  const allowed = enumAt('observed', parseFieldPath('domain_aliases_config.domain_verification'));
  const nearMisses = allowed.flatMap(function variantsOf(value) {
    return [value.toUpperCase(), `${value} `, `${value[0]!.toUpperCase()}${value.slice(1)}`];
  });
  return fc
    .oneof(fc.constantFrom(...nearMisses, '', 'mandatory', 'true'), fc.string({ maxLength: 12 }))
    .filter(function isNotAllowed(value) {
      return !allowed.includes(value);
    });
}

function pendingDomainOfWrongLength(): fc.Arbitrary<string> {
  const item = parseFieldPath('domain_aliases_config.pending_domains[]');
  const min = keywordAt('observed', item, 'minLength');
  const max = keywordAt('observed', item, 'maxLength');
  const tooShort = min > 1 ? fc.integer({ min: 1, max: min - 1 }).chain(hostNameOfLength) : fc.constant('');
  const tooLong = fc.integer({ min: max + 1, max: max + OVERSHOOT }).chain(hostNameOfLength);
  return fc.oneof(tooShort, tooLong);
}
