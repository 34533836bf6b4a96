// The token endpoint's request (spec 5, rule 3): a client-credentials grant, POSTed form-encoded to
// {auth_url}/oauth/token/ for the audience {base_url}'s /api/v2/. Not one of the three operations,
// but a request the suite varies like theirs (specs/matrix/families/token-request.ts): its card is
// the request as data; the harness fills in the role's client id and secret when it sends it.
import { tokenPath } from '../openapi.ts';

export interface TokenRequestTemplate {
  method: string;
  /** Segments of the path on the auth host; a trailing "" is the trailing slash. */
  path: string[];
  /** The form (or JSON) fields, in order; a name may repeat. */
  fields: Array<[string, string]>;
  encoding: 'form' | 'form-charset' | 'json';
  /** HTTP Basic client authentication (RFC 6749 2.3.1): the user-id and password as sent, each already form-encoded. */
  basic?: {
    userId: string;
    password: string;
    /** Written otherwise than RFC 7617 2 has it: without the colon between them, or as text rather than base64. */
    written?: 'without-colon' | 'as-text';
    /** A second Authorization header, Basic with this password, sent before or after the first. */
    second?: { password: string; first: boolean };
  };
  /**
   * In a JSON request, the object wrapped: inside a list of one, or as a JSON string holding its JSON
   * text (encoded twice).
   */
  wrapped?: 'list' | 'json-text';
  /** In a JSON request, JSON whitespace (RFC 8259 2) written before and after the body's text. */
  surrounded?: { before: string; after: string };
  /** In a JSON request, every "/" written as the escape "\\/" (RFC 8259 7 allows it; PHP's json_encode writes it so). */
  escapedSlashes?: boolean;
  /** Parameters sent in the query string of the request as well as its body. */
  query?: Array<[string, string]>;
  /** In a JSON request, the fields written as a list holding their value. */
  listed?: string[];
  /**
   * In a JSON request, fields written as a MongoDB query operator object instead of a string:
   * `$ne` matches every value but null, `$regex` the value itself (anchored, escaped); or as
   * `number-cast`, the number a SQL comparison casts the value's text to (numberCastOf), or as
   * `true`, the JSON boolean.
   */
  operators?: Record<string, '$ne' | '$regex' | 'number-cast' | 'true'>;
  /** In a JSON request, fields written in a value wrapper of specs/matrix/wrappers.ts, by its key. */
  inJson?: Record<string, string>;
  /** The body sent in chunks (Transfer-Encoding: chunked, RFC 9112 7.1) instead of with a Content-Length. */
  chunked?: boolean;
  /** In a form body, characters written as they are where the encoding would percent-escape them (";", a pair separator only to legacy parsers). */
  literal?: string[];
  /** The Content-Type sent instead of the encoding's own (null: none), the body encoded all the same. */
  contentType?: string | null;
  /** An access token sent along as Authorization: Bearer (no client authentication method of RFC 6749 2.3). */
  bearer?: string;
}

/** What a token request is made from: the role's client and the audience. */
export interface TokenRequestContext {
  clientId: string;
  clientSecret: string;
  audience: string;
  /** The client's display name on the tenant, where the target file states it: a name, not an id. */
  clientName?: string;
  /** Another client of the tenant (its id and secret), for the "another client's" variations. */
  otherClient?: { clientId: string; clientSecret: string };
  /** Another API of the tenant that the client holds no grant for, where the target names one. */
  ungrantedAudience?: string;
  /** The id of a client of the tenant that authenticates with a key (private_key_jwt) and has no secret, where the target names one. */
  keyOnlyClient?: string;
  /** An access token the tenant issued to this client, where the row asks for one (TokenVariant.clientToken). */
  clientToken?: string;
}

/** The number a SQL comparison of a text with a number casts the text to, as MySQL does: its leading decimal number, else 0. */
export function numberCastOf(text: string): number {
  const leading = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)/.exec(text);
  return leading ? Number(leading[0]) : 0;
}

/** The JWT bearer authorization grant's type (RFC 7523 2.1): a grant of its own, not client credentials. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export function validTokenRequest(context: TokenRequestContext): TokenRequestTemplate {
  return {
    method: 'POST',
    path: tokenPath.split('/').slice(1),
    fields: [
      ['grant_type', 'client_credentials'],
      ['client_id', context.clientId],
      ['client_secret', context.clientSecret],
      ['audience', context.audience],
    ],
    encoding: 'form',
  };
}
