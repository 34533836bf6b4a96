// One enabled_organizations item: an organization id (realistic, or one of the given ids) and
// each of the two flags or not.
import fc from 'fast-check';
import { organizationId } from '../identifiers/organization-id.ts';
import { idFrom } from './id-from.ts';

export interface EnabledOrganization {
  organization_id: string;
  assign_membership_on_login?: boolean;
  show_as_button?: boolean;
}

export interface EnabledOrganizationConstraints {
  /** Ids to draw organization_id from. Default: realistic organization ids. */
  organizationIds?: readonly string[];
}

export function enabledOrganization(constraints: EnabledOrganizationConstraints = {}): fc.Arbitrary<EnabledOrganization> {
  const id = idFrom(constraints.organizationIds, organizationId);
  if (!id) throw new RangeError('an enabled organization needs at least one organization id to draw from');
  return fc.record(
    { organization_id: id, assign_membership_on_login: fc.boolean(), show_as_button: fc.boolean() },
    { requiredKeys: ['organization_id'], noNullPrototype: true },
  );
}
