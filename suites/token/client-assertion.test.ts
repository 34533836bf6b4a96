// Observed (token.observed.client-assertion, observed.tokens.client_assertion): a client that
// authenticates with a key (private_key_jwt, RFC 7523) gets a token only for an assertion signed
// with its key, iss = sub = its id, aud the tenant, alive now and for at most the documented
// lifetime, with a jti not used before. Each test sends one assertion wrong in one way, beside the
// key client's own token request (a valid assertion, the positive control): a target that refuses
// every assertion proves nothing. An assertion the tenant cannot accept is answered 401
// invalid_client (RFC 7521 4.2.1, observed.tokens errors); a request whose client_assertion_type is
// another, or that carries no client_assertion, breaks the request's own rules and is answered 400
// invalid_request (RFC 6749 5.2), as the mock does.
import type { JWTPayload } from 'jose';
import {
  conformance,
  expectEqual,
  expectRefused as expectRefusal,
  expectStatus,
  role,
  type Exchange,
  type Need,
  type TargetSession,
} from '../../harness/index.ts';
import { KEY_CLIENT_CONTROL } from '../../harness/suite/matrix.ts';
import { keyClientTokenOf, sharedRequest } from '../../harness/suite/requests.ts';
import { keyClientTokenRequest } from '../../harness/tokens.ts';
import { JWT_BEARER_GRANT } from '../../specs/cards/token-request.ts';
import { observed } from '../../specs/index.ts';

const rules = observed.tokens.client_assertion;

const keyClient: Need = {
  check: (context) =>
    context.target.tokenAlternatives.keyClient
      ? undefined
      : 'the target file names no token_alternatives.key_client (a client that authenticates with a key)',
  category: 'config',
};

/** One refused request of its own, beside the key client's token request (a shared request, the control). */
const refusalPlan = { operation: 'token' as const, requests: 1, needs: [keyClient], shared: [sharedRequest.keyClientToken] };

/** The key client's token request, its fields changed; sent as one of the test's own requests (`mints`: meant to issue a token). */
function sendAssertion(target: TargetSession, fields: Record<string, string | undefined>, mints = false): Promise<Exchange> {
  return target.send({ ...keyClientTokenRequest(target.tokens.tokenUrl, target.target, fields), ...(mints ? { mints } : {}) });
}

function expectRefused(exchange: Exchange, status: 400 | 401): void {
  const error = status === 401 ? 'invalid_client' : 'invalid_request';
  expectStatus(exchange, status);
  expectEqual((exchange.json as { error?: unknown } | undefined)?.error, error, 'error', { exchange });
}

const ANOTHER_HOST = 'https://another-tenant.example.com/';

/** The userinfo endpoint of the host an assertion is addressed to: the tenant's, not an audience of an assertion. */
function otherPathOf(aud: JWTPayload['aud']): string {
  const first = Array.isArray(aud) ? aud[0] : aud;
  return new URL('/userinfo', first ?? ANOTHER_HOST).href;
}
const ANOTHER_CLIENT = 'conformance-suite-another-client';

/** The RSA algorithms a JOSE library verifies with an RSA key that the tenant does not take for an assertion (observed algorithms). */
const OTHER_RSA_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'].filter((alg) => !rules.algorithms.value.includes(alg));

/** Assertions wrong in one way, each answered 401 invalid_client. */
const wrongAssertions: Array<{
  says: string;
  signer?: 'foreign' | 'none' | { rsa: string };
  claims?: (c: JWTPayload, now: number) => JWTPayload;
}> = [
  // Signed with the client's own key, as an algorithm outside the tenant's list: a verifier given the
  // key and no list of algorithms (jose's jwtVerify without "algorithms") takes every one the key can verify.
  ...OTHER_RSA_ALGORITHMS.map((alg) => ({
    says: `signed ${alg} with the client's own key (an algorithm the tenant does not take)`,
    signer: { rsa: alg },
  })),
  { says: 'signed with a key the tenant does not know', signer: 'foreign' },
  { says: 'unsigned (alg none)', signer: 'none' },
  {
    says: `expired (exp five minutes past, beyond the ${rules.clock_skew_seconds.value} s of skew)`,
    claims: (c, now) => ({ ...c, iat: now - 360, exp: now - 300 }),
  },
  { says: 'issued ten minutes from now (iat)', claims: (c, now) => ({ ...c, iat: now + 600, exp: now + 660 }) },
  { says: 'not valid before ten minutes from now (nbf)', claims: (c, now) => ({ ...c, nbf: now + 600 }) },
  {
    says: `living longer than ${rules.max_lifetime_seconds.value} seconds (exp - iat)`,
    claims: (c, now) => ({ ...c, iat: now, exp: now + rules.max_lifetime_seconds.value + 120 }),
  },
  { says: 'without a jti', claims: (c) => ({ ...c, jti: undefined }) },
  { says: 'addressed to another host (aud)', claims: (c) => ({ ...c, aud: ANOTHER_HOST }) },
  // The tenant's host, another path: neither the issuer nor the token endpoint (observed audiences),
  // though a check of the scheme and authority alone takes it.
  { says: "addressed to another path of the tenant's host (aud .../userinfo)", claims: (c) => ({ ...c, aud: otherPathOf(c.aud) }) },
  { says: 'whose sub names another client than its iss', claims: (c) => ({ ...c, sub: ANOTHER_CLIENT }) },
];

for (const wrong of wrongAssertions) {
  conformance(
    `[§5 token.observed.client-assertion] the token endpoint refuses a client assertion ${wrong.says} with 401 invalid_client`,
    refusalPlan,
    async ({ target }) => {
      await target.controlByToken(KEY_CLIENT_CONTROL, () => keyClientTokenOf(target));
      const edit = { ...(wrong.signer ? { signer: wrong.signer } : {}), ...(wrong.claims ? { claims: wrong.claims } : {}) };
      const exchange = await sendAssertion(target, { client_assertion: await target.forge.clientAssertionWith(edit) });
      expectRefused(exchange, 401);
    },
  );
}

conformance(
  '[§5 token.observed.client-assertion] the token endpoint refuses a valid client assertion beside a client_id naming another client with 401 invalid_client',
  refusalPlan,
  async ({ target }) => {
    await target.controlByToken(KEY_CLIENT_CONTROL, () => keyClientTokenOf(target));
    const exchange = await sendAssertion(target, { client_id: ANOTHER_CLIENT, client_assertion: await target.forge.clientAssertion() });
    expectRefused(exchange, 401);
  },
);

// The documented bounds of an assertion, each at its exact value and one step beyond (whatever the
// seed): its lifetime (exp - iat) of max_lifetime_seconds, beyond it once the clock skew is spent
// too; and its jti of max_claim_length characters (iss and sub are the client's id, whose length
// the client fixes). At the bound the key client gets a token; beyond it, 401 invalid_client.
const LIFETIME = rules.max_lifetime_seconds.value;
const SKEW = rules.clock_skew_seconds.value;
const JTI_MAX = rules.max_claim_length.value.jti;
const assertionBounds: Array<{ says: string; accepted: boolean; claims: (c: JWTPayload, now: number) => JWTPayload }> = [
  {
    says: `living exactly ${LIFETIME} s (exp - iat, the documented maximum)`,
    accepted: true,
    claims: (c, now) => ({ ...c, iat: now, exp: now + LIFETIME }),
  },
  {
    says: `living ${LIFETIME + SKEW + 1} s (one second past the maximum and its ${SKEW} s of skew)`,
    accepted: false,
    claims: (c, now) => ({ ...c, iat: now, exp: now + LIFETIME + SKEW + 1 }),
  },
  {
    says: `whose jti is ${JTI_MAX} characters (the documented maximum)`,
    accepted: true,
    claims: (c) => ({ ...c, jti: uniqueText(JTI_MAX) }),
  },
  { says: `whose jti is ${JTI_MAX + 1} characters`, accepted: false, claims: (c) => ({ ...c, jti: uniqueText(JTI_MAX + 1) }) },
];

/** A jti of `length` characters, new on every call (an assertion is for one use). */
function uniqueText(length: number): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`.padEnd(length, 'j').slice(0, length);
}

for (const bound of assertionBounds) {
  conformance(
    `[§5 token.observed.client-assertion] the token endpoint ${bound.accepted ? 'issues a token for' : 'refuses with 401 invalid_client'} a client assertion ${bound.says}`,
    bound.accepted ? { operation: 'token' as const, requests: 1, needs: [keyClient] } : refusalPlan,
    async ({ target }) => {
      if (!bound.accepted) await target.controlByToken(KEY_CLIENT_CONTROL, () => keyClientTokenOf(target));
      const exchange = await sendAssertion(
        target,
        { client_assertion: await target.forge.clientAssertionWith({ claims: bound.claims }) },
        bound.accepted,
      );
      if (!bound.accepted) return expectRefused(exchange, 401);
      expectStatus(exchange, 200);
      expectEqual(typeof (exchange.json as { access_token?: unknown } | undefined)?.access_token, 'string', 'access_token', { exchange });
    },
  );
}

// The client_id parameter names the client that authenticates (RFC 6749 2.3.1, RFC 7521 4.2): beside
// the key client's valid assertion, the id of another client of the tenant (the global role's) gets
// no token, though an authenticator that loads the client from the assertion's iss and only checks
// that client_id names some client issues one.
conformance(
  "[§5 token.endpoint.client-id] the token endpoint issues no token for a valid client assertion beside the client_id of another client of the tenant (the global role's)",
  { ...refusalPlan, needs: [keyClient, role('global')] },
  async ({ target }) => {
    await target.controlByToken(KEY_CLIENT_CONTROL, () => keyClientTokenOf(target));
    const other = target.target.roles[target.role('global')]!.clientId;
    expectRefusal(await sendAssertion(target, { client_id: other, client_assertion: await target.forge.clientAssertion() }));
  },
);

// The JWT bearer grant (RFC 7523 2.1) is a grant of its own, which the tenant does not offer
// (spec 5 rule 3: client credentials): the key client's valid assertion sent as that grant's
// assertion, with no client authentication, gets no token, though a server that signs in the
// assertion's client as it does for client credentials issues one.
conformance(
  "[§5 token.endpoint.grant-type] the token endpoint issues no token for grant_type jwt-bearer carrying the key client's valid assertion as its assertion",
  refusalPlan,
  async ({ target }) => {
    await target.controlByToken(KEY_CLIENT_CONTROL, () => keyClientTokenOf(target));
    const exchange = await sendAssertion(target, {
      grant_type: JWT_BEARER_GRANT,
      assertion: await target.forge.clientAssertion(),
      client_assertion_type: undefined,
    });
    expectRefusal(exchange);
  },
);

conformance(
  '[§5 token.observed.client-assertion] the token endpoint refuses a valid client assertion under another client_assertion_type with 400 invalid_request',
  refusalPlan,
  async ({ target }) => {
    await target.controlByToken(KEY_CLIENT_CONTROL, () => keyClientTokenOf(target));
    const exchange = await sendAssertion(target, {
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer',
      client_assertion: await target.forge.clientAssertion(),
    });
    expectRefused(exchange, 400);
  },
);

conformance(
  '[§5 token.observed.client-assertion] the token endpoint refuses a client_assertion_type without a client_assertion with 400 invalid_request',
  refusalPlan,
  async ({ target }) => {
    await target.controlByToken(KEY_CLIENT_CONTROL, () => keyClientTokenOf(target));
    expectRefused(await sendAssertion(target, {}), 400);
  },
);

// client_secret_jwt (OpenID Connect Core 9: an assertion MAC'd with the client's own secret) is a
// method the tenant does not offer: its discovery lists client_secret_basic, client_secret_post and
// private_key_jwt (observed.tokens.client_assertion: signed with the client's key). An assertion of
// the global client, made as the key client's are but MAC'd with the global client's own secret
// under each HMAC algorithm of JWA (RFC 7518 3.2), is refused, with the client_id beside it and
// without: a check extended to client_secret_jwt for clients that have a secret accepts it.
const secretAssertions = [
  { hmac: 'HS256', withClientId: true },
  { hmac: 'HS256', withClientId: false },
  { hmac: 'HS512', withClientId: true },
] as const;
for (const { hmac, withClientId } of secretAssertions) {
  conformance(
    `[§5 token.observed.client-assertion] the token endpoint refuses a client assertion of the global client MAC'd with its own client secret (${hmac}, client_secret_jwt)${withClientId ? ' beside its client_id' : ', no client_id'} with 401 invalid_client`,
    refusalPlan,
    async ({ target }) => {
      await target.controlByToken(KEY_CLIENT_CONTROL, () => keyClientTokenOf(target));
      const global = target.target.roles.global!;
      const assertion = await target.forge.clientAssertionWith({
        claims: (c) => ({ ...c, iss: global.clientId, sub: global.clientId }),
        signer: { hmac, secret: global.clientSecret },
      });
      const exchange = await sendAssertion(target, {
        client_id: withClientId ? global.clientId : undefined,
        client_assertion: assertion,
      });
      expectRefused(exchange, 401);
    },
  );
}

// An assertion is for one use (observed single_use): the first use is accepted (the control), the
// second, the same assertion with the same jti, is refused.
conformance(
  '[§5 token.observed.client-assertion] the token endpoint refuses a client assertion used a second time (the same jti) with 401 invalid_client',
  { operation: 'token', requests: 2, needs: [keyClient] },
  async ({ target }) => {
    const assertion = await target.forge.clientAssertion();
    await target.control('the first use of a valid client assertion', () => sendAssertion(target, { client_assertion: assertion }, true));
    expectRefused(await sendAssertion(target, { client_assertion: assertion }), 401);
  },
);

// Every jti used is remembered, not only the client's last one: the first assertion sent again
// after the client has used another is refused as well (a replay store keeping one jti per client
// forgets it).
conformance(
  '[§5 token.observed.client-assertion] the token endpoint refuses a client assertion used again after another assertion of the same client with 401 invalid_client',
  { operation: 'token', requests: 3, needs: [keyClient] },
  async ({ target }) => {
    const first = await target.forge.clientAssertion();
    await target.control('the first use of a valid client assertion', () => sendAssertion(target, { client_assertion: first }, true));
    const second = await target.forge.clientAssertion();
    await target.control('the first use of another valid client assertion', () =>
      sendAssertion(target, { client_assertion: second }, true),
    );
    expectRefused(await sendAssertion(target, { client_assertion: first }), 401);
  },
);
