// A valid enabled_features: any of its three flags.
import fc from 'fast-check';

export interface EnabledFeatures {
  sso?: boolean;
  domain_verification?: boolean;
  provisioning?: boolean;
}

export function enabledFeatures(): fc.Arbitrary<EnabledFeatures> {
  return fc.record(
    { sso: fc.boolean(), domain_verification: fc.boolean(), provisioning: fc.boolean() },
    { requiredKeys: [], noNullPrototype: true },
  );
}
