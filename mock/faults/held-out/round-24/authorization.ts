// Who may call: single-session enforcement copied from the user login (every token issued makes the
// client's earlier tokens revoked, as Firebase's tokensValidAfterTime works), the requested scopes
// checked split on any white space but written into the token as the request spelt them (a
// Symfony token controller), a token accepted as the password of HTTP Basic credentials (GitHub's
// convention, for git-credential helpers); and the observed rule: the custom-domain header
// validated by a Hono middleware registered before the jwt() one. Each changes the answer to its
// near miss; other requests are answered as before.
import { SignJWT, decodeJwt, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { limit, operationKeys } from '../../../../specs/index.ts';
import type { Verification } from '../../../auth/verifier.ts';
import type { Exchange } from '../../../exchange.ts';
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import { capture } from '../../support/captured.ts';
import { editRequests } from '../../support/route-edits.ts';
import { editVerifier } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { answeredInstead } from '../support/answers.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** White space a scope string may hold other than the space RFC 6749 separates scopes with. */
const OTHER_WHITESPACE = /[^\S ]/;
const BASIC = /^Basic +([A-Za-z0-9+/]+={0,2})$/i;
const CUSTOM_DOMAIN = 'tenant-custom-domain';
const CUSTOM_DOMAIN_LENGTH = limit('sso-ticket.header.custom-domain.length');

/** The token request's scope parameter, when it has one string value, and the request with it replaced. */
function scopeParameter(exchange: Exchange): { scope: string; with: (scope: string) => Exchange } | undefined {
  const text = exchange.body.toString('utf8');
  const contentType = exchange.headers['content-type'];
  if (isFormMediaType(contentType)) {
    const form = new URLSearchParams(text);
    const values = form.getAll('scope');
    if (values.length !== 1) return undefined;
    return {
      scope: values[0]!,
      with: (scope) => {
        form.set('scope', scope);
        return { ...exchange, body: Buffer.from(form.toString(), 'utf8') };
      },
    };
  }
  if (!isJsonMediaType(contentType)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(body) || typeof body.scope !== 'string') return undefined;
  return { scope: body.scope, with: (scope) => ({ ...exchange, body: Buffer.from(JSON.stringify({ ...body, scope }), 'utf8') }) };
}

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho24-tokens-valid-after-last-issue',
    clause: 'auth.schemes',
    level: 'contract',
    bug: "Single-session enforcement copied from the user login (revokeRefreshTokens on every sign-in, as Firebase's tokensValidAfterTime works) applied to machine clients: each token issued moves the client's valid-after time to its iat, and a token issued before it is refused 401 as revoked: a client's token, obtained through client credentials and unexpired, stops working (401) once the client has asked for another a second or more later; the newest token, and a token issued in the same second, are accepted.",
    install: (app) => {
      const validAfter = new Map<string, number>();
      app.override('issuer', (issuer) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          const { iat } = decodeJwt(issued.accessToken);
          if (typeof iat === 'number') validAfter.set(client.clientId, Math.max(validAfter.get(client.clientId) ?? iat, iat));
          return issued;
        },
      }));
      editVerifier(app, (verifier) => {
        const revoked = (verification: Verification): Verification => {
          if (!verification.ok) return verification;
          const { iat } = verification.principal.claims;
          const after = validAfter.get(verification.principal.client.clientId);
          return typeof iat === 'number' && after !== undefined && iat < after
            ? { ok: false, error: 'invalid_token', reason: 'the token was issued before the client valid-after time' }
            : verification;
        };
        return {
          async verify(authorization, host) {
            return revoked(await verifier.verify(authorization, host));
          },
          checkClaims(claims, host) {
            return revoked(verifier.checkClaims(claims, host));
          },
        };
      });
    },
  },
  {
    id: 'ho24-requested-scope-text-in-claim',
    clause: 'scopes.catalogue',
    level: 'contract',
    bug: "A Symfony token controller that checks the requested scopes with preg_split('/\\s+/', $scope) against the client's grant and writes the claim, and the answer's scope, from $request->get('scope') as sent: scope=\"update:event_deliveries<TAB>read:flows_vault_connections\" gets a token whose scope claim holds the tab, one space-separated scope that is not of the form action:resource nor in the catalogue, instead of 403 access_denied; a tab-separated list naming a scope the client is not granted is still refused.",
    install: (app) => {
      let asSent: string | undefined;
      app.wrapRoute('token', (next) => async (exchange) => {
        const parameter = scopeParameter(exchange);
        if (!parameter || !OTHER_WHITESPACE.test(parameter.scope)) return next(exchange);
        asSent = parameter.scope;
        try {
          return await next(
            parameter.with(
              parameter.scope
                .split(/\s+/)
                .filter((scope) => scope !== '')
                .join(' '),
            ),
          );
        } finally {
          asSent = undefined;
        }
      });
      app.override('issuer', (issuer, built) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          if (asSent === undefined) return issued;
          const accessToken = await new SignJWT({ ...decodeJwt(issued.accessToken), scope: asSent })
            .setProtectedHeader(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters)
            .sign(built.keys!.privateKey);
          return { ...issued, accessToken, scope: asSent };
        },
      }));
    },
  },
  {
    id: 'ho24-token-as-basic-password',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: 'An Echo middleware.BasicAuth validator added beside the bearer check so that git-credential helpers and CI tools, which send only Basic credentials, can call the API as they call GitHub\'s (the token as the password, "x-access-token" as the user, or the token as the user with no password): "Authorization: Basic base64(x-access-token:<valid token>)", no bearer credential, is served (a read answers the record) instead of 401; Basic credentials holding a token that does not verify are still refused.',
    install: (app) => {
      for (const key of operationKeys) {
        editRequests(app, key, (exchange) => {
          const authorization = exchange.headers.authorization;
          const encoded = typeof authorization === 'string' ? BASIC.exec(authorization)?.[1] : undefined;
          if (encoded === undefined) return exchange;
          const decoded = Buffer.from(encoded, 'base64').toString('utf8');
          const colon = decoded.indexOf(':');
          const password = colon < 0 ? '' : decoded.slice(colon + 1);
          const credential = password !== '' ? password : colon < 0 ? decoded : decoded.slice(0, colon);
          if (credential === '') return exchange;
          return { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${credential}` } };
        });
      }
    },
  },
  {
    id: 'ho24-custom-domain-validated-before-jwt',
    clause: 'auth.order',
    level: 'observed',
    bug: `A Hono app whose header validator (zValidator("header", z.object({"${CUSTOM_DOMAIN}": z.string().min(${CUSTOM_DOMAIN_LENGTH.min}).max(${CUSTOM_DOMAIN_LENGTH.max}).optional()}))) is registered with app.use before the jwt() middleware: a ticket request without a token (or with one lacking the scope) whose ${CUSTOM_DOMAIN} has 2 characters is answered 400 invalid_headers instead of 401 (or 403); with a header of a valid length it is still 401.`,
    install: (app) => {
      const errors = capture(app, 'errors');
      app.wrapRoute('sso-ticket', (next) => async (exchange) => {
        const value = exchange.headers[CUSTOM_DOMAIN];
        if (typeof value !== 'string') return next(exchange);
        const length = [...value].length;
        if (length >= CUSTOM_DOMAIN_LENGTH.min! && length <= CUSTOM_DOMAIN_LENGTH.max!) return next(exchange);
        // The route refuses such a header too (after the token): no ticket is made either way.
        const reply = await next(exchange);
        const problem =
          length < CUSTOM_DOMAIN_LENGTH.min!
            ? `String is too short (${length} chars), minimum ${CUSTOM_DOMAIN_LENGTH.min}`
            : `String is too long (${length} chars), maximum ${CUSTOM_DOMAIN_LENGTH.max}`;
        return answeredInstead(reply, errors().reply('invalid_headers', `'${problem}' on header ${CUSTOM_DOMAIN}`));
      });
    },
  },
]);
