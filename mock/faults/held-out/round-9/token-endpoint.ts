// The token endpoint and what it publishes: a secret found inside what was sent, a client found by
// its name, grant_type read by its first word, and an audience whose two ends are checked apart;
// and the observed rules: a JSON body's byte order mark kept, tokens that expire at a day's end,
// repeated parameters let through when they agree, and x5t computed with SHA-256. Each changes the
// answer to one near miss; a plainly wrong request is refused as before.
import { createHash } from 'node:crypto';
import { observed } from '../../../../specs/index.ts';
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { reissueTokens } from '../round-2/support/reissue.ts';
import { editTokenParameters, type TokenParameters } from '../support/token-parameters.ts';

const GRANT_TYPE = 'client_credentials';
/** A UTF-8 byte order mark; the slip is shown by one more in front, which the decoder keeps once it has dropped the first. */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const SECONDS_A_DAY = 86_400;

/** The parameters with `name` set to `value`, or the same object where `value` is undefined. */
function withParameter(params: TokenParameters, name: string, value: string | undefined): TokenParameters {
  return value === undefined || value === params[name] ? params : { ...params, [name]: value };
}

/** A form body with each parameter that is repeated with one value throughout given once. */
function agreeingRepeatsMerged(text: string): string | undefined {
  const form = new URLSearchParams(text);
  let merged = false;
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name);
    if (values.length > 1 && values.every((value) => value === values[0])) {
      form.set(name, values[0]!);
      merged = true;
    }
  }
  return merged ? form.toString() : undefined;
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho9-token-secret-found-inside',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: "The secret checked as sent.includes(client.secret), the arguments of a containment test the wrong way round (meant to find a stored secret inside a pasted line): a body secret with a character before and after the client's secret gets a token instead of 401; the secret without its last character is still refused.",
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const { client_id: id, client_secret: sent } = params;
        const secret = id === undefined ? undefined : store().client(id)?.secret;
        return withParameter(
          params,
          'client_secret',
          secret !== undefined && sent !== undefined && sent.includes(secret) ? secret : undefined,
        );
      });
    },
  },
  {
    id: 'ho9-token-client-found-by-name',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: 'The client looked up by its id, then (a console convenience reused by the endpoint) by its display name: client_id "global", the name of a client, with that client\'s secret gets a token instead of 401; "globals" is still refused.',
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const id = params.client_id;
        if (id === undefined || store().client(id)) return params;
        return withParameter(
          params,
          'client_id',
          store()
            .clients()
            .find((client) => client.name === id)?.clientId,
        );
      });
    },
  },
  {
    id: 'ho9-token-grant-type-first-word',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: `grant_type read as grant_type.split(" ")[0], as a space-separated list of values like response_type: "${GRANT_TYPE} password" gets a token instead of 400; "password ${GRANT_TYPE}" is still refused.`,
    install: (app) =>
      editTokenParameters(app, (params) =>
        withParameter(params, 'grant_type', params.grant_type?.split(' ')[0] === GRANT_TYPE ? GRANT_TYPE : undefined),
      ),
  },
  {
    id: 'ho9-token-audience-ends-checked-apart',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'The audience checked as audience.startsWith(<tenant origin>/) && audience.endsWith("/api/v2/"), its two ends each right and the middle never looked at: "https://<tenant host>/v1/api/v2/" gets a management token instead of 403; "https://other.example.com/api/v2/" is still refused.',
    install: (app) => {
      const tenant = capture(app, 'tenant');
      editTokenParameters(app, (params) => {
        const { audience } = params;
        const { issuer, audience: canonical } = tenant();
        const path = canonical.slice(issuer.length - 1);
        return withParameter(params, 'audience', audience?.startsWith(issuer) && audience.endsWith(path) ? canonical : undefined);
      });
    },
  },
  {
    id: 'ho9-token-json-bom-kept',
    clause: 'token.observed.json-request',
    level: 'observed',
    bug: 'The token request decoded with buffer.toString("utf8"), which keeps a byte order mark that TextDecoder would drop, before JSON.parse: a JSON token request starting with a UTF-8 BOM (as some Windows tools write files) is refused 400 invalid_request instead of getting a token; the same request without the BOM gets one as before.',
    install: (app) =>
      editRequests(app, 'token', (exchange) =>
        isJsonMediaType(exchange.headers['content-type']) && exchange.body.subarray(0, BOM.length).equals(BOM)
          ? { ...exchange, body: Buffer.concat([BOM, exchange.body]) }
          : exchange,
      ),
  },
  {
    id: 'ho9-token-expiry-at-day-end',
    clause: 'token.lifetime',
    level: 'observed',
    bug: `Tokens made to expire at the end of the UTC day a lifetime of ${observed.tokens.expires_in} seconds reaches, exp rounded up to a whole day (so expired tokens are swept once a day): exp - iat is more than ${observed.tokens.expires_in}, up to a day more, while expires_in still says ${observed.tokens.expires_in}.`,
    install: (app) =>
      reissueTokens(app, {
        claims: (claims) => ({ ...claims, exp: Math.ceil((claims.exp ?? 0) / SECONDS_A_DAY) * SECONDS_A_DAY }),
      }),
  },
  {
    id: 'ho9-token-repeated-parameters-agreeing',
    clause: 'token.observed.request-rules',
    level: 'observed',
    bug: 'A parameter given twice refused only when its values differ (new Set(values).size > 1), a repeat with one value taken for harmless: a form token request with grant_type=client_credentials twice gets a token instead of 400; grant_type given twice with two values is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
        const merged = agreeingRepeatsMerged(exchange.body.toString('utf8'));
        return merged === undefined ? exchange : { ...exchange, body: Buffer.from(merged, 'utf8') };
      }),
  },
  {
    id: 'ho9-jwks-x5t-sha256',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: "The JWKS's x5t computed with SHA-256 (the x5t#S256 recipe) where x5t is the certificate's SHA-1 thumbprint: each key's x5t is 43 characters, a thumbprint of the certificate no SHA-1 gives, instead of 27; kid, n, e and x5c are published as before.",
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        const body = reply.body as { keys?: Array<Record<string, unknown>> } | undefined;
        if (reply.status !== 200 || !Array.isArray(body?.keys)) return reply;
        const keys = body.keys.map((key) => {
          const certificate: unknown = Array.isArray(key.x5c) ? (key.x5c as unknown[])[0] : undefined;
          return typeof certificate === 'string'
            ? { ...key, x5t: createHash('sha256').update(Buffer.from(certificate, 'base64')).digest('base64url') }
            : key;
        });
        return { ...reply, body: { ...body, keys } };
      }),
  },
]);
