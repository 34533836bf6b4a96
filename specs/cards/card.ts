// An operation card: everything the project knows about one operation of the interface, in one
// place. What the spec says of it (method, path, parameters and their bounds, body schema) is
// read from openapi.yaml by its key; the card adds what the project decides: how tests name it,
// the scope it needs and where that fact comes from, the role that lacks it, the fixtures its valid
// request is made of, whether a success writes, what a request naming a resource that does not
// exist gets, and its valid request as data (a RequestTemplate). The mock's routes, the roles and
// fixtures of a target file, the plan, the suites' tables and the request-model matrix
// (specs/matrix/) are derived from the cards (cards.ts), so an operation is added in one place.
import type { ClauseLevel } from '../clauses.ts';
import type { JsonObject, OperationKey, OperationSpec } from '../openapi.ts';
import type { FixtureName, TargetFixtures } from './fixtures.ts';

/**
 * One segment of a request's path: a literal (the base path's included), or a path parameter,
 * percent-encoded when the request is made unless `encoded` says its text is already.
 */
export type PathPart = { literal: string; encoded?: true } | { param: string; value: string; encoded?: true };

/** A JOSE header or a claims set, as JSON. */
export type JsonRecord = Record<string, unknown>;

/** Forgeries made from the target's own valid token, without its signing key (but the last). */
export type Forgery =
  | 'tampered-signature'
  | 'tampered-payload'
  | 'alg-none'
  | 'foreign-key'
  | 'embedded-jwk'
  | 'embedded-x5c'
  | 'jku-foreign'
  | 'unknown-kid'
  | 'hs256-public-key'
  /** Signed with the private key of a client of the tenant (token_alternatives.key_client): under the tenant's kid, the key's own (its RFC 7638 thumbprint), or none. */
  | 'client-key'
  | 'client-key-own-kid'
  | 'client-key-no-kid'
  /** Signed again with the target's own key (only a test double gives it), its kid the published key's certificate thumbprint (x5t). */
  | 'kid-as-x5t'
  /** Signed again with the target's own key (only a test double gives it), a jti chosen so that the signature starts with a zero byte, sent without that byte. */
  | 'leading-zero-signature'
  /** Signed again with the target's own key (only a test double gives it), its header unchanged but its signature made by another RSA algorithm. */
  | `signature-as-${OtherRsaAlgorithm}`;

/**
 * The RSA algorithms of JWA (RFC 7518 3.3, 3.5) but the one the service signs with (RS256), and
 * PKCS#1 v1.5 over SHA-1 (RS1, WebCrypto's RSASSA-PKCS1-v1_5 with SHA-1, which JWA leaves out),
 * the fallback of verifiers written for older tokens.
 */
export const otherRsaAlgorithms = ['PS256', 'PS384', 'PS512', 'RS384', 'RS512', 'RS1'] as const;
export type OtherRsaAlgorithm = (typeof otherRsaAlgorithms)[number];

/**
 * A change to the valid token. `resign` needs the target's signing key (only a test double gives
 * it): the JOSE header and claims changed, then signed again. `forge` needs nothing. `text`
 * changes the compact token's characters.
 */
export interface TokenEdit {
  resign?: {
    header?: (header: JsonRecord) => JsonRecord;
    /** The JOSE header as this JSON text instead (a member twice, which a header object cannot hold). */
    headerText?: (header: JsonRecord) => string;
    claims?: (claims: JsonRecord, nowSeconds: number) => JsonRecord;
    /** The payload as this JSON text instead (a member twice, which a claims object cannot hold). */
    claimsText?: (claims: JsonRecord, nowSeconds: number) => string;
    /** The payload segment the raw DEFLATE (RFC 1951) of the claims' JSON instead of the JSON itself. */
    deflated?: boolean;
    /**
     * The signature made over the header's segment, "." and the claims' JSON itself (RFC 7797's
     * signing input where "b64" is false), the payload segment base64url as ever.
     */
    unencodedPayload?: boolean;
  };
  forge?: Forgery;
  text?: (token: string) => string;
}

/** How the token travels: in the Authorization header (the default `Bearer <token>`), or elsewhere (RFC 6750 2.2 and 2.3, a proxy's header, a cookie). */
export interface Carry {
  /** The Authorization header's value(s) made from the token; an empty list sends no header. */
  authorization?: (token: string) => string[];
  /** Where the token also goes: the query string, a form body, or another header (RFC 6750 alternatives). */
  elsewhere?: 'query' | 'form' | 'x-forwarded-authorization' | 'proxy-authorization' | 'cookie' | 'websocket-protocol' | 'x-access-token';
  /** Headers made from the token (a Date header from its own time claims, say), sent with it. */
  headers?: (token: string) => Record<string, string>;
}

/** The tokens a real tenant can stand in for the signing key (token_alternatives of a target file). */
export type AlternativeToken = 'expired' | 'wrong-audience' | 'wrong-issuer';

/** How a request authenticates, as data: the harness fetches, forges or re-signs the token. */
export type CredentialSpec =
  | { kind: 'none' }
  | { kind: 'role'; role: string; edit?: TokenEdit; carry?: Carry }
  | { kind: 'alternative'; token: AlternativeToken; carry?: Carry };

/**
 * A request body: JSON (serialised by the harness: compact, or spaced around its punctuation, or
 * after a byte order mark), or raw text with its content type.
 */
export type BodySpec = { json: unknown; format?: 'spaced' | 'bom' } | { raw: string };

/** A request of the management interface as data, realized and sent by the harness. */
export interface RequestTemplate {
  method: string;
  /** Every segment after the target's origin, the base path's (`api`, `v2`) included. */
  path: PathPart[];
  /** Query parameters, in order; a name may repeat. */
  query: Array<[string, string]>;
  /** Header values by lower-case name (a list sends the header once per value); Authorization is the credential's. */
  headers: Record<string, string[]>;
  body?: BodySpec;
  /** The body sent in chunks (Transfer-Encoding: chunked, RFC 9112 7.1) instead of with a Content-Length. */
  chunked?: boolean;
  credential: CredentialSpec;
}

/** What the suite checks an answer against; its level is its clause's. */
export type Outcome =
  /** A success: a 2xx status. */
  | { kind: 'accept' }
  /** A refusal: a 4xx other than 429. */
  | { kind: 'refuse' }
  | { kind: 'status'; status: number }
  /**
   * An error of specs/observed.yaml (status, message, errorCode), its message naming `naming` where
   * given, and none of `notNaming`.
   */
  | { kind: 'observed-error'; error: string; naming?: string; notNaming?: string[] }
  /** One of these statuses: two causes whose order neither the spec nor the reference gives. */
  | { kind: 'either'; statuses: number[] }
  /** An error of the token endpoint in its own shape ({error, error_description}), of observed.yaml tokens.errors. */
  | { kind: 'token-error'; error: string }
  /** No token carrying the scope: the request refused, or a token issued without it. */
  | { kind: 'token-without-scope'; scope: string }
  /** No token without these scopes: the request refused, or a token issued carrying every one of them. */
  | { kind: 'token-with-scopes'; scopes: string[] }
  /** No token whose scope claim is other than scopes of the catalogue, one space between each: the request refused, or such a token. */
  | { kind: 'token-of-catalogue' };

/** One clause an answer bears on, and what it requires of the answer. */
export interface ClauseCheck {
  clause: string;
  outcome: Outcome;
}

/** What a path parameter names, and what a well-formed value that names nothing gets. */
export interface ParamRule {
  /** The fixture that supplies the valid request's value (the first of a list). */
  fixture: FixtureName;
  /** The resource the parameter names, as a title reads it: "stream", "event", "profile", "connection". */
  names: string;
  /** What a well-formed id of a resource that does not exist gets. */
  unknown: ClauseCheck[];
  /** An existing resource of another owner that the parameter must not reach through this path (an event of another stream). */
  otherOwner?: { fixture: FixtureName; what: string; checks: ClauseCheck[] };
}

/** The scope an operation needs: its value, the level of that fact, and the clauses of its refusal. */
export interface ScopeRule {
  value: string;
  level: ClauseLevel;
  /** The clause a token without the scope bears on as a refusal. */
  clause: string;
  /** Clauses that also fix the refusal's status (403), where one does. */
  statusClauses: string[];
  /** Its action on another resource: the near miss a client can be configured to hold. */
  otherResource: string;
}

export interface OperationCard<K extends OperationKey = OperationKey, R extends string = string> {
  key: K;
  /** What the OpenAPI document says of it: method, path template, parameters, body schema. */
  spec: OperationSpec;
  /** The status of its success (observed where the spec does not show it), and the clause a request the contract allows bears on when accepted. */
  success: { status: number; clause: string };
  /** How test titles name it: "redelivery", "ticket creation", "the vault read". */
  name: string;
  /** Short name in the ids of its faults: "redeliver", "ticket", "vault". */
  faultPrefix: string;
  scope: ScopeRule;
  /** The global-client rule, where the operation has one (spec 5, rule 4). */
  globalClient?: { clause: string; statusClause: string };
  /** The role holding every scope of the operations but this one's (its 403 tests). */
  roleWithoutScope: R;
  /** The fixtures its valid request is made of. */
  fixtures: readonly FixtureName[];
  /** Whether a success changes the target: a real tenant's writes need --allow-writes. */
  writes: boolean;
  /** Its path parameters, by name. */
  params: Readonly<Record<string, ParamRule>>;
  /** The clause its 401s bear on, and the one of a signature that fails validation where it differs. */
  unauthenticated: { clause: string; signatureClause: string };
  /** What its success answers: the suites' success tables and the passive judge hold it to this. */
  answer: AnswerRule;
  /** Its request body: the schema's name in openapi.yaml and the valid bodies, an empty one and one with every field. */
  body?: {
    schema: string;
    /** The clause of a body that is not the schema's object type. */
    objectClause: string;
    empty: JsonObject;
    full(fixtures: TargetFixtures, clients: { global: string }): JsonObject;
    /** Top-level fields that do not come together (what a service does with both is not known). */
    exclusive?: ReadonlyArray<readonly string[]>;
    /** Fields that name a resource (an id): a well-formed value that names none may or may not be refused. */
    identities: readonly string[];
    /** Fields of the observed level only that the observed reference names: varied on a real tenant too. */
    observedCore: readonly string[];
    /** The clause of the real service's published rules of the body (observed). */
    rulesClause: string;
    /** The clause a body with none of the optional fields bears on when it is accepted. */
    optionalClause: string;
  };
}

/** What a success answers, and the clause of each part of it. */
export interface AnswerRule {
  /** The clause of its status: the spec's where it states one (`contract`), else the real service's. */
  statusClause: string;
  level: ClauseLevel;
  /**
   * A JSON body of a schema of openapi.yaml: its content type's clause, a field's contract clause,
   * its recorded shape's clause and that shape in words.
   */
  body?: { schema: string; contentTypeClause: string; fieldClause: (property: string) => string; shapeClause: string; shape: string };
  /** No body the spec shows: the clause of the real service's ({} as JSON). */
  emptyBodyClause?: string;
  /** The body names the resource its path names: the parameter, the field and the clause. */
  echoes?: { param: string; field: string; clause: string };
  /** The answer is on the host of the custom domain the request named (observed): the clause. */
  customDomainHostClause?: string;
}
