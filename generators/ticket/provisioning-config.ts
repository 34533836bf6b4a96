// A valid provisioning_config: a non-empty selection of the observed scope values, a
// token_lifetime of at least the observed minimum or none, and maybe google_workspace. Never a null token_lifetime: the
// real service accepts it, the contract (an integer) does not.
import fc from 'fast-check';
import { enumAt, keywordAt } from './ticket-schema.ts';

const CONFIG = ['provisioning_config'];
/** Neither the spec nor the observed rules bound token_lifetime from above; a week is plainly sane. */
const LONGEST_TOKEN_LIFETIME_TRIED = 7 * 24 * 3600;

export interface ProvisioningConfig {
  scopes: string[];
  token_lifetime?: number;
  google_workspace?: { sync_users: boolean; sync_groups?: boolean };
}

export function provisioningConfig(): fc.Arbitrary<ProvisioningConfig> {
  const scopes = enumAt('observed', [...CONFIG, 'scopes', '[]']);
  const fewestScopes = keywordAt('observed', [...CONFIG, 'scopes'], 'minItems');
  const shortest = keywordAt('observed', [...CONFIG, 'token_lifetime'], 'minimum');
  return fc.record(
    {
      scopes: fc.shuffledSubarray(scopes, { minLength: fewestScopes }),
      token_lifetime: fc.oneof(fc.constant(shortest), fc.integer({ min: shortest, max: Math.max(shortest, LONGEST_TOKEN_LIFETIME_TRIED) })),
      google_workspace: fc.record(
        { sync_users: fc.boolean(), sync_groups: fc.boolean() },
        { requiredKeys: ['sync_users'], noNullPrototype: true },
      ),
    },
    // scopes always: whether the real service needs them is not known, and they are always valid.
    { requiredKeys: ['scopes'], noNullPrototype: true },
  );
}
