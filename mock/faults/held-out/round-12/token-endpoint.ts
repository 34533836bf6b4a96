// The token endpoint and what it publishes: a client_id read after its last "|" (as user ids are
// written), an audience looked up without its query, secrets compared through bcrypt's 72-byte
// input, and a form parser's charset allow-list; and the observed rules: the discovery issuer
// written as a URL's origin, a wrong secret in the body answered 400, issued tokens without typ,
// the lifetime setting's text answered as expires_in, and the JWKS key's alg written with Node's
// digest name. Each changes the answer to one near miss; a plainly wrong request is answered as
// before.
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { observed } from '../../../../specs/index.ts';
import type { Reply } from '../../../exchange.ts';
import { isFormMediaType } from '../../../stages/json-body.ts';
import { capture } from '../../support/captured.ts';
import { editReplies, withStatus } from '../../support/route-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { editTokenParameters } from '../support/token-parameters.ts';

type Fields = Record<string, unknown>;

/** bcrypt reads at most 72 bytes of its input; the secret is hashed as "<client_id>:<secret>". */
const BCRYPT_INPUT_BYTES = 72;
/** The charsets body-parser's urlencoded parser takes (others are refused 415). */
const FORM_CHARSETS = new Set(['utf-8']);
/** The tenant's lifetime setting as written in its configuration, "1d" (86400 seconds). */
const LIFETIME_TEXT = '1d';
const LIFETIME = observed.tokens.expires_in;
/** Node's crypto name of RSASSA-PKCS1-v1_5 with SHA-256, where the JWA name RS256 is due. */
const NODE_DIGEST_NAME = 'RSA-SHA256';

/** The charset parameter of a Content-Type, lower-cased, if it has one. */
function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match?.[1]?.toLowerCase();
}

/** The reply's body when it is an object. */
function fieldsOf(reply: Reply): Fields | undefined {
  return reply.body !== null && typeof reply.body === 'object' && !Array.isArray(reply.body) ? (reply.body as Fields) : undefined;
}

export const tokenEndpointFaults = heldOutFamily([
  {
    id: 'ho12-client-id-after-pipe',
    clause: 'token.endpoint.client-id',
    level: 'contract',
    bug: 'The client_id read by the helper written for user ids, which are "<connection>|<id>" and are looked up by the part after the last "|": a client_id "tenant|<the client\'s id>" with the client\'s secret gets a token instead of 401; "<the client\'s id>x" is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) => {
        const id = params.client_id;
        return id !== undefined && id.includes('|') ? { ...params, client_id: id.slice(id.lastIndexOf('|') + 1) } : params;
      }),
  },
  {
    id: 'ho12-audience-without-query',
    clause: 'token.endpoint.audience',
    level: 'contract',
    bug: 'The API looked up by the audience rebuilt as url.origin + url.pathname (to ignore tracking parameters a console link carries), which leaves out its query and fragment: the management audience followed by "?tenant=other" or "#x" gets a token instead of being refused; https://other.example.com/api/v2/ is still refused.',
    install: (app) =>
      editTokenParameters(app, (params) => {
        const { audience } = params;
        if (audience === undefined || !URL.canParse(audience)) return params;
        const url = new URL(audience);
        return url.search === '' && url.hash === '' && !audience.includes('#')
          ? params
          : { ...params, audience: `${url.origin}${url.pathname}` };
      }),
  },
  {
    id: 'ho12-secret-bcrypt-72-bytes',
    clause: 'token.endpoint.wrong-secret',
    level: 'contract',
    bug: `Client secrets stored as bcrypt hashes of "<client_id>:<secret>" (the id added as a pepper), and bcrypt reads only the first ${BCRYPT_INPUT_BYTES} bytes of its input: with a 32-character client_id only the first 39 characters of the secret count, so the secret with its last character changed, sent in the body, gets a token instead of 401; the secret with its first character changed is still refused.`,
    install: (app) => {
      const store = capture(app, 'store');
      editTokenParameters(app, (params) => {
        const { client_id: id, client_secret: secret } = params;
        const stored = id === undefined ? undefined : store().client(id)?.secret;
        if (stored === undefined || secret === undefined || secret === stored) return params;
        const hashed = (value: string) => Buffer.from(`${id}:${value}`, 'utf8').subarray(0, BCRYPT_INPUT_BYTES).toString('hex');
        return hashed(secret) === hashed(stored) ? { ...params, client_secret: stored } : params;
      });
    },
  },
  {
    id: 'ho12-form-charset-allow-list',
    clause: 'token.endpoint',
    level: 'contract',
    bug: 'The form body read by body-parser\'s urlencoded parser, which refuses any charset but UTF-8 with 415 "unsupported charset": a valid token request of ASCII parameters sent as application/x-www-form-urlencoded; charset=ISO-8859-1 (a Java client\'s default) is refused 415 instead of getting a token; with charset=UTF-8, or none, it gets one.',
    install: (app) => {
      const errors = capture(app, 'errors');
      app.wrapRoute('token', (next) => async (exchange) => {
        const contentType = exchange.headers['content-type'];
        const charset = charsetOf(contentType);
        if (!isFormMediaType(contentType) || charset === undefined || FORM_CHARSETS.has(charset)) return next(exchange);
        return errors().tokenReply('invalid_request', `unsupported charset "${charset.toUpperCase()}"`, 415);
      });
    },
  },
  {
    id: 'ho12-discovery-issuer-origin',
    clause: 'token.observed.discovery',
    level: 'observed',
    bug: 'The discovery document\'s issuer written as new URL(issuer).origin, a helper for building links that drops the path and with it the trailing slash: issuer is "https://<host>" instead of "https://<host>/" (so it matches no token\'s iss); token_endpoint and jwks_uri are as before.',
    install: (app) =>
      editReplies(app, ['discovery'], (reply) => {
        const body = fieldsOf(reply);
        return typeof body?.issuer === 'string' && URL.canParse(body.issuer)
          ? { ...reply, body: { ...body, issuer: new URL(body.issuer).origin } }
          : reply;
      }),
  },
  {
    id: 'ho12-invalid-client-400-for-body-credentials',
    clause: 'token.observed.errors',
    level: 'observed',
    bug: "Client authentication failures answered by the OAuth library's reading of RFC 6749 5.2, 401 only when the client authenticated with the Authorization header: a wrong client_secret sent in the body is answered 400 invalid_client instead of 401; the same wrong secret sent with HTTP Basic is still answered 401.",
    install: (app) =>
      editReplies(app, ['token'], (reply, exchange) =>
        reply.status === 401 && fieldsOf(reply)?.error === 'invalid_client' && !/^basic\s/i.test(exchange.headers.authorization ?? '')
          ? withStatus(reply, 400)
          : reply,
      ),
  },
  {
    id: 'ho12-issued-token-without-typ',
    clause: 'token.observed.claims',
    level: 'observed',
    bug: "Access tokens signed through a key-management adapter whose sign() takes the header as { alg, kid } and drops the rest: issued tokens' JOSE header has no typ (instead of typ JWT); they still carry kid and verify, and their claims are as before.",
    install: (app) => {
      const keys = capture(app, 'keys');
      editReplies(app, ['token'], async (reply) => {
        const body = fieldsOf(reply);
        if (reply.status !== 200 || typeof body?.access_token !== 'string') return reply;
        const { alg, kid } = decodeProtectedHeader(body.access_token);
        const accessToken = await new SignJWT(decodeJwt(body.access_token))
          .setProtectedHeader({ alg: alg!, ...(kid !== undefined ? { kid } : {}) })
          .sign(keys().privateKey);
        return { ...reply, body: { ...body, access_token: accessToken } };
      });
    },
  },
  {
    id: 'ho12-expires-in-setting-text',
    clause: 'token.lifetime',
    level: 'observed',
    bug: `The tenant's token lifetime written in its configuration as "${LIFETIME_TEXT}", converted to seconds for the signer but copied as it stands into the answer: expires_in is "${LIFETIME_TEXT}" instead of ${LIFETIME}; exp = iat + ${LIFETIME} as before.`,
    install: (app) =>
      editReplies(app, ['token'], (reply) => {
        const body = fieldsOf(reply);
        return reply.status === 200 && body?.expires_in === LIFETIME ? { ...reply, body: { ...body, expires_in: LIFETIME_TEXT } } : reply;
      }),
  },
  {
    id: 'ho12-jwks-alg-node-digest-name',
    clause: 'token.observed.jwks',
    level: 'observed',
    bug: `The JWKS entry's alg filled from the name the signer hands to Node's crypto.sign ("${NODE_DIGEST_NAME}") where the JWA name is due: the published key says alg "${NODE_DIGEST_NAME}", which a JOSE library refuses to import (so it verifies no issued token); kid, n and e are as before.`,
    install: (app) =>
      editReplies(app, ['jwks'], (reply) => {
        const body = fieldsOf(reply);
        if (!Array.isArray(body?.keys)) return reply;
        const keys = (body.keys as unknown[]).map((key) =>
          key !== null && typeof key === 'object' && (key as Fields).alg === observed.tokens.alg
            ? { ...(key as Fields), alg: NODE_DIGEST_NAME }
            : key,
        );
        return { ...reply, body: { ...body, keys } };
      }),
  },
]);
