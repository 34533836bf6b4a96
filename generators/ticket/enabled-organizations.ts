// A valid enabled_organizations array: items of distinct organizations (a repeated one would be a
// second reason to refuse the body).
import fc from 'fast-check';
import { enabledOrganization, type EnabledOrganization, type EnabledOrganizationConstraints } from './enabled-organization.ts';

export interface EnabledOrganizationsConstraints extends EnabledOrganizationConstraints {
  minLength?: number;
  maxLength?: number;
}

export function enabledOrganizations(constraints: EnabledOrganizationsConstraints = {}): fc.Arbitrary<EnabledOrganization[]> {
  const { minLength = 0, maxLength = 3, organizationIds } = constraints;
  return fc.uniqueArray(enabledOrganization({ organizationIds }), {
    selector: organizationIdOf,
    minLength,
    maxLength: Math.min(maxLength, organizationIds?.length ?? maxLength),
  });
}

function organizationIdOf(item: EnabledOrganization): string {
  return item.organization_id;
}
