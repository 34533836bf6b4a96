// The token endpoint's answers (spec 5, rule 3; observed.yaml tokens): a client-credentials
// request for the management audience gets a JWT carrying its scopes, in the response and with
// the claims the real service gives; errors have their own shape. Across the recording: one
// client's tokens issued for two different secrets means a wrong secret was accepted (secrets are
// compared by their digests), and a token issued for an audience that only differs from the
// tenant's by a slash or its letter case names no API of the tenant.
import { bodyFields } from '../../harness/exchange-record.ts';
import { REDACTED, REDACTED_NOT_A_STRING } from '../../harness/redact.ts';
import { audiencePath, checkScopeString, describeErrors, observed, validator } from '../../specs/index.ts';
import type { RecordingContext } from '../context.ts';
import { isSuccess, judge, type Classified, type Judgment } from '../judgment.ts';
import { tokenClauses } from '../rules.ts';

/** What the token requests of one client so far showed: the digest of the secret each 200 was given for. */
export type SecretsSeen = Map<string, Array<{ digest: string; position: number; issued: boolean }>>;

export function tokenEndpointJudgments(x: Classified, context: RecordingContext, secrets: SecretsSeen): Judgment[] {
  const { request } = x.exchange;
  const fields = bodyFields(request.headers, request.body) ?? {};
  const judgments: Judgment[] = [];
  if (x.status === 200) judgments.push(...issuedJudgments(x, fields));
  else judgments.push(errorShapeJudgment(x));
  if (
    // A media type's name is case-insensitive (RFC 9110 8.3.1): Application/JSON is JSON.
    (request.headers['content-type'] ?? '').toLowerCase().includes('json') &&
    wellFormedJson(request.body, request.headers.authorization !== undefined) &&
    (x.status === 200 || x.status === 400 || x.status === 415)
  ) {
    const refusedAsJson = x.status === 415 || (x.json as { error?: unknown } | undefined)?.error === 'invalid_request';
    judgments.push(
      judge(
        tokenClauses.jsonRequest,
        x,
        'takes a JSON token request',
        'not refused for its JSON body',
        refusedAsJson ? `${x.status} ${JSON.stringify(x.json)}` : undefined,
      ),
    );
  }
  judgments.push(...audienceJudgments(x, fields, context));
  judgments.push(...secretJudgments(x, fields, secrets));
  return judgments;
}

/** The token request's parameters (RFC 6749 4.4.2 and 2.3.1, RFC 7523 2.2, the audience). */
const TOKEN_PARAMETERS = new Set([
  'grant_type',
  'client_id',
  'client_secret',
  'audience',
  'scope',
  'client_assertion',
  'client_assertion_type',
]);

/**
 * A JSON token request the observed rule is about: an object whose fields are all strings (a list
 * or a number in a field may be refused as invalid_request; a credential that was none is recorded
 * as REDACTED_NOT_A_STRING), none empty or padded, only the token request's parameters, naming
 * grant_type client_credentials and the client's credentials by exactly one method (client_id and
 * client_secret, a client_assertion, or an Authorization header): a request without one, with two,
 * or with a parameter of its own is refused as invalid_request for that, not for its JSON.
 */
function wellFormedJson(body: string | undefined, authorized: boolean): boolean {
  try {
    const parsed = JSON.parse(body ?? '') as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
    const fields = parsed as Record<string, unknown>;
    const named = (name: string) => name in fields;
    const methods = [authorized, named('client_assertion'), named('client_secret')].filter(Boolean).length;
    return (
      Object.values(fields).every((v) => typeof v === 'string' && v !== REDACTED_NOT_A_STRING && v !== '' && v.trim() === v) &&
      Object.keys(fields).every((name) => TOKEN_PARAMETERS.has(name)) &&
      fields.grant_type === 'client_credentials' &&
      methods === 1 &&
      (!named('client_secret') || named('client_id'))
    );
  } catch {
    return false;
  }
}

// Long: one judgment per fact of an issued token (status, body, type, lifetime, claims), in the
// order the token clauses list them; split, the claims would be read far from the body they come in.
function issuedJudgments(x: Classified, fields: Record<string, string>): Judgment[] {
  const issued = x.exchange.tokens?.issued;
  const body = x.json as { access_token?: unknown; expires_in?: unknown } | undefined;
  const judgments: Judgment[] = [];
  const forManagement = fields.grant_type === 'client_credentials' && (fields.audience ?? '').endsWith(audiencePath);
  // A redacted access token that was not kept decoded says nothing of what it was.
  const unknowable = !issued && typeof body?.access_token === 'string' && body.access_token.includes(REDACTED);
  if (forManagement && !unknowable) {
    judgments.push(
      judge(
        tokenClauses.issues,
        x,
        'issues a JWT access token for client credentials',
        'a JWT in access_token',
        issued ? undefined : `access_token ${JSON.stringify(body?.access_token)}`,
      ),
    );
  }
  const response = validator('TokenResponse', 'observed');
  judgments.push(
    judge(
      tokenClauses.response,
      x,
      'answers {access_token, token_type, expires_in, scope}',
      'a valid TokenResponse',
      response(x.json) ? undefined : describeErrors(response.errors),
    ),
  );
  if (!issued) return judgments;
  const { claims, header } = issued;
  judgments.push(
    judge(
      tokenClauses.scopes,
      x,
      'issues a token that carries its scopes',
      'a scope claim',
      typeof claims.scope === 'string' ? undefined : `scope ${JSON.stringify(claims.scope)}`,
    ),
  );
  if (typeof claims.scope === 'string') {
    const { malformed, unknown } = checkScopeString(claims.scope);
    const problem = [...malformed.map((s) => `${s} is not action:resource`), ...unknown.map((s) => `${s} is not in the catalogue`)].join(
      '; ',
    );
    judgments.push(
      judge(tokenClauses.catalogue, x, 'issues scopes of the catalogue', 'action:resource scopes of scopes.yaml', problem || undefined),
    );
  }
  const lifetime = observed.tokens.expires_in;
  const lived = typeof claims.exp === 'number' && typeof claims.iat === 'number' ? claims.exp - claims.iat : undefined;
  judgments.push(
    judge(
      tokenClauses.lifetime,
      x,
      `issues a token living ${lifetime} s`,
      `expires_in ${lifetime}, exp = iat + ${lifetime}`,
      body?.expires_in !== lifetime
        ? `expires_in ${JSON.stringify(body?.expires_in)}`
        : lived !== lifetime
          ? `exp - iat = ${lived}`
          : undefined,
    ),
  );
  const client = typeof claims.azp === 'string' ? claims.azp : undefined;
  const problems = [
    header.alg !== observed.tokens.alg ? `alg ${JSON.stringify(header.alg)}` : '',
    header.typ !== observed.tokens.typ ? `typ ${JSON.stringify(header.typ)}` : '',
    typeof header.kid !== 'string' ? 'no kid' : '',
    ...['iss', 'aud', 'sub', 'azp', 'iat', 'exp', 'scope', 'gty'].filter((c) => claims[c] === undefined).map((c) => `no ${c}`),
    client !== undefined && claims.sub !== `${client}${observed.tokens.subject_suffix}` ? `sub ${JSON.stringify(claims.sub)}` : '',
    claims.gty !== undefined && claims.gty !== observed.tokens.gty ? `gty ${JSON.stringify(claims.gty)}` : '',
  ].filter(Boolean);
  judgments.push(
    judge(
      tokenClauses.claims,
      x,
      'issues a token with the claims the service gives',
      `${observed.tokens.alg}, kid, iss aud sub azp iat exp scope gty`,
      problems.join('; ') || undefined,
    ),
  );
  return judgments;
}

function errorShapeJudgment(x: Classified): Judgment {
  const shape = validator('TokenError', 'observed');
  const body = x.json as { error?: unknown } | undefined;
  const fact = typeof body?.error === 'string' ? observed.tokens.errors[body.error] : undefined;
  const problem = !shape(x.json)
    ? describeErrors(shape.errors)
    : fact && fact.status !== x.status
      ? `${body!.error as string} with ${x.status}, not ${fact.status}`
      : undefined;
  return judge(tokenClauses.errors, x, 'answers a token error {error, error_description}', 'a valid TokenError with its status', problem);
}

/** An audience equal to one of the tenant's but for trailing slashes and letter case. */
function audienceJudgments(x: Classified, fields: Record<string, string>, context: RecordingContext): Judgment[] {
  const asked = fields.audience;
  if (asked === undefined) return [];
  const loose = (a: string) => a.replace(/\/+$/, '').toLowerCase();
  const origin = new URL(x.exchange.request.url).origin;
  const tenant = context.identitiesOf(origin).map((i) => i.audience);
  if (tenant.includes(asked) || !tenant.some((a) => loose(a) === loose(asked))) return [];
  return [
    judge(
      tokenClauses.audience,
      x,
      `issues no token for ${asked}, a near miss of the tenant's audience`,
      'a refusal',
      isSuccess(x.status) ? `issued with ${x.status}` : undefined,
    ),
  ];
}

function secretJudgments(x: Classified, fields: Record<string, string>, secrets: SecretsSeen): Judgment[] {
  const client = fields.client_id;
  const digest = x.exchange.digests?.clientSecret;
  if (!client || !digest) return [];
  const seen = secrets.get(client) ?? [];
  secrets.set(client, [...seen, { digest, position: x.position, issued: x.status === 200 }]);
  const otherIssued = seen.filter((s) => s.issued && s.digest !== digest);
  const issuedSame = seen.filter((s) => s.issued && s.digest === digest);
  if (x.status === 200 && otherIssued.length > 0) {
    return [
      judge(
        tokenClauses.wrongSecret,
        x,
        `issues no token to client ${client} for a second, different secret`,
        'a refusal',
        'issued with 200',
        otherIssued.map((s) => s.position),
      ),
    ];
  }
  // Refused for a secret other than one that got a token: the wrong secret was caught.
  const issuedOther = seen.find((s) => s.issued && s.digest !== digest);
  if (x.status !== 200 && x.status !== 429 && issuedOther && issuedSame.length === 0) {
    return [
      judge(
        tokenClauses.wrongSecret,
        x,
        `refuses client ${client} a secret other than the one it got a token for`,
        'a refusal',
        undefined,
        [issuedOther.position],
      ),
    ];
  }
  return [];
}

/**
 * Each issued token's kid against the JWKS answers recorded from the same origin: a token whose key
 * the tenant does not publish cannot be verified by anyone. Judged only where a JWKS was recorded.
 */
export function jwksJudgments(classified: readonly Classified[]): Judgment[] {
  const published = new Map<string, Set<string>>();
  for (const x of classified) {
    if (x.endpoint.kind !== 'jwks' || x.status !== 200) continue;
    const keys = (x.json as { keys?: Array<{ kid?: unknown }> } | undefined)?.keys ?? [];
    const origin = new URL(x.exchange.request.url).origin;
    published.set(origin, new Set([...(published.get(origin) ?? []), ...keys.map((k) => String(k.kid))]));
  }
  return classified.flatMap((x) => {
    const issued = x.exchange.tokens?.issued;
    const kids = published.get(new URL(x.exchange.request.url).origin);
    if (x.endpoint.kind !== 'token' || !issued || !kids) return [];
    const kid = String(issued.header.kid);
    return [
      judge(
        tokenClauses.jwks,
        x,
        'issues a token whose key the JWKS publishes',
        `kid ${kid} in ${observed.tokens.jwks_path}`,
        kids.has(kid) ? undefined : `the JWKS publishes ${[...kids].join(', ') || 'no key'}`,
      ),
    ];
  });
}
