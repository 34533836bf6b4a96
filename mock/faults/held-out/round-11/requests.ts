// How a request reaches an operation: the version of the base path matched as a semver range; and
// the observed rule: the vault id's base58 pattern compiled with the "i" flag. Each changes the
// answer to one near miss; requests without it are answered as before.
import { basePath, observed } from '../../../../specs/index.ts';
import type { OperationKey } from '../../../../specs/index.ts';
import type { FaultHooks } from '../../../app.ts';
import { checksOf } from '../../../validators.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { alsoServe } from '../round-4/support/rerouted.ts';
import { alsoValid } from '../round-8/support/also-valid.ts';

const vault = observed.identifiers.flows_vault_connection;
/** The vault id's pattern as written, with the "i" flag a neighbouring (case-insensitive) pattern had. */
const VAULT_ID_I_FLAG = new RegExp(
  `^${vault.prefix}[${observed.identifiers.base58_alphabet}]{${vault.length - vault.prefix.length}}$`,
  'i',
);
/** /api/v2.<minor>[.<patch>]/..., which the range ^2 (>=2.0.0 <3.0.0) takes for version 2. */
const SEMVER_TWO = /^\/api\/v2(\.\d+){1,2}(?=\/)/;

/** The path check of `name` of an operation made to pass what `accepts` vouches for as well. */
function alsoValidPath(app: FaultHooks, key: OperationKey, name: string, accepts: (value: unknown) => boolean): void {
  app.override('validators', (validators) => {
    const checks = checksOf(validators, key).path;
    const index = checks.findIndex((check) => check.name === name);
    checks[index] = { ...checks[index]!, validate: alsoValid(checks[index]!.validate, accepts) };
    return validators;
  });
}

export const requestFaults = heldOutFamily([
  {
    id: 'ho11-base-path-semver-range',
    clause: 'versioning.base-path',
    level: 'contract',
    bug: 'The version segment of the base path matched by semver.satisfies(version, "^2") after the leading "v" is taken off (a range, so that patch releases of the router need no change): /api/v2.1/flows/vault/connections/<id> and /api/v2.0.0/... are answered by the operation instead of 404; /api/v3/... is still not.',
    install: (app) => alsoServe(app, (path) => (SEMVER_TWO.test(path) ? path.replace(SEMVER_TWO, basePath) : undefined)),
  },
  {
    id: 'ho11-vault-id-pattern-i-flag',
    clause: 'errors.400.path',
    level: 'observed',
    bug: `The vault id's pattern, ^${vault.prefix}[<base58>]{${vault.length - vault.prefix.length}}$, compiled with the "i" flag copied from the pattern beside it: base58 leaves out I, O and l, but their other-case letters are in the class, so a vault id with an "I", an "O" or an "l" is looked up (404) instead of refused 400 invalid_uri; one with a "0" is still refused.`,
    install: (app) => alsoValidPath(app, 'vault', 'id', (value) => typeof value === 'string' && VAULT_ID_I_FLAG.test(value)),
  },
]);
