// How the management interface checks the bearer token's claims and signature: an issuer checked
// only when the token has one, an audience found inside another with String.includes, a key store
// shared with the client assertions, the caller taken from an RFC 9068 client_id claim, a sub
// accepted without its "@clients" suffix, and a kid matched by its start. Each lets exactly that
// near miss through; a token wrong in any other way is refused as before.
import { observed } from '../../../../specs/index.ts';
import { capture } from '../../support/captured.ts';
import { alsoAccept, editPrincipal, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies, unverifiedParts } from '../support/signatures.ts';

const ALG = observed.tokens.alg;
const SUFFIX = observed.tokens.subject_suffix;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho3-token-without-iss-accepted',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'An issuer check written "if (claims.iss && claims.iss !== issuer) refuse": a correctly signed token of the tenant with no iss claim at all is accepted by every operation as the tenant\'s own (a token naming another issuer is still refused with 401).',
    install: (app) => forgiveClaim(app, (claims, { tenant }) => (claims.iss === undefined ? { ...claims, iss: tenant.issuer } : claims)),
  },
  {
    id: 'ho3-audience-found-with-includes',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: "An audience check written for a list, aud.includes(audience), that meets aud as a string, where includes finds substrings: a correctly signed token whose aud is another API's identifier with the management audience inside it (https://reports-api.example.com/?for=<management audience>) is accepted by every operation; another API's plain identifier is still refused with 401.",
    install: (app) =>
      forgiveClaim(app, (claims, { tenant }) => {
        const { aud, iss } = claims;
        const identity = typeof iss === 'string' ? tenant.identityForIssuer(iss) : undefined;
        return identity && typeof aud === 'string' && aud !== identity.audience && aud.includes(identity.audience)
          ? { ...claims, aud: identity.audience }
          : claims;
      }),
  },
  {
    id: 'ho3-client-keys-verify-access-tokens',
    clause: 'redeliver.errors.401.signature',
    level: 'contract',
    bug: "One key store for the access-token verifier and the client-assertion check, tried key by key: a token signed with the key of a client that authenticates with private_key_jwt (a client's key, not the tenant's) passes the signature check and is accepted by every operation; a token signed with a key no one registered is still refused with 401.",
    install(app) {
      const store = capture(app, 'store');
      alsoAccept(app, async (token) => {
        const parts = unverifiedParts(token);
        if (!parts || parts.header.alg !== ALG) return undefined;
        const signer = store()
          .clients()
          .find((client) => client.publicKey !== undefined && rs256SignatureVerifies(token, client.publicKey));
        return signer ? parts.claims : undefined;
      });
    },
  },
  {
    id: 'ho3-caller-from-client-id-claim',
    clause: 'redeliver.global-client',
    level: 'contract',
    bug: 'A verifier that names the caller the RFC 9068 way, by a client_id claim when a token has one and by azp otherwise: a token of a client that is not global, carrying client_id = the global client\'s id, is taken for the global client and redelivers (202) instead of 401 "Client is not global"; a client_id naming no client changes nothing.',
    install(app) {
      const store = capture(app, 'store');
      editPrincipal(app, (principal) => {
        const named = principal.claims.client_id;
        const client = typeof named === 'string' ? store().client(named) : undefined;
        return client && client.clientId !== principal.client.clientId ? { ...principal, client } : principal;
      });
    },
  },
  {
    id: 'ho3-sub-suffix-optional',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `A verifier that compares sub with azp after stripping an optional "${SUFFIX}" (written to accept user tokens too): a correctly signed token whose sub is the bare client id, which the service never issues, is accepted by every operation; a sub with another suffix is still refused with 401.`,
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.azp === 'string' && claims.sub === claims.azp ? { ...claims, sub: `${claims.azp}${SUFFIX}` } : claims,
      ),
  },
  {
    id: 'ho3-kid-matched-by-its-start',
    clause: 'auth.token.header',
    level: 'observed',
    bug: "Keys looked up with keys.find((key) => key.kid.startsWith(kid)): a token signed with the tenant's key whose kid is only the start of the published kid (or empty) finds that key and is accepted by every operation; a kid that is not a start of it is still refused with 401.",
    install: (app) =>
      alsoAccept(app, async (token, { keys }) => {
        const parts = unverifiedParts(token);
        const kid = parts?.header.kid;
        if (!parts || parts.header.alg !== ALG || typeof kid !== 'string' || kid === keys.kid || !keys.kid.startsWith(kid))
          return undefined;
        return rs256SignatureVerifies(token, keys.publicKey) ? parts.claims : undefined;
      }),
  },
]);
