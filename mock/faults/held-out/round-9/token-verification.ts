// How the bearer token is read and verified: a fractional nbf skipped by an integer guard, the
// scheme separated from the credential by a colon as well as a space, and "now" read once when the
// verifier was made; and the observed rules: the algorithms allowed for client assertions allowed
// for access tokens too, and sub compared with azp on its part before "@". Each lets exactly that
// near miss of a valid token through; a token wrong in any other way is refused as before.
import { KeyObject, constants, verify } from 'node:crypto';
import { observed } from '../../../../specs/index.ts';
import { createTokenVerifier } from '../../../auth/verifier.ts';
import { editVerifier, alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { alsoReadAs } from '../round-4/support/credential-rereads.ts';
import { signingInput, unverifiedParts } from '../support/signatures.ts';

const SUFFIX = observed.tokens.subject_suffix;
/** The client assertions' algorithms other than the access tokens' own. */
const ASSERTION_ONLY_ALGORITHMS = observed.tokens.client_assertion.algorithms.value.filter((alg) => alg !== observed.tokens.alg);
const COLON_SCHEME = /^Bearer:\s*(\S+)$/i;

/** Whether `token`'s signature verifies with `key` under one of the client assertions' RSA algorithms. */
function assertionAlgorithmVerifies(token: string, alg: string, key: KeyObject): boolean {
  const signature = Buffer.from(token.split('.')[2] ?? '', 'base64url');
  const input = Buffer.from(signingInput(token));
  try {
    if (alg === 'PS256') return verify('sha256', input, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature);
    return alg === 'RS384' && verify('sha384', input, key, signature);
  } catch {
    return false;
  }
}

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho9-nbf-integer-guard',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'nbf checked only when Number.isInteger(nbf) (a guard written to skip claims of the wrong type), where a NumericDate may have a fraction: a correctly signed token whose nbf is ten minutes ahead plus half a second is accepted by every operation instead of 401; the same token with a whole nbf ten minutes ahead is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const { nbf } = claims;
        if (typeof nbf !== 'number' || Number.isInteger(nbf) || nbf * 1000 <= clock.now()) return claims;
        const { nbf: _skipped, ...rest } = claims;
        return rest;
      }),
  },
  {
    id: 'ho9-bearer-colon-separator',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'The credential read with /^Bearer[:\\s]+/i, written after a client that sent "Bearer: <token>" (the header\'s own colon repeated): "Bearer: <valid token>", which is no Bearer credential, is accepted by every operation instead of 401; "Bearer: <tampered token>" is still refused.',
    install: (app) =>
      alsoReadAs(app, (authorization) => {
        const credential = COLON_SCHEME.exec(authorization)?.[1];
        return credential === undefined ? undefined : `Bearer ${credential}`;
      }),
  },
  {
    id: 'ho9-clock-read-at-startup',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The verifier given "now" as a value read once when it was made (const now = clock.now() hoisted out of the check) instead of the clock: a token that expires after the service started is accepted by every operation for as long as the service runs instead of 401; a token that had expired before the service started is still refused.',
    install: (app) =>
      editVerifier(app, (_verifier, parts) => {
        const startedAt = parts.clock.now();
        return createTokenVerifier({ ...parts, clock: { now: () => startedAt } });
      }),
  },
  {
    id: 'ho9-token-alg-list-from-assertions',
    clause: 'auth.token.header',
    level: 'observed',
    bug: `The access-token verifier configured with the list of algorithms allowed for client assertions (${observed.tokens.client_assertion.algorithms.value.join(', ')}) instead of ${observed.tokens.alg} alone: a token signed with the tenant's key under ${ASSERTION_ONLY_ALGORITHMS.join(' or ')} is accepted by every operation instead of 401; one signed RS512 with the same key is still refused.`,
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const alg = parts?.header.alg;
        if (!parts || typeof alg !== 'string' || !ASSERTION_ONLY_ALGORITHMS.includes(alg) || parts.header.kid !== keys.kid)
          return undefined;
        return assertionAlgorithmVerifies(token, alg, KeyObject.from(keys.publicKey)) ? parts.claims : undefined;
      }),
  },
  {
    id: 'ho9-sub-split-on-at',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `sub compared with azp as sub.split("@")[0] === azp, its part after "@" never looked at: a correctly signed token whose sub is "<azp>@users" instead of "<azp>${SUFFIX}" is accepted by every operation instead of 401; a sub naming another client ("<azp>x${SUFFIX}") is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims) => {
        const { sub, azp } = claims;
        if (typeof sub !== 'string' || typeof azp !== 'string' || sub === `${azp}${SUFFIX}`) return claims;
        return sub.split('@')[0] === azp && sub.includes('@') ? { ...claims, sub: `${azp}${SUFFIX}` } : claims;
      }),
  },
]);
