// Token verification, each written as a stack's own near miss: an Istio RequestAuthentication that
// forwards the verified payload in a header the service then trusts on its own; an AWS API Gateway
// HTTP API JWT authorizer whose audience list also holds the client's id; and a Lambda@Edge check
// on jwks-rsa, which takes a JWKS's only key for a token without kid. Other tokens are judged as
// before.
import { SignJWT } from 'jose';
import { capture } from '../../support/captured.ts';
import { editRequests } from '../../support/route-edits.ts';
import { alsoAccept, forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { rs256SignatureVerifies, unverifiedParts } from '../support/signatures.ts';

const PAYLOAD_HEADER = 'x-jwt-payload';
const OPERATIONS = ['redeliver', 'sso-ticket', 'vault'] as const;

/** The JSON object a base64url header value holds; else undefined. */
function payloadOf(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho41-istio-payload-header-trusted-without-token',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: `An Istio mesh whose RequestAuthentication verifies the JWT and forwards its claims with outputPayloadToHeader: ${PAYLOAD_HEADER}, the service reading the caller from that header alone, and no AuthorizationPolicy with requestPrincipals: ["*"] (RequestAuthentication by itself lets a request without a token through, and the sidecar does not strip a header the client sent): a request without Authorization carrying ${PAYLOAD_HEADER} (the base64url of a client's claims) is served (200, 201, 202) instead of 401; the same header beside a token whose signature fails is still refused by the sidecar, and a header that is no base64url JSON is refused.`,
    install: (app) => {
      const keys = capture(app, 'keys');
      for (const key of OPERATIONS)
        editRequests(app, key, async (exchange) => {
          if (exchange.headers.authorization !== undefined) return exchange;
          const claims = payloadOf(exchange.headers[PAYLOAD_HEADER]);
          if (!claims) return exchange;
          const token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: keys().kid }).sign(keys().privateKey);
          return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${token}` } };
        });
    },
  },
  {
    id: 'ho41-aws-http-api-audience-list-holds-client-id',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: "An AWS API Gateway HTTP API JWT authorizer whose audience list was given the management audience and, for a front end that sends its ID token, the client ids of the tenant's clients (an HTTP API authorizer accepts a token whose aud, or client_id, is any entry of the list): a correctly signed token whose aud is its own client id (its azp, as an OIDC ID token has it) is accepted (202) instead of 401; a token whose aud is another API's audience is still refused.",
    install: (app) =>
      forgiveClaim(app, (claims, parts) =>
        typeof claims.azp === 'string' && claims.aud === claims.azp ? { ...claims, aud: parts.tenant.audience } : claims,
      ),
  },
  {
    id: 'ho41-lambda-edge-jwks-rsa-single-key-without-kid',
    clause: 'auth.token.header',
    level: 'observed',
    bug: "A Lambda@Edge viewer-request function on jwks-rsa whose getKey callback asks client.getSigningKey(header.kid), and jwks-rsa, given no kid, answers with the JWKS's only key when it holds one: a token signed with the tenant key whose header has no kid is accepted instead of 401; a token whose kid names no published key is still refused, and so is a kid-less token whose signature fails.",
    install: (app) =>
      alsoAccept(app, async (token, parts) => {
        const decoded = unverifiedParts(token);
        if (!decoded || decoded.header.kid !== undefined || decoded.header.alg !== 'RS256') return undefined;
        const key = parts.keys.publicKeyFor(parts.keys.kid);
        return key && rs256SignatureVerifies(token, key) ? decoded.claims : undefined;
      }),
  },
]);
