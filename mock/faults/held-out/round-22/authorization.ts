// Scopes and who holds them: held scopes lower-cased under a Turkish default locale (so a dotted
// capital İ becomes an i), a narrowed token's scopes written as Okta's scp list; and the observed
// rules: scopes kept as Clojure namespaced keywords (so "read/flows_vault_connections" is the same
// keyword), and the scopes a token request asks for looked up in a trie that forgets its end-of-word
// mark (a prefix of a granted scope is granted). Each changes the answer to its near miss; other
// tokens and requests are answered as before.
import { SignJWT, decodeJwt, decodeProtectedHeader, type JWTHeaderParameters } from 'jose';
import { audiencePath } from '../../../../specs/index.ts';
import type { Client } from '../../../store.ts';
import { isFormMediaType, isJsonMediaType } from '../../../stages/json-body.ts';
import { capture } from '../../support/captured.ts';
import { heldOutFamily } from '../held-out-fault.ts';
import { readScopesAt } from '../support/scope-claims.ts';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
/** A scope written as a Clojure namespaced keyword's text, action/resource. */
const KEYWORD_SCOPE = /^[a-z_]+\/[a-z_]+$/;

/** Whether a token issued with `scopes` to `client` was narrowed by the request's scope parameter. */
const narrowed = (client: Client, scopes: readonly string[]) =>
  scopes.length !== client.scopes.length || scopes.some((scope) => !client.scopes.includes(scope));

/** The token request's parameters (form or JSON body), and the body written back with another scope. */
function tokenParams(contentType: string | undefined, text: string): { params: Fields; withScope: (scope: string) => string } | undefined {
  if (isJsonMediaType(contentType)) {
    try {
      const value: unknown = JSON.parse(text);
      return isObject(value) ? { params: value, withScope: (scope) => JSON.stringify({ ...value, scope }) } : undefined;
    } catch {
      return undefined;
    }
  }
  if (!isFormMediaType(contentType)) return undefined;
  const form = new URLSearchParams(text);
  return {
    params: Object.fromEntries(form),
    withScope: (scope) => {
      const edited = new URLSearchParams(form);
      edited.set('scope', scope);
      return edited.toString();
    },
  };
}

export const authorizationFaults = heldOutFamily([
  {
    id: 'ho22-scope-turkish-dotted-i',
    clause: 'redeliver.scope',
    level: 'contract',
    bug: 'Held scopes lower-cased with Java\'s String.toLowerCase() on a JVM whose default locale is tr_TR, where "İ" (capital I with a dot) becomes "i" and "I" becomes "ı": a token holding "update:event_delİveries" may redeliver instead of 403; "UPDATE:EVENT_DELIVERIES" (lower-cased to "update:event_delıverıes") is still refused.',
    install: (app) => readScopesAt(app, 'redeliver', (scopes) => scopes.map((scope) => scope.toLocaleLowerCase('tr-TR'))),
  },
  {
    id: 'ho22-narrowed-token-okta-scp',
    clause: 'token.scopes',
    level: 'contract',
    bug: 'The issuer writes the scopes of a token narrowed by the request\'s scope parameter the way Okta\'s authorization server does, as an "scp" list, and leaves "scope" out: a token asked for with scope=update:event_deliveries carries no scope claim and is refused 403 by redelivery instead of being let redeliver; a token asked for without a scope carries its grant in "scope" as before.',
    install: (app) =>
      app.override('issuer', (issuer, built) => ({
        async issue(client, scopes, target) {
          const issued = await issuer.issue(client, scopes, target);
          const management = target === undefined || target.audience.endsWith(audiencePath);
          if (!management || !narrowed(client, scopes)) return issued;
          const { scope: _scope, ...claims } = decodeJwt(issued.accessToken);
          const accessToken = await new SignJWT({ ...claims, scp: [...scopes] })
            .setProtectedHeader(decodeProtectedHeader(issued.accessToken) as JWTHeaderParameters)
            .sign(built.keys!.privateKey);
          return { ...issued, accessToken };
        },
      })),
  },
  {
    id: 'ho22-vault-scope-clojure-keyword',
    clause: 'vault.scope',
    level: 'observed',
    bug: 'Scopes kept as Clojure namespaced keywords, (keyword (str/replace scope ":" "/")), and a held scope that is already written "action/resource" makes the same keyword: a token holding "read/flows_vault_connections" may read the vault connection instead of 403; "read/flows_vault_connection" is still refused.',
    install: (app) =>
      readScopesAt(app, 'vault', (scopes) => scopes.map((scope) => (KEYWORD_SCOPE.test(scope) ? scope.replace('/', ':') : scope))),
  },
  {
    id: 'ho22-granted-scope-trie-prefix',
    clause: 'token.observed.granted-scopes',
    level: 'observed',
    bug: "The scopes a token request asks for looked up in a trie of the client's grant whose contains() walks the letters and never checks the end-of-word mark: scope=read:flows_vault_connection (a prefix of the granted read:flows_vault_connections) gets a token carrying it instead of 403 access_denied; scope=delete:users is still refused.",
    install: (app) => {
      const store = capture(app, 'store');
      const keys = capture(app, 'keys');
      app.wrapRoute('token', (next) => async (exchange) => {
        const read = tokenParams(exchange.headers['content-type'], exchange.body.toString('utf8'));
        const client = typeof read?.params.client_id === 'string' ? store().client(read.params.client_id) : undefined;
        if (!read || !client || typeof read.params.scope !== 'string') return next(exchange);
        const wanted = [...new Set(read.params.scope.split(' ').filter((scope) => scope !== ''))];
        const completion = (scope: string) =>
          client.scopes.includes(scope) ? scope : client.scopes.find((granted) => granted.startsWith(scope));
        const completed = wanted.map(completion);
        if (completed.every((scope, i) => scope === wanted[i]) || completed.some((scope) => scope === undefined)) return next(exchange);
        const reply = await next({ ...exchange, body: Buffer.from(read.withScope(completed.join(' ')), 'utf8') });
        if (reply.status !== 200 || !isObject(reply.body) || typeof reply.body.access_token !== 'string') return reply;
        const scope = wanted.join(' ');
        const accessToken = await new SignJWT({ ...decodeJwt(reply.body.access_token), scope })
          .setProtectedHeader(decodeProtectedHeader(reply.body.access_token) as JWTHeaderParameters)
          .sign(keys().privateKey);
        return { ...reply, body: { ...reply.body, access_token: accessToken, scope } };
      });
    },
  },
]);
