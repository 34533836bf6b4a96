// The token endpoint: a secret compared with PHP's strcmp(), which a form list turns into null (and
// null == 0), a client_id parameter never compared with the client a Micronaut authenticator takes
// from the assertion, RFC 7523's jwt-bearer grant wired by OpenIddict into client credentials; and
// the observed rules: the jtis of client assertions remembered by each of four replicas a mesh
// balances requests across, an assertion's aud compared by its scheme and authority (a Haskell
// Servant endpoint with network-uri), and a form read with Python's parse_qs (blank values dropped
// before the repeated-parameter check). Each changes the answer to one near miss; other requests are
// answered as before.
import { observed } from '../../../../specs/index.ts';
import { decodeJws } from '../../../auth/bearer.ts';
import { createAssertionVerifier, type AssertionVerifier } from '../../../auth/client-assertion.ts';
import type { Exchange } from '../../../exchange.ts';
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import type { Tenant } from '../../../tenant.ts';
import { capture } from '../../support/captured.ts';
import { editRequests } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const GRANT_TYPE = 'client_credentials';
const JWT_BEARER = observed.tokens.client_assertion.type;
/** The grant type of RFC 7523 section 2.1 (a JWT used as an authorization grant). */
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** The replicas of the token endpoint the mesh balances requests across. */
const REPLICAS = 4;
/** The scheme and authority of an absolute http(s) URI, as network-uri's uriScheme and uriAuthority give them. */
const SCHEME_AND_AUTHORITY = /^(https?):\/\/([^/?#]+)/;

/**
 * The token request's parameters (form-encoded or JSON), to read and rewrite; undefined for another
 * body, one that does not parse, or a form with a parameter given twice (the endpoint refuses it).
 */
function tokenParameters(exchange: Exchange): { params: Fields; rewritten: (params: Fields) => Exchange } | undefined {
  const text = exchange.body.toString('utf8');
  const contentType = exchange.headers['content-type'];
  if (isFormMediaType(contentType)) {
    const form = new URLSearchParams(text);
    const names = [...form.keys()];
    if (new Set(names).size !== names.length) return undefined;
    return {
      params: Object.fromEntries(form),
      rewritten: (params) => ({ ...exchange, body: Buffer.from(new URLSearchParams(params as Record<string, string>).toString(), 'utf8') }),
    };
  }
  if (!isJsonMediaType(contentType)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isObject(body)
    ? { params: body, rewritten: (params) => ({ ...exchange, body: Buffer.from(JSON.stringify(params), 'utf8') }) }
    : undefined;
}

/** The tenant as an assertion's aud is judged by scheme and authority alone: any path on an identity's origin names it. */
function authorityOnly(tenant: Tenant): Tenant {
  return {
    ...tenant,
    identityForIssuer(value, host) {
      const exact = tenant.identityForIssuer(value, host);
      if (exact) return exact;
      const parsed = SCHEME_AND_AUTHORITY.exec(value);
      return parsed ? tenant.identityForIssuer(`${parsed[1]}://${parsed[2]}/`, host) : undefined;
    },
  };
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho24-secret-php-strcmp-array',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: 'A PHP 7 token endpoint comparing secrets with if (strcmp($_POST[\'client_secret\'], $client->secret) == 0), where strcmp() given an array warns and returns NULL, and NULL == 0: a form request with client_secret[]=anything (JSON: "client_secret": ["anything"]) and the global client\'s id gets a token instead of being refused (400, no client_secret string); client_secret=anything is still refused 401 invalid_client.',
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'token', (exchange) => {
        const contentType = exchange.headers['content-type'];
        const text = exchange.body.toString('utf8');
        if (isFormMediaType(contentType)) {
          const form = new URLSearchParams(text);
          const listed = [...new Set(form.keys())].filter((name) => /^client_secret\[[^\]]*\]$/.test(name));
          const ids = form.getAll('client_id');
          const secret = ids.length === 1 ? store().client(ids[0]!)?.secret : undefined;
          if (form.has('client_secret') || listed.length === 0 || secret === undefined) return exchange;
          for (const name of listed) form.delete(name);
          form.set('client_secret', secret);
          return { ...exchange, body: Buffer.from(form.toString(), 'utf8') };
        }
        const parameters = tokenParameters(exchange);
        if (!parameters) return exchange;
        const { params } = parameters;
        const secret = typeof params.client_id === 'string' ? store().client(params.client_id)?.secret : undefined;
        if (secret === undefined || params.client_secret === null || typeof params.client_secret !== 'object') return exchange;
        return parameters.rewritten({ ...params, client_secret: secret });
      });
    },
  },
  {
    id: 'ho24-assertion-client-id-unchecked',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: "A Micronaut token endpoint whose private_key_jwt authenticator checks that the client_id parameter names a client and then loads the client to authenticate from the assertion's iss, never comparing the two: client_id=<the global client's id> with a valid assertion of the private-key-jwt client gets that client a token instead of 401 invalid_client; a client_id naming no client is still refused.",
    install: (app) => {
      const store = capture(app, 'store');
      editRequests(app, 'token', (exchange) => {
        const parameters = tokenParameters(exchange);
        if (!parameters) return exchange;
        const { params } = parameters;
        if (typeof params.client_assertion !== 'string' || typeof params.client_id !== 'string') return exchange;
        const iss = decodeJws(params.client_assertion)?.payload.iss;
        if (typeof iss !== 'string' || iss === params.client_id || !store().client(params.client_id)) return exchange;
        const { client_id: _unchecked, ...rest } = params;
        return parameters.rewritten(rest);
      });
    },
  },
  {
    id: 'ho24-grant-type-jwt-bearer-openiddict',
    clause: 'token.endpoint.grant-type',
    level: 'contract',
    bug: `An ASP.NET Core authorization server on OpenIddict with AllowCustomFlow("${JWT_BEARER_GRANT}") added for a partner's service accounts, its handler signing in the assertion's client as it does for client credentials: grant_type=${JWT_BEARER_GRANT} with assertion=<a valid client assertion of the private-key-jwt client> and the management audience gets a token instead of 400 unsupported_grant_type; grant_type=password is still refused.`,
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const parameters = tokenParameters(exchange);
        if (!parameters) return exchange;
        const { grant_type: grantType, assertion, ...rest } = parameters.params;
        if (grantType !== JWT_BEARER_GRANT || typeof assertion !== 'string' || rest.client_assertion !== undefined) return exchange;
        return parameters.rewritten({ ...rest, grant_type: GRANT_TYPE, client_assertion: assertion, client_assertion_type: JWT_BEARER });
      }),
  },
  {
    id: 'ho24-assertion-jti-per-replica',
    clause: 'token.observed.client-assertion',
    level: 'observed',
    bug: `The token endpoint run as ${REPLICAS} replicas behind a Linkerd mesh that balances requests (not connections) round robin, each replica remembering the jtis of the assertions it accepted in its own memory instead of the shared store: a valid client assertion sent again at once is accepted (a token, another replica) instead of 401 invalid_client, and so on ${REPLICAS} times in all; its ${REPLICAS + 1}th use, back on the first replica, is refused.`,
    install: (app) => {
      let replica = 0;
      let turn = 0;
      app.wrapRoute('token', (next) => async (exchange) => {
        replica = turn;
        turn = (turn + 1) % REPLICAS;
        return next(exchange);
      });
      app.override('assertions', (assertions, built) => {
        const replicas: AssertionVerifier[] = [
          assertions,
          ...Array.from({ length: REPLICAS - 1 }, () =>
            createAssertionVerifier({ store: built.store!, tenant: built.tenant!, clock: built.clock! }),
          ),
        ];
        return { verify: (assertion, clientId, host) => replicas[replica]!.verify(assertion, clientId, host) };
      });
    },
  },
  {
    id: 'ho24-assertion-aud-authority-only',
    clause: 'token.observed.client-assertion',
    level: 'observed',
    bug: "A Haskell Servant token endpoint judging a client assertion's aud with network-uri by its uriScheme and uriAuthority, the path never compared (meant to accept the tenant's issuer and its token endpoint alike): an otherwise valid assertion whose aud is https://<tenant>/userinfo (or https://<tenant> without its slash) gets a token instead of 401 invalid_client; an aud on another host, https://reports-api.example.com/, is still refused.",
    install: (app) =>
      app.override('assertions', (_assertions, built) =>
        createAssertionVerifier({ store: built.store!, tenant: authorityOnly(built.tenant!), clock: built.clock! }),
      ),
  },
  {
    id: 'ho24-form-blank-repeat-parse-qs',
    clause: 'token.observed.request-rules',
    level: 'observed',
    bug: 'A Flask token endpoint reading the form with urllib.parse.parse_qs(request.get_data(as_text=True)), whose keep_blank_values defaults to False, and refusing a parameter whose list holds more than one value: audience=<the audience>&audience= (the parameter given twice, once empty) gets a token instead of 400 invalid_request; audience=<the audience>&audience=<another> is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
        const pairs = [...new URLSearchParams(exchange.body.toString('utf8'))];
        const kept = pairs.filter(([, value]) => value !== '');
        return kept.length === pairs.length ? exchange : { ...exchange, body: Buffer.from(new URLSearchParams(kept).toString(), 'utf8') };
      }),
  },
]);
