// The token endpoint: client secrets compared with a locale-aware collator (characters the
// collation ignores, such as a soft hyphen, do not count), client ids handed to a MongoDB query as
// they came (an operator object finds the first client), grant types matched through Ruby's Abbrev
// table (an unambiguous prefix is the grant type); and the observed rules: a client assertion
// verified without an algorithm allow-list (any RSA algorithm of the client's key), the lifetime
// passed to jsonwebtoken as a string (which it reads as milliseconds), an unknown client answered
// apart from a wrong secret. Each changes the answer to one near miss; other requests are answered
// as before.
import { generateKeyPairSync, type KeyPairKeyObjectResult } from 'node:crypto';
import { CompactSign, SignJWT, compactVerify, decodeJwt, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { decodeJws } from '../../../auth/bearer.ts';
import { createAssertionVerifier } from '../../../auth/client-assertion.ts';
import { tokenDescriptions } from '../../../errors.ts';
import { isJsonMediaType } from '../../../stages/json-body.ts';
import type { Store } from '../../../store.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests, withoutHeaders } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const GRANT_TYPE = 'client_credentials';
/** The grant types the service's dispatcher knows, whose unambiguous prefixes Ruby's Abbrev maps to them. */
const KNOWN_GRANT_TYPES = ['authorization_code', GRANT_TYPE, 'password', 'refresh_token'];
/** The RSA algorithms jose takes for an RSA key when no `algorithms` option narrows them. */
const ANY_RSA_ALGORITHM = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']);
/** jsonwebtoken's expiresIn given as a string without a unit is read by ms() as milliseconds. */
const LIFETIME_SETTING = '86400';
const UNKNOWN_CLIENT = 'Unknown client';
/** A $regex operand the fault evaluates: letters, digits, "_", ".", anchored or not. */
const SIMPLE_PATTERN = /^\^?[\w.]*\$?$/;

/** The collator a secret comparison written with localeCompare uses (the default locale's, its default sensitivity). */
const collator = new Intl.Collator('en');

/** A MongoDB query operator over a string field, applied to a client id. */
function matchesOperator(operator: string, operand: unknown, value: string): boolean | undefined {
  switch (operator) {
    case '$ne':
      return value !== operand;
    case '$gt':
      return typeof operand === 'string' && value > operand;
    case '$gte':
      return typeof operand === 'string' && value >= operand;
    case '$exists':
      return operand === true;
    case '$in':
      return Array.isArray(operand) && operand.includes(value);
    case '$regex':
      // Only patterns without quantifiers or groups (an anchored prefix, "." for any character) are
      // tried: no pattern a caller sends can make the match take long.
      return typeof operand === 'string' && SIMPLE_PATTERN.test(operand) && new RegExp(operand).test(value);
    default:
      return undefined;
  }
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho23-secret-locale-compare',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: "Client secrets compared with sent.localeCompare(secret) === 0 (a comparison helper written for sorting names), and a Unicode collation takes the characters it ignores, such as a soft hyphen (U+00AD) or a zero-width space, as absent: the global client's secret with a soft hyphen inserted gets a token instead of 401 invalid_client; the secret with one letter changed is still refused.",
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const client = typeof params.client_id === 'string' ? store().client(params.client_id) : undefined;
        const sent = params.client_secret;
        if (client?.secret === undefined || typeof sent !== 'string' || sent === client.secret) return params;
        return collator.compare(sent, client.secret) === 0 ? { ...params, client_secret: client.secret } : params;
      });
    },
  },
  {
    id: 'ho23-client-id-mongo-operator',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: 'The JSON token request\'s client_id handed as it came to db.clients.findOne({client_id: body.client_id}) and the secret compared with the client found, so a query operator object selects a client (the NoSQL injection of a login form): {"client_id": {"$ne": null}, "client_secret": "<the global client\'s secret>"} gets the global client a token instead of 400; with a wrong secret it is refused 401 instead of 400, and {"$regex": "^nobody"} (which finds none) is still 400.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'token', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        let body: unknown;
        try {
          body = JSON.parse(exchange.body.toString('utf8'));
        } catch {
          return exchange;
        }
        if (!isObject(body) || !isObject(body.client_id)) return exchange;
        const conditions = Object.entries(body.client_id);
        if (conditions.length === 0) return exchange;
        const found = store()
          .clients()
          .find((client) => conditions.every(([operator, operand]) => matchesOperator(operator, operand, client.clientId) === true));
        return found ? { ...exchange, body: Buffer.from(JSON.stringify({ ...body, client_id: found.clientId }), 'utf8') } : exchange;
      });
    },
  },
  {
    id: 'ho23-grant-type-ruby-abbrev',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: `The grant type dispatched through a table made with Ruby's Abbrev.abbrev(${JSON.stringify(KNOWN_GRANT_TYPES)}) (so that an operator's console could type a short form), which maps every unambiguous prefix to its word: grant_type "client" (or "client_cred") gets a token instead of 400 unsupported_grant_type; "credentials" and "client_credentialz" are still refused.`,
    install: (app) =>
      editTokenParameters(app, (params) => {
        const sent = params.grant_type;
        if (typeof sent !== 'string' || sent === '' || sent === GRANT_TYPE || !GRANT_TYPE.startsWith(sent)) return params;
        const matches = KNOWN_GRANT_TYPES.filter((grant) => grant.startsWith(sent));
        return matches.length === 1 ? { ...params, grant_type: GRANT_TYPE } : params;
      }),
  },
  {
    id: 'ho23-assertion-any-rsa-algorithm',
    clause: 'token.observed.client-assertion',
    level: 'observed',
    bug: "Client assertions verified with jose's jwtVerify(assertion, clientKey) and no algorithms option, so that every algorithm the client's RSA key can verify is taken: an assertion signed RS512 (or PS512) with the private-key-jwt client's key, otherwise valid, gets a token instead of 401 invalid_client; one signed HS256 is still refused.",
    install: (app) =>
      app.override('assertions', (assertions, built) => {
        let ephemeral: KeyPairKeyObjectResult | undefined;
        const keyPair = () => (ephemeral ??= generateKeyPairSync('rsa', { modulusLength: 2048 }));
        const realStore = built.store!;
        // The same checks, over the assertion re-signed RS256 with a key of the fault's own, which the view of the store gives the client.
        const view = {
          client: (id: string) => (realStore.client(id) ? { ...realStore.client(id)!, publicKey: keyPair().publicKey } : undefined),
        };
        const lenient = createAssertionVerifier({ store: view as unknown as Store, tenant: built.tenant!, clock: built.clock! });
        return {
          async verify(assertion, clientId, host) {
            const checked = await assertions.verify(assertion, clientId, host);
            const decoded = decodeJws(assertion);
            const alg = String(decoded?.header.alg);
            if (checked.ok || !decoded || checked.description !== tokenDescriptions.assertion.algorithm(alg) || !ANY_RSA_ALGORITHM.has(alg))
              return checked;
            const client = typeof decoded.payload.iss === 'string' ? realStore.client(decoded.payload.iss) : undefined;
            if (!client?.publicKey) return checked;
            try {
              await compactVerify(assertion, client.publicKey, { algorithms: [alg] });
            } catch {
              return checked;
            }
            const payload = Buffer.from(assertion.split('.')[1]!, 'base64url');
            const resigned = await new CompactSign(payload)
              .setProtectedHeader({ ...decoded.header, alg: 'RS256' })
              .sign(keyPair().privateKey);
            const again = await lenient.verify(resigned, clientId, host);
            return again.ok ? { ok: true, client } : again;
          },
        };
      }),
  },
  {
    id: 'ho23-lifetime-jsonwebtoken-string',
    clause: 'token.lifetime',
    level: 'observed',
    bug: `Tokens signed with jsonwebtoken's jwt.sign(claims, key, {expiresIn: process.env.TOKEN_LIFETIME}) where the setting is the string "${LIFETIME_SETTING}", which the library reads with ms() as milliseconds: every token's exp is iat + 86 (86.4 seconds) instead of iat + 86400, while the answer still says expires_in 86400 (computed apart from the token).`,
    install: (app) =>
      app.override('issuer', (issuer, built) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          const claims = decodeJwt(issued.accessToken);
          if (typeof claims.iat !== 'number') return issued;
          const exp = Math.floor(claims.iat + Number(LIFETIME_SETTING) / 1000);
          const accessToken = await new SignJWT({ ...claims, exp })
            .setProtectedHeader(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters)
            .sign(built.keys!.privateKey);
          return { ...issued, accessToken };
        },
      })),
  },
  {
    id: 'ho23-unknown-client-answered-apart',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: `A token handler that looks the client up before it checks the secret and answers a miss on its own (raise HTTPException(400, ...) in a FastAPI route): a client_id that names no client is answered 400 {"error": "invalid_request", "error_description": "${UNKNOWN_CLIENT}"} instead of 401 invalid_client "Client authentication failed", which tells callers which client ids exist; a known client with a wrong secret is still 401 invalid_client.`,
    install: (app) => {
      const store = capture(app, 'store');
      const errors = capture(app, 'errors');
      editReplies(app, ['token'], (reply, exchange) => {
        if (reply.status !== 401 || !isObject(reply.body) || reply.body.error !== 'invalid_client') return reply;
        if (reply.body.error_description !== tokenDescriptions.clientAuthenticationFailed) return reply;
        const clientId = sentClientId(exchange.headers['content-type'], exchange.body.toString('utf8'));
        if (clientId === undefined || store().client(clientId)) return reply;
        const replacement = errors().tokenReply('invalid_request', UNKNOWN_CLIENT);
        return { ...replacement, headers: { ...withoutHeaders(reply, ['www-authenticate']).headers, ...replacement.headers } };
      });
    },
  },
]);

/** The client_id parameter of a form or JSON token request body, when it has one string value. */
function sentClientId(contentType: string | undefined, text: string): string | undefined {
  if (isJsonMediaType(contentType)) {
    try {
      const value: unknown = JSON.parse(text);
      return isObject(value) && typeof value.client_id === 'string' ? value.client_id : undefined;
    } catch {
      return undefined;
    }
  }
  const values = new URLSearchParams(text).getAll('client_id');
  return values.length === 1 ? values[0] : undefined;
}
