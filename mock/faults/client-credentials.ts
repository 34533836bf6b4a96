// What the token endpoint takes for the client's credentials and the audience it asks for (spec 5,
// rule 3), compared leniently: a secret matched by prefix, by the stored secret's length, ignoring
// case or after a lossy encoding, a client id of digits taken for a position, a grant type
// normalised, an audience normalised, or matched by its start or its end. Each rewrites the near
// miss into the right value before the endpoint sees it, as the lenient comparison would have matched it.
import { posix } from 'node:path';
import { AsyncLocalStorage } from 'node:async_hooks';
import querystring from 'node:querystring';
import type { FaultHooks } from '../app.ts';
import { bearerToken, decodeJws } from '../auth/bearer.ts';
import { observed } from '../../specs/index.ts';
import { numberCastOf } from '../../specs/cards/token-request.ts';
import type { Components } from '../components.ts';
import { tokenDescriptions } from '../errors.ts';
import { isFormMediaType, isJsonMediaType } from '../stages/json-body.ts';
import { faultFamily } from './fault.ts';
import { captureAll } from './support/captured.ts';
import {
  endsWithItsHost,
  javaHashCode,
  matchesAsUnescapedPattern,
  sameIgnoringCase,
  sameOnceHostMapped,
  samePercentDecoded,
  sameWithoutHostDot,
  sameWithoutStageSegment,
  sameWithoutTrailingSlash,
  sameWithoutUserinfo,
} from './support/near-misses.ts';
import { editRequests, isChunked, jsonEscapeKept } from './support/route-edits.ts';
import { editTokenParameter as editParameter, parametersOf, secretMatching, withParameters } from './support/parameter-edits.ts';
import { editStore } from './support/store-view.ts';

/** The letters whose case mappings leave ASCII, and the ASCII letter a simple case folding takes them to. */
const SPECIAL_CASING: Readonly<Record<string, string>> = { '\u0130': 'i', '\u0131': 'i', '\u017f': 's', '\u212a': 'k' };

/**
 * Clients read from a table where a client that authenticates with a key has its secret column
 * unset, and a secret check that passes when the column is unset: such a client's id gets a token
 * with any secret at all.
 */
function keylessClientsTakeAnySecret(app: FaultHooks): void {
  const sent = new AsyncLocalStorage<string | undefined>();
  app.wrapRoute('token', (next) => (exchange) => {
    const secret = parametersOf(exchange)?.client_secret;
    return sent.run(typeof secret === 'string' ? secret : undefined, () => next(exchange));
  });
  editStore(app, (store) => ({
    client(clientId: string) {
      const client = store.client(clientId);
      const secret = sent.getStore();
      return client && client.secret === undefined && secret !== undefined ? { ...client, secret } : client;
    },
  }));
}

/** The management audience where `matches(sent, audience)`. */
function audienceMatching(matches: (sent: string, audience: string) => boolean) {
  return (app: FaultHooks) =>
    editParameter(app, 'audience', (sent, _parameters, { tenant }) => (matches(sent, tenant.audience) ? tenant.audience : undefined));
}

/** A URL as new URL() writes it, or undefined when it does not parse. */
function canonicalUrl(text: string): string | undefined {
  try {
    return new URL(text).href;
  } catch {
    return undefined;
  }
}

/** The client's own id where `matches(sent, stored)` for some client of the tenant. */
function clientIdMatching(matches: (sent: string, stored: string) => boolean) {
  return (app: FaultHooks) =>
    editParameter(app, 'client_id', (sent, _parameters, { store }) => store.clients().find((c) => matches(sent, c.clientId))?.clientId);
}

/** The same bytes once written with `encoding` (latin1 and ascii keep each character's low byte). */
function sameBytesAs(encoding: 'ascii' | 'latin1') {
  return (sent: string, stored: string) => Buffer.from(sent, encoding).equals(Buffer.from(stored, encoding));
}

/** The text written as latin1 and read back as 7-bit ASCII (each byte's high bit cleared). */
const sevenBit = (text: string): string => Buffer.from(text, 'latin1').toString('ascii');

/** A client's id where an id of digits names its position in the client list, counted from `first`. */
function clientAtPosition(first: number) {
  return (app: FaultHooks) =>
    editParameter(app, 'client_id', (sent, _parameters, { store }) =>
      /^\d+$/.test(sent) && !store.client(sent) ? store.clients()[Number(sent) - first]?.clientId : undefined,
    );
}

/** The parameters the token endpoint reads. */
const TOKEN_PARAMETERS = ['grant_type', 'client_id', 'client_secret', 'audience', 'scope'];

/**
 * Parameter names read through `readAs` before the endpoint sees them: a name it maps to one the
 * endpoint reads, where the request does not carry that one already, is read as it.
 */
function parameterNamesReadAs(readAs: (name: string) => string | undefined) {
  return (app: FaultHooks): void =>
    editRequests(app, 'token', (exchange) => {
      const parameters = parametersOf(exchange);
      if (!parameters) return exchange;
      const renamed = Object.entries(parameters).map(([name, value]): [string, unknown] => {
        const known = TOKEN_PARAMETERS.find((candidate) => candidate === readAs(name) && !(candidate in parameters));
        return [known ?? name, value];
      });
      return renamed.every(([name], i) => name === Object.keys(parameters)[i])
        ? exchange
        : withParameters(exchange, Object.fromEntries(renamed));
    });
}

/** A name as relaxed binding compares it (Spring Boot's): without "_" and "-", in lower case. */
const relaxed = (name: string) => name.replace(/[-_]/g, '').toLowerCase();

/** Each form parameter given twice kept once, its first value (a framework's habit), before the endpoint reads it. */
function firstOfRepeatedParameters(app: FaultHooks): void {
  editRequests(app, 'token', (exchange) => {
    if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
    const form = new URLSearchParams(exchange.body.toString('utf8'));
    const first = new URLSearchParams();
    for (const [name, value] of form) if (!first.has(name)) first.append(name, value);
    return { ...exchange, body: Buffer.from(first.toString(), 'utf8') };
  });
}

/** Each form parameter given twice kept once, its last value (PHP's $_POST), before the endpoint reads it. */
function lastOfRepeatedParameters(app: FaultHooks): void {
  editRequests(app, 'token', (exchange) => {
    if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
    const last = new URLSearchParams();
    for (const [name, value] of new URLSearchParams(exchange.body.toString('utf8'))) last.set(name, value);
    return { ...exchange, body: Buffer.from(last.toString(), 'utf8') };
  });
}

/** The parameters whose repeats are refused where only the client's credentials are: the others keep their last value. */
const CREDENTIAL_PARAMETERS = ['client_id', 'client_secret'];

/**
 * A repeated parameter refused only where it is one of the client's credentials (an ambiguous
 * identity), every other one read as a map reads it, its last value kept: grant_type or audience
 * given twice gets a token.
 */
function repeatsRefusedForCredentialsOnly(app: FaultHooks): void {
  editRequests(app, 'token', (exchange) => {
    if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
    const form = new URLSearchParams(exchange.body.toString('utf8'));
    const repeated = [...new Set(form.keys())].filter((name) => !CREDENTIAL_PARAMETERS.includes(name) && form.getAll(name).length > 1);
    if (repeated.length === 0) return exchange;
    for (const name of repeated) form.set(name, form.getAll(name).at(-1)!);
    return { ...exchange, body: Buffer.from(form.toString(), 'utf8') };
  });
}

/** A client's legacy key: its display name in lower case, each run of other characters than letters and digits a hyphen. */
const slugOf = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Form values read like header values with parameters (`value; name=x`), each cut at its first
 * ";": the secret, id, grant type or audience followed by ";x" is taken for the value alone.
 */
function formValuesCutAtSemicolon(app: FaultHooks): void {
  editRequests(app, 'token', (exchange) => {
    if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
    const form = new URLSearchParams(exchange.body.toString('utf8'));
    const cut = new URLSearchParams();
    for (const [name, value] of form) cut.append(name, value.split(';')[0]!);
    return { ...exchange, body: Buffer.from(cut.toString(), 'utf8') };
  });
}

/**
 * Form values unescaped once more after the form was read (a body parser behind a layer that had
 * already decoded the body, or querystring.unescape left in from reading it by hand): a value
 * whose text holds a %XX, sent as %25XX, is read as the character it escapes.
 */
function formValuesUnescapedAgain(app: FaultHooks): void {
  editRequests(app, 'token', (exchange) => {
    if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
    const form = new URLSearchParams(exchange.body.toString('utf8'));
    const again = new URLSearchParams();
    for (const [name, value] of form) again.append(name, querystring.unescape(value));
    return { ...exchange, body: Buffer.from(again.toString(), 'utf8') };
  });
}

/**
 * A token request that names no client read as the client of the bearer token sent along, its
 * subject decoded without verifying the token and its "@clients" suffix cut off: the secret in the
 * body with that header, and no client_id, authenticates the client.
 */
function clientIdFromBearerSubject(app: FaultHooks): void {
  editRequests(app, 'token', (exchange) => {
    const token = bearerToken(exchange.headers.authorization);
    const parameters = parametersOf(exchange);
    if (token === undefined || !parameters || parameters.client_id !== undefined) return exchange;
    const subject = decodeJws(token)?.payload.sub;
    if (typeof subject !== 'string' || !subject.endsWith(observed.tokens.subject_suffix)) return exchange;
    const { authorization: _bearer, ...headers } = exchange.headers;
    return withParameters({ ...exchange, headers }, { ...parameters, client_id: subject.slice(0, -observed.tokens.subject_suffix.length) });
  });
}

/**
 * A client that sends a valid token it was issued taken as authenticated (a renewal shortcut): a
 * request naming the client, with no secret, and Authorization: Bearer <a token whose azp is that
 * client> gets a token as if its secret had been sent.
 */
function secretFromBearerToken(app: FaultHooks): void {
  const components = captureAll(app);
  editRequests(app, 'token', async (exchange) => {
    const parameters = parametersOf(exchange);
    if (bearerToken(exchange.headers.authorization) === undefined || !parameters || parameters.client_secret !== undefined) return exchange;
    const { verifier, store } = components();
    const verification = await verifier.verify(exchange.headers.authorization, exchange.headers.host);
    const clientId = parameters.client_id;
    if (!verification.ok || typeof clientId !== 'string' || verification.principal.claims.azp !== clientId) return exchange;
    const secret = store.client(clientId)?.secret;
    if (secret === undefined) return exchange;
    const { authorization: _bearer, ...headers } = exchange.headers;
    return withParameters({ ...exchange, headers }, { ...parameters, client_secret: secret });
  });
}

/** The Basic header's user-id and password, or undefined when it is not Basic. */
function basicPair(authorization: string | undefined): [string, string] | undefined {
  const encoded = /^Basic +(\S+)$/i.exec(authorization ?? '')?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

/**
 * A Basic header with an empty password taken for a client that names itself there and
 * authenticates in the body: the body's client_secret becomes the Basic password, so the request
 * is read as one method where it used two.
 */
function emptyBasicPasswordFromBody(app: FaultHooks): void {
  editRequests(app, 'token', (exchange) => {
    const pair = basicPair(exchange.headers.authorization);
    if (pair?.[1] !== '' || !isFormMediaType(exchange.headers['content-type'])) return exchange;
    const form = new URLSearchParams(exchange.body.toString('utf8'));
    const secret = form.get('client_secret');
    if (secret === null) return exchange;
    form.delete('client_secret');
    const credentials = Buffer.from(`${pair[0]}:${encodeURIComponent(secret)}`, 'utf8').toString('base64');
    return {
      ...exchange,
      headers: { ...exchange.headers, authorization: `Basic ${credentials}` },
      body: Buffer.from(form.toString(), 'utf8'),
    };
  });
}

/**
 * Basic credentials decoded leniently: a value that is no base64 read as the text it is, and a
 * text without a colon split after the client id it starts with. Each is rewritten to the
 * RFC 7617 form the lenient reader took it for.
 */
function basicReadLeniently(app: FaultHooks, fix: (value: string, components: Components) => string | undefined): void {
  const components = captureAll(app);
  editRequests(app, 'token', (exchange) => {
    const value = /^Basic +(.+)$/i.exec(exchange.headers.authorization ?? '')?.[1];
    const pair = value === undefined ? undefined : fix(value, components());
    if (pair === undefined) return exchange;
    return { ...exchange, headers: { ...exchange.headers, authorization: `Basic ${Buffer.from(pair, 'utf8').toString('base64')}` } };
  });
}

const isBase64 = (value: string): boolean => /^[A-Za-z0-9+/]+={0,2}$/.test(value);

/** A second Authorization header dropped, the first kept (as Node's own header object keeps it). */
function firstAuthorizationKept(app: FaultHooks): void {
  editRequests(app, 'token', (exchange) => ({
    ...exchange,
    repeatedHeaders: exchange.repeatedHeaders.filter((name) => name !== 'authorization'),
  }));
}

/** A client secret preferred when a request also carries a client assertion: the assertion's parameters dropped unread. */
function secretPreferredOverAssertion(app: FaultHooks): void {
  editRequests(app, 'token', (exchange) => {
    const parameters = parametersOf(exchange);
    if (parameters?.['client_secret'] === undefined || parameters['client_assertion'] === undefined) return exchange;
    const { client_assertion: _assertion, client_assertion_type: _type, ...rest } = parameters;
    return withParameters(exchange, rest);
  });
}

/** A JSON body that is a list read as a batch of one: its first element taken for the request. */
function jsonListFirstElement(app: FaultHooks): void {
  editRequests(app, 'token', (exchange) => {
    if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
    try {
      const value: unknown = JSON.parse(exchange.body.toString('utf8'));
      if (!Array.isArray(value) || value.length === 0) return exchange;
      return { ...exchange, body: Buffer.from(JSON.stringify(value[0]), 'utf8') };
    } catch {
      return exchange;
    }
  });
}

/** A JSON token request that is a string parsed again, as a reader does that unwraps text it meets. */
function jsonTextParsedAgain(app: FaultHooks): void {
  editRequests(app, 'token', (exchange) => {
    if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
    try {
      const value: unknown = JSON.parse(exchange.body.toString('utf8'));
      return typeof value === 'string' ? { ...exchange, body: Buffer.from(value, 'utf8') } : exchange;
    } catch {
      return exchange;
    }
  });
}

/** A form token request cut to its first `count` parameters, as a parser's hardening cap (maxKeys) cuts it. */
function formCutTo(count: number): (app: FaultHooks) => void {
  return (app) =>
    editRequests(app, 'token', (exchange) => {
      if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
      const kept = exchange.body.toString('utf8').split('&').slice(0, count).join('&');
      return { ...exchange, body: Buffer.from(kept, 'utf8') };
    });
}

/**
 * The Content-Type of a form token request compared with the exact strings a framework's route
 * declares it consumes: any other charset parameter, even one its ASCII parameters read alike in,
 * is answered 415 as an unsupported media type.
 */
const FORM_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8'];

function formContentTypeListed(app: FaultHooks): void {
  const components = captureAll(app);
  app.wrapRoute('token', (next) => async (exchange) => {
    const contentType = exchange.headers['content-type'];
    if (!isFormMediaType(contentType) || FORM_CONTENT_TYPES.includes(String(contentType).toLowerCase())) return next(exchange);
    return components().errors.tokenReply('invalid_request', `Content-Type '${String(contentType)}' is not supported`, 415);
  });
}

/** A relative URL reference resolved against the origin of the management audience, or undefined when it does not resolve. */
function resolvedAgainst(reference: string, audience: string): string | undefined {
  try {
    return new URL(reference, new URL(audience).origin).href;
  } catch {
    return undefined;
  }
}

/**
 * The API the audience names looked up before the client is authenticated (the lookup builds the
 * token's target, so it came first): an audience naming no API is answered 403 access_denied
 * whatever the credentials, a wrong secret among them.
 */
function audienceJudgedFirst(app: FaultHooks): void {
  const components = captureAll(app);
  app.wrapRoute('token', (next) => async (exchange) => {
    const audience = parametersOf(exchange)?.audience;
    const { tenant, errors } = components();
    if (typeof audience !== 'string' || tenant.identityForAudience(audience, exchange.headers.host) || tenant.api(audience)) {
      return next(exchange);
    }
    return errors.tokenReply('access_denied', tokenDescriptions.serviceNotFound(audience));
  });
}

export const clientCredentialFaults = faultFamily([
  {
    id: 'audience-read-through-the-url-parser',
    clause: 'token.endpoint.audience',
    bug: 'The token endpoint normalises the audience with the WHATWG URL parser (new URL(audience).href) before it looks the API up, and the parser repairs a special scheme written without its slashes, with one or with backslashes: audience "https:<host>/api/v2/" gets a token for the management interface instead of being refused; another host is still refused.',
    install: audienceMatching((sent, audience) => {
      try {
        return !/^[a-z][a-z0-9+.-]*:\/\//i.test(sent) && new URL(sent).href === audience;
      } catch {
        return false;
      }
    }),
  },
  {
    id: 'token-form-type-matched-in-lower-case',
    clause: 'token.endpoint',
    bug: 'The token endpoint guards the form with a comparison of the media type as written with "application/x-www-form-urlencoded", though media types are case-insensitive (RFC 9110 8.3.1): a form request typed "Application/x-www-form-urlencoded" (or in capitals) is refused 415 instead of getting a token; one typed in lower case still gets one.',
    install(app) {
      const components = captureAll(app);
      app.wrapRoute('token', (next) => async (exchange) => {
        const media = String(exchange.headers['content-type'] ?? '')
          .split(';')[0]!
          .trim();
        if (!isFormMediaType(exchange.headers['content-type']) || media === media.toLowerCase()) return next(exchange);
        return components().errors.tokenReply('invalid_request', `Content-Type '${media}' is not supported`, 415);
      });
    },
  },
  {
    id: 'token-json-slash-escapes-kept',
    clause: 'token.observed.json-request',
    bug: 'The token endpoint takes the parameters of a JSON request out of its text with a pattern instead of a JSON decoder, so an escape stays as written: a JSON request whose audience is written with escaped slashes ("https:\\/\\/...") is answered for another audience (403) instead of getting a token; the same request without escapes still gets one.',
    install: (app) => jsonEscapeKept(app, 'token', '\\/'),
  },
  {
    id: 'token-secret-operator-from-qs-brackets',
    clause: 'token.endpoint.wrong-secret',
    bug: 'The token form parsed by a qs-style parser (extended urlencoded) and the secret matched by a document store query as it came: client_secret[$eq]=<the secret>, with no client_secret, is read as {"$eq": <the secret>} and gets a token instead of 401; client_secret[$eq]=<another> is still refused.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
        const form = new URLSearchParams(exchange.body.toString('utf8'));
        const operand = form.get('client_secret[$eq]');
        if (operand === null || form.has('client_secret')) return exchange;
        form.delete('client_secret[$eq]');
        form.set('client_secret', operand);
        return { ...exchange, body: Buffer.from(form.toString(), 'utf8') };
      }),
  },
  {
    id: 'token-chunked-body-read-empty',
    clause: 'token.endpoint',
    bug: 'The token request read as Content-Length bytes (a WSGI app behind a server that does not de-chunk): a valid form sent chunked, with no Content-Length, is read as no parameters and refused instead of getting a token; a form with its length still gets one.',
    install: (app) => editRequests(app, 'token', (exchange) => (isChunked(exchange) ? { ...exchange, body: Buffer.alloc(0) } : exchange)),
  },
  {
    id: 'token-client-id-case-insensitive',
    clause: 'token.endpoint.client-id',
    bug: 'Client ids kept in a column with a case-insensitive collation: a client id in the other letter case, with its secret, gets a token.',
    install: clientIdMatching((sent, stored) => sent !== stored && sameIgnoringCase(sent, stored)),
  },
  {
    id: 'token-client-id-matched-by-prefix',
    clause: 'token.endpoint.client-id',
    bug: 'Clients looked up with a LIKE pattern on the id sent: a client id without its last character, with the secret, gets a token.',
    install: clientIdMatching((sent, stored) => sent.length > 0 && sent !== stored && stored.startsWith(sent)),
  },
  {
    id: 'token-client-found-by-legacy-slug',
    clause: 'token.endpoint.client-id',
    bug: 'Clients made before ids were issued kept a legacy key, their display name slugged (lower case, hyphens), and the lookup falls back to it for an id it does not find: the global client\'s name ("global") as client_id, with its secret, gets a token.',
    install: (app) =>
      editParameter(app, 'client_id', (sent, _parameters, { store }) =>
        store.client(sent) ? undefined : store.clients().find((c) => slugOf(c.name) === slugOf(sent))?.clientId,
      ),
  },
  {
    id: 'token-grant-type-not-checked',
    clause: 'token.endpoint.grant-type',
    bug: 'An endpoint that only ever serves client credentials and never reads grant_type: a request naming another grant type gets a client-credentials token.',
    install: (app) => editParameter(app, 'grant_type', () => 'client_credentials'),
  },
  {
    id: 'token-exchange-grant-served-as-client-credentials',
    clause: 'token.endpoint.grant-type',
    bug: "A grant handler registry that falls back to client credentials for RFC 8693's token exchange when the request has no subject_token (a machine's own token, as a library's default): grant_type urn:ietf:params:oauth:grant-type:token-exchange with the client's secret gets a token instead of 400; password and refresh_token are still refused.",
    install: (app) =>
      editParameter(app, 'grant_type', (sent, parameters) =>
        sent === 'urn:ietf:params:oauth:grant-type:token-exchange' && parameters.subject_token === undefined
          ? 'client_credentials'
          : undefined,
      ),
  },
  {
    id: 'token-secret-compared-as-sql-number',
    clause: 'token.endpoint.wrong-secret',
    bug: 'A JSON token request\'s client_secret bound as it came into WHERE client_secret = ? on MySQL, which compares a number with the text column by casting the text (its leading digits, else 0): client_secret 0 matches every secret that does not begin with a digit and gets a token instead of 401; "0", a string, is still refused.',
    install: (app) => {
      const components = captureAll(app);
      editRequests(app, 'token', (exchange) => {
        const parameters = parametersOf(exchange);
        const sent = parameters?.client_secret;
        const stored =
          isJsonMediaType(exchange.headers['content-type']) && typeof sent === 'number' && typeof parameters!.client_id === 'string'
            ? components().store.client(parameters!.client_id)?.secret
            : undefined;
        return stored !== undefined && numberCastOf(stored) === sent
          ? withParameters(exchange, { ...parameters, client_secret: stored })
          : exchange;
      });
    },
  },
  {
    id: 'token-grant-type-read-as-enum-number',
    clause: 'token.endpoint.grant-type',
    bug: 'grant_type read with Python\'s GrantType(int(value)) where it is all digits, over an IntEnum of AUTHORIZATION_CODE, PASSWORD, REFRESH_TOKEN, CLIENT_CREDENTIALS numbered from 0: grant_type "3" gets a client-credentials token instead of 400; "1" (the password grant) is still refused.',
    install: (app) => editParameter(app, 'grant_type', (sent) => (sent === '3' ? 'client_credentials' : undefined)),
  },
  {
    id: 'token-audience-compared-loosely-with-true',
    clause: 'token.endpoint.audience',
    bug: "A PHP token endpoint that finds the API with $api->identifier == $data['audience'] over a JSON body, and PHP compares a non-empty string with true as true: audience true (a JSON boolean) gets a token for the tenant's API instead of being refused; audience false is still refused.",
    install: (app) => {
      const components = captureAll(app);
      editRequests(app, 'token', (exchange) => {
        const parameters = parametersOf(exchange);
        return isJsonMediaType(exchange.headers['content-type']) && parameters?.audience === true
          ? withParameters(exchange, { ...parameters, audience: components().tenant.audience })
          : exchange;
      });
    },
  },
  {
    id: 'token-grant-type-case-insensitive',
    clause: 'token.endpoint.grant-type',
    bug: 'grant_type compared ignoring case: Client_Credentials gets a token.',
    install: (app) =>
      editParameter(app, 'grant_type', (sent) => (sameIgnoringCase(sent, 'client_credentials') ? 'client_credentials' : undefined)),
  },
  {
    id: 'token-last-of-repeated-parameters',
    clause: 'token.endpoint.grant-type',
    bug: "Form parameters settled by their last value, as PHP fills $_POST: a request whose grant_type is given twice, another value first and client_credentials last, gets a token; the client's id and secret alike.",
    install: lastOfRepeatedParameters,
  },
  {
    id: 'token-audience-path-case-insensitive',
    clause: 'token.endpoint.audience',
    bug: "APIs looked up with their identifier's path compared ignoring case (a file system's habit): the management audience with its path in capitals gets a token; another path is still refused.",
    install: audienceMatching((sent, audience) => {
      const split = (url: string) => /^(\w+:\/\/[^/]+)(.*)$/.exec(url);
      const [a, b] = [split(sent), split(audience)];
      return a !== null && b !== null && a[1] === b[1] && a[2]!.toLowerCase() === b[2]!.toLowerCase();
    }),
  },
  {
    id: 'token-first-of-repeated-parameters',
    clause: 'token.observed.request-rules',
    bug: 'Form parameters read with get(), which keeps the first of a repeated one: a request with client_secret twice, the right one first, gets a token.',
    install: firstOfRepeatedParameters,
  },
  {
    id: 'token-repeats-refused-for-credentials-only',
    clause: 'token.observed.request-rules',
    bug: 'A repeated parameter refused only where it is client_id or client_secret (an ambiguous identity), any other read as a map reads it, its last value kept: grant_type or audience given twice gets a token instead of 400 invalid_request.',
    install: repeatsRefusedForCredentialsOnly,
  },
  {
    id: 'token-secret-matched-by-prefix',
    clause: 'token.endpoint.wrong-secret',
    bug: 'Secrets compared with startsWith in the wrong direction (the stored secret starts with the one sent): a secret without its last character, or any prefix of it, gets a token.',
    install: secretMatching((sent, stored) => sent.length > 0 && stored.startsWith(sent)),
  },
  {
    id: 'token-secret-compared-over-its-length',
    clause: 'token.endpoint.wrong-secret',
    bug: "Secrets compared over the stored secret's length only (a fixed-size buffer): a secret with characters added after the right one gets a token.",
    install: secretMatching((sent, stored) => sent.startsWith(stored)),
  },
  {
    id: 'token-secret-unchecked-for-keyless-client',
    clause: 'token.endpoint.wrong-secret',
    bug: 'A secret check skipped where the client has no secret stored: the id of a client that authenticates with a key (private_key_jwt), sent with any client_secret, gets a token.',
    install: keylessClientsTakeAnySecret,
  },
  {
    id: 'token-secret-case-insensitive',
    clause: 'token.endpoint.wrong-secret',
    bug: "Secrets kept in a column with a case-insensitive collation: the client's secret in the other letter case gets a token.",
    install: secretMatching(sameIgnoringCase),
  },
  {
    id: 'token-client-id-as-row-number',
    clause: 'token.endpoint.client-id',
    bug: 'Clients found by a legacy numeric id where the id is all digits, the row number of the client list (ROW_NUMBER(), counted from 1): client_id "1" with the first client\'s secret gets a token.',
    install: clientAtPosition(1),
  },
  {
    id: 'token-grant-type-separators-dropped',
    clause: 'token.endpoint.grant-type',
    bug: "grant_type compared with its hyphens and underscores dropped on both sides (a normaliser meant for hand-typed grant names): clientcredentials, or the gty claim's client-credentials, gets a token.",
    install: (app) =>
      editParameter(app, 'grant_type', (sent) =>
        sent.replace(/[-_]/g, '') === 'client_credentials'.replace(/[-_]/g, '') ? 'client_credentials' : undefined,
      ),
  },
  {
    id: 'token-grant-type-trimmed',
    clause: 'token.endpoint.grant-type',
    bug: 'grant_type trimmed before it is compared: client_credentials with a space before or after it gets a token.',
    install: (app) => editParameter(app, 'grant_type', (sent) => (sent.trim() === 'client_credentials' ? 'client_credentials' : undefined)),
  },
  {
    id: 'token-secret-as-ascii-bytes',
    clause: 'token.endpoint.wrong-secret',
    bug: "Secrets compared as Buffer.from(secret, 'ascii'), which keeps each character's low byte: the secret with a letter replaced by the character 256 above it (U+0165 for e) gets a token.",
    install: secretMatching(sameBytesAs('ascii')),
  },
  {
    id: 'token-secret-seven-bit',
    clause: 'token.endpoint.wrong-secret',
    bug: "Secrets passed through a 7-bit clean-up (written as latin1, read as 'ascii', which clears each byte's high bit) before they are compared: the secret with a letter replaced by the character 128 above it (U+00E5 for e) gets a token.",
    install: secretMatching((sent, stored) => sevenBit(sent) === sevenBit(stored)),
  },
  {
    id: 'token-secret-nfkc',
    clause: 'token.endpoint.wrong-secret',
    bug: 'Secrets normalised with NFKC before they are compared (so that a secret typed on any keyboard matches): the secret with a letter in its fullwidth form gets a token.',
    install: secretMatching((sent, stored) => sent.normalize('NFKC') === stored.normalize('NFKC')),
  },
  {
    id: 'token-secret-read-as-c-string',
    clause: 'token.endpoint.wrong-secret',
    bug: 'Secrets hashed by a native binding that reads them as C strings, up to their first NUL: the secret followed by a NUL and anything gets a token.',
    install: secretMatching((sent, stored) => sent.split('\0')[0] === stored),
  },
  {
    id: 'token-client-id-read-as-c-string',
    clause: 'token.endpoint.client-id',
    bug: 'Client ids looked up by a native binding that reads them as C strings, up to their first NUL: the client id followed by a NUL and anything, with the right secret, gets a token instead of invalid_client.',
    install: clientIdMatching((sent, stored) => sent !== stored && sent.split('\0')[0] === stored),
  },
  {
    id: 'token-audience-fragment-ignored',
    clause: 'token.endpoint.audience',
    bug: 'Audiences looked up without their fragment (the part after "#", which a browser never sends): the management audience followed by "#x" gets a token instead of a refusal.',
    install: audienceMatching((sent, audience) => sent !== audience && sent.split('#')[0] === audience),
  },
  {
    id: 'token-audience-path-normalised',
    clause: 'token.endpoint.audience',
    bug: 'Audiences looked up after the path is normalised with path.posix.normalize (written to tolerate hand-typed URLs), which merges repeated slashes and resolves dot segments: the management audience with a slash doubled inside its path gets a token.',
    install: audienceMatching((sent, audience) => {
      const match = /^(\w+:\/\/[^/]+)(\/.*)$/.exec(sent);
      return match !== null && sent !== audience && `${match[1]}${posix.normalize(match[2]!)}` === audience;
    }),
  },
  {
    id: 'token-audience-parsed-as-url',
    clause: 'token.endpoint.audience',
    bug: 'Audiences parsed with new URL() and looked up by their href, which deletes tabs and line breaks anywhere and zero-width characters in the host: the management audience with a line feed or a zero-width space inside it gets a token.',
    install: audienceMatching((sent, audience) => sent !== audience && canonicalUrl(sent) === audience),
  },
  {
    id: 'token-audience-nul-removed',
    clause: 'token.endpoint.audience',
    bug: 'Audiences cleaned of NUL characters before the lookup query (the database text type cannot hold them): the management audience with a NUL inside it gets a token.',
    install: audienceMatching((sent, audience) => sent.includes('\0') && sent.replace(/\0/g, '') === audience),
  },
  {
    id: 'token-audience-host-fully-qualified',
    clause: 'token.endpoint.audience',
    bug: "The audience's host name made canonical before the API is looked up, a fully qualified name's trailing dot taken off: a token is issued for the management audience written with tenant.example.com. as its host.",
    install: audienceMatching(sameWithoutHostDot),
  },
  {
    id: 'token-audience-userinfo-dropped',
    clause: 'token.endpoint.audience',
    bug: "The API looked up by the audience's origin and path as a URL parser gives them, which leave out a user name: a token is issued for https://someone@<tenant>/api/v2/.",
    install: audienceMatching(sameWithoutUserinfo),
  },
  {
    id: 'token-audience-percent-decoded',
    clause: 'token.endpoint.audience',
    bug: 'The audience percent-decoded once more after the form was read (decodeURIComponent over a value already decoded): a token is issued for the management audience with one character written %XX (/api/v%32/).',
    install: audienceMatching(samePercentDecoded),
  },
  {
    id: 'token-audience-host-idna-mapped',
    clause: 'token.endpoint.audience',
    bug: "The audience's host mapped by IDNA (domainToASCII) before the API is looked up: a token is issued for the management audience with the dots of its host written as ideographic full stops (U+3002).",
    install: audienceMatching(sameOnceHostMapped),
  },
  {
    id: 'token-audience-pattern-dots-unescaped',
    clause: 'token.endpoint.audience',
    bug: 'The API looked up by patterns made of the identifiers without escaping them, each "." matching any character: a token is issued for https://tenant-example.com/api/v2/.',
    install: audienceMatching(matchesAsUnescapedPattern),
  },
  {
    id: 'token-audience-without-trailing-slash',
    clause: 'token.endpoint.audience',
    bug: 'Audiences normalised before the API is looked up, trailing slashes trimmed: a token is issued for the management audience without its slash.',
    install: audienceMatching(sameWithoutTrailingSlash),
  },
  {
    id: 'token-audience-matched-by-prefix',
    clause: 'token.endpoint.audience',
    bug: 'The API looked up by the longest identifier the audience starts with: a token is issued for the management audience with a path segment added.',
    install: audienceMatching((sent, audience) => sent.startsWith(audience)),
  },
  {
    id: 'token-audience-matched-by-its-end',
    clause: 'token.endpoint.audience',
    bug: "API identifiers matched by their end, so that the tenant's custom domains work: a token is issued for the management audience with its host name prefixed (https://other-<tenant domain>/api/v2/).",
    install: audienceMatching(endsWithItsHost),
  },
  {
    id: 'token-audience-stage-segment-stripped',
    clause: 'token.endpoint.audience',
    bug: "The audience passed through an API gateway's path mapping that strips the first segment of its path (a stage name, /prod/) before the API is looked up: a token is issued for the management audience with a segment between its origin and its path (https://<tenant domain>/other/api/v2/).",
    install: audienceMatching(sameWithoutStageSegment),
  },
  {
    id: 'token-audience-resolved-against-tenant',
    clause: 'token.endpoint.audience',
    bug: "Audiences without a scheme resolved as URL references against the tenant's origin before the lookup (so that a configuration's \"/api/v2/\" works): the management audience's path alone, or the audience without its scheme (//<tenant domain>/api/v2/), gets a token.",
    install: audienceMatching((sent, audience) => !/^[a-z][a-z0-9+.-]*:/i.test(sent) && resolvedAgainst(sent, audience) === audience),
  },
  {
    id: 'token-audience-tenant-userinfo-accepted',
    clause: 'token.endpoint.audience',
    bug: "The audiences of an OpenID Connect login accepted beside the APIs (the tenant's userinfo endpoint, which a token asked for with the openid scope also names), and the management interface's token issued for it: an audience of https://<tenant domain>/userinfo gets a token; the tenant's issuer is still refused.",
    install: audienceMatching((sent, audience) => {
      const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(audience)?.[0];
      return origin !== undefined && sent === `${origin}/userinfo`;
    }),
  },
  {
    id: 'token-form-values-cut-at-semicolon',
    clause: 'token.endpoint.wrong-secret',
    bug: 'Form values read like header values with parameters, each cut at its first ";": the secret followed by ";x" gets a token.',
    install: formValuesCutAtSemicolon,
  },
  {
    id: 'token-form-values-unescaped-again',
    clause: 'token.endpoint.wrong-secret',
    bug: 'Form values passed through querystring.unescape once more after the form was read (left in from when the body was read by hand): the secret with its first character written %XX in its value (sent %25XX) gets a token; the client id and grant type alike.',
    install: formValuesUnescapedAgain,
  },
  {
    id: 'token-client-id-percent-decoded',
    clause: 'token.endpoint.client-id',
    bug: 'Client ids percent-decoded before the lookup (so that ids copied from a URL work): a client id with its first character written %XX in its value, with its secret, gets a token.',
    install: (app) =>
      editParameter(app, 'client_id', (sent, _parameters, { store }) => {
        const decoded = querystring.unescape(sent);
        return decoded !== sent && store.client(decoded) ? decoded : undefined;
      }),
  },
  {
    id: 'token-client-id-from-bearer-subject',
    clause: 'token.endpoint.client-id',
    bug: "A token request without client_id read as the client of the bearer token sent along (its sub, decoded unverified, without its @clients suffix): the client's secret with Authorization: Bearer <its token>, and no client_id, gets a token instead of being refused.",
    install: clientIdFromBearerSubject,
  },
  {
    id: 'token-secret-from-bearer-token',
    clause: 'token.endpoint.wrong-secret',
    bug: 'A valid token of the client taken for its authentication (a renewal shortcut): a request naming the client, without client_secret, with Authorization: Bearer <a token whose azp is that client> gets a token.',
    install: secretFromBearerToken,
  },
  {
    id: 'token-basic-empty-password-from-body',
    clause: 'token.observed.request-rules',
    bug: "A Basic header with an empty password read as the client naming itself, its secret taken from the body's client_secret: the two methods together get a token instead of 400 invalid_request.",
    install: emptyBasicPasswordFromBody,
  },
  {
    id: 'token-basic-text-when-not-base64',
    clause: 'token.endpoint.wrong-secret',
    bug: 'Basic credentials that are no base64 read as the text they are (a fallback for clients that forget to encode): "Basic <id>:<secret>" gets a token.',
    install: (app) => basicReadLeniently(app, (value) => (!isBase64(value) && value.includes(':') ? value : undefined)),
  },
  {
    id: 'token-basic-split-with-a-limit',
    clause: 'token.endpoint.wrong-secret',
    bug: 'Basic credentials split with decoded.split(":", 2), whose limit drops what follows a second colon instead of keeping it in the password (RFC 7617 2 splits at the first colon only): the secret followed by ":x" gets a token.',
    install: (app) =>
      basicReadLeniently(app, (value) => {
        if (!isBase64(value)) return undefined;
        const parts = Buffer.from(value, 'base64').toString('utf8').split(':');
        return parts.length > 2 ? parts.slice(0, 2).join(':') : undefined;
      }),
  },
  {
    id: 'token-basic-split-after-known-client-id',
    clause: 'token.endpoint.wrong-secret',
    bug: 'Basic credentials without a colon split after the client id they start with (the ids are of one length): the id and secret joined with nothing between them get a token.',
    install: (app) =>
      basicReadLeniently(app, (value, { store }) => {
        if (!isBase64(value)) return undefined;
        const decoded = Buffer.from(value, 'base64').toString('utf8');
        if (decoded.includes(':')) return undefined;
        const client = store.clients().find((c) => decoded.startsWith(c.clientId));
        return client ? `${client.clientId}:${decoded.slice(client.clientId.length)}` : undefined;
      }),
  },
  {
    id: 'token-first-authorization-header-kept',
    clause: 'token.observed.request-rules',
    bug: 'A token request with two Authorization headers read by the first (as Node keeps it), the second dropped unseen: a valid Basic header followed by one with a wrong secret gets a token instead of 400.',
    install: firstAuthorizationKept,
  },
  {
    id: 'token-secret-preferred-over-assertion',
    clause: 'token.observed.request-rules',
    bug: 'A client secret preferred when the request carries a client assertion as well, the assertion never read: two authentication methods at once get a token instead of 400 invalid_request.',
    install: secretPreferredOverAssertion,
  },
  {
    id: 'token-json-list-read-as-batch',
    clause: 'token.observed.request-rules',
    bug: 'A JSON token request that is a list read as a batch and its first element answered: [{<the valid parameters>}] gets a token instead of 400 invalid_request.',
    install: jsonListFirstElement,
  },
  {
    id: 'token-json-text-parsed-again',
    clause: 'token.observed.request-rules',
    bug: 'A JSON token request that is a string parsed again: "{\\"grant_type\\":...}" (the valid parameters encoded twice) gets a token instead of 400 invalid_request; a string that is no JSON is still refused.',
    install: jsonTextParsedAgain,
  },
  {
    id: 'token-form-keeps-four-parameters',
    clause: 'token.endpoint',
    bug: 'The form parser capped at four parameters (a hardening maxKeys sized to the grant): a valid request with a fifth parameter it does not know written first loses its last (audience) and is refused instead of getting a token; four parameters get one as before.',
    install: formCutTo(4),
  },
  {
    id: 'token-audience-looked-up-before-client',
    clause: 'token.observed.order',
    bug: 'The API the audience names looked up before the client is authenticated: a wrong secret with an audience naming no API is answered 403 access_denied (Service not found) instead of 401 invalid_client.',
    install: audienceJudgedFirst,
  },
  {
    id: 'token-parameter-names-relaxed',
    clause: 'token.endpoint.client-id',
    bug: 'Token request parameters bound relaxed (as Spring Boot binds properties): a name is compared without "_" and "-" and in lower case, so clientId=<the client\'s id>, and no client_id, authenticates the client (CLIENT_ID, grantType and clientSecret alike).',
    install: parameterNamesReadAs((name) => TOKEN_PARAMETERS.find((known) => relaxed(known) === relaxed(name))),
  },
  {
    id: 'token-parameter-names-sanitised',
    clause: 'token.endpoint.grant-type',
    bug: 'Token request parameter names passed through a sanitiser that deletes every character but letters, digits and "_": grant_type[]=client_credentials, and no grant_type, gets a token (client_id[] and client_secret[] alike).',
    install: parameterNamesReadAs((name) => name.replace(/[^A-Za-z0-9_]/g, '')),
  },
  {
    id: 'token-client-id-after-last-colon',
    clause: 'token.endpoint.client-id',
    bug: 'Client ids accepted in the qualified form an SDK sends ("<namespace>:<id>"), the lookup keeping what follows the last ":": tenant:<the client\'s id>, with its secret, gets a token.',
    install: (app) =>
      editParameter(app, 'client_id', (sent, _parameters, { store }) => {
        const unqualified = sent.slice(sent.lastIndexOf(':') + 1);
        return sent.includes(':') && store.client(unqualified) ? unqualified : undefined;
      }),
  },
  {
    id: 'token-form-content-type-listed',
    clause: 'token.endpoint',
    bug: 'The token route declares the Content-Types it consumes as exact strings (the form type alone, or with charset=utf-8): a valid form request with charset=ISO-8859-1 or US-ASCII, its parameters the same bytes, is refused 415.',
    install: formContentTypeListed,
  },
  {
    id: 'token-audience-www-optional',
    clause: 'token.endpoint.audience',
    bug: 'API identifiers matched by a pattern written to accept the site with or without "www." (^https://(www\\.)?<host>/api/v2/$): a token is issued for the management audience on www.<tenant host>.',
    install: audienceMatching((sent, audience) => sent !== audience && sent === audience.replace(/^(\w+:\/\/)/, '$1www.')),
  },
  {
    id: 'token-audience-host-lowercased',
    clause: 'token.endpoint.audience',
    bug: "The audience's host lowercased before the API is looked up (host names are case-insensitive), its path left as sent: a token is issued for the management audience with its host in capitals.",
    install: audienceMatching(
      (sent, audience) =>
        sent !== audience &&
        sent.replace(/^(\w+:\/\/)([^/?#]+)/, (_all, scheme: string, host: string) => `${scheme}${host.toLowerCase()}`) === audience,
    ),
  },
  {
    id: 'token-audience-scheme-assumed',
    clause: 'token.endpoint.audience',
    bug: 'An audience written without a scheme given "https://" before the API is looked up (so that an API identifier configured as a host works): "<tenant host>/api/v2/" gets a management token.',
    install: audienceMatching((sent, audience) => !/^\w+:\/\//.test(sent) && `https://${sent}` === audience),
  },
  {
    id: 'token-secret-hash-codes-compared',
    clause: 'token.endpoint.wrong-secret',
    bug: 'Secrets compared by their Java String.hashCode() (the hash codes kept in a cache keyed by client): a secret with two neighbouring characters changed by +1 and -31, another string of the same hash, gets a token.',
    install: secretMatching((sent, stored) => sent !== stored && javaHashCode(sent) === javaHashCode(stored)),
  },
  {
    id: 'token-secret-special-casing-folded',
    clause: 'token.endpoint.wrong-secret',
    bug: 'Secrets compared after a "simple case folding" helper maps the letters whose case mappings leave ASCII ("İ" and "ı" to "i", "ſ" to "s", the Kelvin sign to "k") onto their ASCII letters: the secret with its first "i" written "İ" gets a token (plain ASCII case is still compared exactly).',
    install: secretMatching(
      (sent, stored) =>
        sent !== stored &&
        sent.length === stored.length &&
        [...sent].every((character, at) => character === stored[at] || SPECIAL_CASING[character] === stored[at]!.toLowerCase()),
    ),
  },
  {
    id: 'token-client-credentials-from-user-fields',
    clause: 'token.endpoint.client-id',
    bug: "Token request parameters run through an alias table shared with the password grant (username for client_id, password for client_secret) when the client's own are absent: a request with the client's id as username and its secret as password gets a token.",
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        const parameters = parametersOf(exchange);
        if (!parameters || 'client_id' in parameters || 'client_secret' in parameters) return exchange;
        if (typeof parameters.username !== 'string' || typeof parameters.password !== 'string') return exchange;
        const { username, password, ...rest } = parameters;
        return withParameters(exchange, { ...rest, client_id: username, client_secret: password });
      }),
  },
  {
    id: 'token-client-id-query-operator',
    clause: 'token.endpoint.client-id',
    bug: "A JSON token request's client_id handed as it came to a document store's findOne({client_id}), so that a query operator object selects a client: {\"$ne\": null} finds the first client of the tenant, and with that client's secret a token is issued instead of 400; a string client_id is looked up as before.",
    install: (app) => {
      const components = captureAll(app);
      editRequests(app, 'token', (exchange) => {
        const parameters = parametersOf(exchange);
        const id = parameters?.client_id;
        if (typeof id !== 'object' || id === null || !('$ne' in id)) return exchange;
        const { store } = components();
        const client = store.clients().find((c) => c.clientId !== id.$ne && c.secret === parameters!.client_secret);
        return client ? withParameters(exchange, { ...parameters, client_id: client.clientId }) : exchange;
      });
    },
  },
  {
    id: 'token-audience-case-insensitive',
    clause: 'token.endpoint.audience',
    bug: 'API identifiers looked up ignoring case: a token is issued for the management audience in capitals.',
    install: audienceMatching(sameIgnoringCase),
  },
  {
    id: 'token-form-blank-values-dropped',
    clause: 'token.observed.request-rules',
    bug: "A token endpoint that parses its form with Python's parse_qs, whose keep_blank_values is off, before refusing a parameter given twice: audience (or any field) given twice, once empty, is read once and gets a token instead of 400 invalid_request; a field given twice with two values is still refused.",
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
        const pairs = [...new URLSearchParams(exchange.body.toString('utf8'))];
        const kept = pairs.filter(([, value]) => value !== '');
        return kept.length === pairs.length ? exchange : { ...exchange, body: Buffer.from(new URLSearchParams(kept).toString(), 'utf8') };
      }),
  },
  {
    id: 'token-form-names-php-mangled',
    clause: 'token.endpoint.grant-type',
    bug: 'A token endpoint written in PHP, which reads $_POST: "." and " " in a parameter\'s name become "_" before the script sees it, so grant.type=client_credentials (and client.id, client secret) is read as grant_type and the client gets a token instead of a refusal for a missing parameter; names spelled exactly are read as before.',
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        if (!isFormMediaType(exchange.headers['content-type'])) return exchange;
        const pairs = [...new URLSearchParams(exchange.body.toString('utf8'))];
        if (!pairs.some(([name]) => /[. ]/.test(name))) return exchange;
        const mangled = pairs.map(([name, value]): [string, string] => [name.replace(/[. ]/g, '_'), value]);
        return { ...exchange, body: Buffer.from(new URLSearchParams(mangled).toString(), 'utf8') };
      }),
  },
  {
    id: 'token-json-members-case-insensitive',
    clause: 'token.endpoint.client-id',
    bug: "A JSON token request bound to a model by member name without case (ASP.NET Core's System.Text.Json with PropertyNameCaseInsensitive, over properties named ClientId and so on, snake_case mapped by a policy): a member written CLIENT_ID, or clientId, is read as client_id and the client gets a token; a form-encoded request is read as before.",
    install: (app) =>
      editRequests(app, 'token', (exchange) => {
        if (!isJsonMediaType(exchange.headers['content-type'])) return exchange;
        const parameters = parametersOf(exchange);
        if (!parameters) return exchange;
        const bound = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
        const known = new Set(['grant_type', 'client_id', 'client_secret', 'audience', 'scope']);
        const renamed = Object.entries(parameters).map(([name, value]): [string, unknown] => [
          known.has(bound(name)) ? bound(name) : name,
          value,
        ]);
        return renamed.every(([name], index) => name === Object.keys(parameters)[index])
          ? exchange
          : withParameters(exchange, Object.fromEntries(renamed));
      }),
  },
  {
    id: 'token-audience-compared-as-parsed-url',
    clause: 'token.endpoint.audience',
    bug: "An audience compared as new URL(audience).href (an edge worker's normalisation), which drops an empty port: audience https://<tenant>:/api/v2/ gets a management token instead of 403; https://<tenant>:8443/api/v2/ is still refused.",
    install: (app) =>
      editParameter(app, 'audience', (value) =>
        /^\w+:\/\/[^/:?#]+:(?=[/?#]|$)/.test(value) ? value.replace(/^(\w+:\/\/[^/:?#]+):/, '$1') : undefined,
      ),
  },
]);
