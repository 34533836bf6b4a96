// Turns the matrix's requests as data (RequestTemplate, TokenRequestTemplate) into the requests
// the harness sends to one target: the target's origin and base path, its fixtures, the tokens of
// its roles with the template's edits (re-signed with its key, forged, retyped) and carried where
// the template says. Every token made here is registered with the redactor before it can be shown.
import type { BodySpec, CredentialSpec, OtherRsaAlgorithm, RequestTemplate, TokenEdit } from '../specs/cards/card.ts';
import { numberCastOf, type TokenRequestContext, type TokenRequestTemplate } from '../specs/cards/token-request.ts';
import { basePath } from '../specs/index.ts';
import { pathOf, spacedJson, type RequestContext } from '../specs/matrix/template.ts';
import { wrapper } from '../specs/matrix/wrappers.ts';
import { withAlgNone, withTamperedPayload, withTamperedSignature, type TokenForge } from './forge.ts';
import type { OutgoingRequest } from './http.ts';
import { redactor } from './redact.ts';
import type { ResolvedTarget, RoleName } from './settings.ts';

/** What the matrix's requests are built from, for this target. */
export function requestContextOf(target: ResolvedTarget): RequestContext {
  const clients = Object.fromEntries(Object.entries(target.roles).map(([role, credentials]) => [role, credentials.clientId]));
  const keyClient = target.tokenAlternatives.keyClient?.clientId;
  return {
    fixtures: target.fixtures,
    clients,
    customDomainHeader: target.customDomainHeader,
    origin: new URL(target.baseUrl).origin,
    ...(keyClient ? { keyClient } : {}),
  };
}

/** What the token endpoint's requests are built from: the global role's client, and the non-global one's where configured. */
export function tokenContextOf(target: ResolvedTarget): TokenRequestContext {
  const global = target.roles.global!;
  const other = target.roles.non_global;
  return {
    clientId: global.clientId,
    clientSecret: global.clientSecret,
    audience: target.audience,
    ...(global.name !== undefined ? { clientName: global.name } : {}),
    ...(other ? { otherClient: { clientId: other.clientId, clientSecret: other.clientSecret } } : {}),
    ...(target.ungrantedAudience ? { ungrantedAudience: target.ungrantedAudience } : {}),
    ...(target.tokenAlternatives.keyClient ? { keyOnlyClient: target.tokenAlternatives.keyClient.clientId } : {}),
  };
}

/** How the session gives the realizer tokens: a role's, a real-tenant alternative, the JWKS where a forgery reads it. */
export interface TokenSource {
  tokenFor(role: RoleName): Promise<string>;
  mint(kind: 'expired' | 'wrong-audience' | 'wrong-issuer'): Promise<string>;
  /** Declares and fetches what an edit needs (the signing key, the JWKS), or refuses a suite bug. */
  prepare(edit: TokenEdit): Promise<void>;
  forge: TokenForge;
  role(role: string): RoleName;
}

/** The token an edit makes of a valid one. */
async function edited(token: string, edit: TokenEdit, source: TokenSource): Promise<string> {
  await source.prepare(edit);
  let out = token;
  if (edit.resign) out = source.forge.resigned(out, edit.resign);
  if (edit.forge) {
    switch (edit.forge) {
      case 'tampered-signature':
        out = withTamperedSignature(out);
        break;
      case 'tampered-payload':
        out = withTamperedPayload(out);
        break;
      case 'alg-none':
        out = withAlgNone(out);
        break;
      case 'foreign-key':
        out = await source.forge.signedWithForeignKey(out);
        break;
      case 'embedded-jwk':
        out = await source.forge.signedWithEmbeddedKey(out);
        break;
      case 'embedded-x5c':
        out = await source.forge.signedWithEmbeddedCertificate(out);
        break;
      case 'jku-foreign':
        out = await source.forge.signedWithKeyAtJku(out);
        break;
      case 'unknown-kid':
        out = await source.forge.withUnknownKid(out);
        break;
      case 'hs256-public-key':
        out = await source.forge.hs256WithPublicKey(out);
        break;
      case 'client-key':
        out = await source.forge.signedWithClientKey(out, 'tenant');
        break;
      case 'client-key-own-kid':
        out = await source.forge.signedWithClientKey(out, 'own');
        break;
      case 'client-key-no-kid':
        out = await source.forge.signedWithClientKey(out, 'none');
        break;
      case 'kid-as-x5t':
        out = await source.forge.withKidAsX5t(out);
        break;
      case 'leading-zero-signature':
        out = source.forge.withLeadingZeroDropped(out);
        break;
      default: {
        // Only the other RSA algorithms' signatures are left: a forge added to the card's list without a case here fails the type check.
        const other: `signature-as-${OtherRsaAlgorithm}` = edit.forge;
        out = source.forge.withSignatureAs(out, other.slice('signature-as-'.length));
      }
    }
  }
  if (edit.text) out = edit.text(out);
  return out;
}

interface Carried {
  authorization: string[];
  query: Array<[string, string]>;
  headers: Record<string, string>;
  form?: string;
}

async function carried(credential: CredentialSpec, source: TokenSource): Promise<Carried> {
  const none: Carried = { authorization: [], query: [], headers: {} };
  if (credential.kind === 'none') return none;
  let token = credential.kind === 'role' ? await source.tokenFor(source.role(credential.role)) : await source.mint(credential.token);
  if (credential.kind === 'role' && credential.edit) token = await edited(token, credential.edit, source);
  redactor.add(token);
  const carry = credential.carry ?? {};
  const out: Carried = { ...none, authorization: carry.authorization ? carry.authorization(token) : [`Bearer ${token}`] };
  for (const value of out.authorization) redactor.add(value.slice(value.indexOf(' ') + 1));
  if (carry.elsewhere === 'query') out.query.push(['access_token', token]);
  if (carry.elsewhere === 'form') out.form = new URLSearchParams({ access_token: token }).toString();
  if (carry.elsewhere === 'x-forwarded-authorization') out.headers['x-forwarded-authorization'] = `Bearer ${token}`;
  if (carry.elsewhere === 'proxy-authorization') out.headers['proxy-authorization'] = `Bearer ${token}`;
  if (carry.elsewhere === 'cookie') out.headers.cookie = `access_token=${token}`;
  // The subprotocol list of a browser WebSocket client, which cannot set Authorization (RFC 6455 11.3.4).
  if (carry.elsewhere === 'websocket-protocol') out.headers['sec-websocket-protocol'] = `access_token, ${token}`;
  if (carry.elsewhere === 'x-access-token') out.headers['x-access-token'] = token;
  if (carry.headers) Object.assign(out.headers, carry.headers(token));
  return out;
}

/** A management request of a template, for this target. */
export async function realizeRequest(
  template: RequestTemplate,
  target: ResolvedTarget,
  source: TokenSource,
  label: string,
): Promise<OutgoingRequest> {
  const origin = target.baseUrl.endsWith(basePath) ? target.baseUrl.slice(0, -basePath.length) : target.baseUrl;
  const credential = await carried(template.credential, source);
  const query = [...template.query, ...credential.query];
  const url = `${origin}${pathOf(template)}${query.length > 0 ? `?${new URLSearchParams(query).toString()}` : ''}`;
  const headers: Record<string, string | string[]> = { accept: 'application/json' };
  for (const [name, values] of Object.entries(template.headers)) {
    if (values.length > 0) headers[name] = values.length === 1 ? values[0]! : values;
  }
  Object.assign(headers, credential.headers);
  if (credential.authorization.length > 0)
    headers.authorization = credential.authorization.length === 1 ? credential.authorization[0]! : credential.authorization;
  let body: string | undefined;
  if (credential.form !== undefined) {
    body = credential.form;
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (template.body !== undefined) {
    body = 'json' in template.body ? jsonText(template.body) : template.body.raw;
  }
  // A request whose path left the base path (another version) is not one of the interface's: its
  // answer says nothing of the interface's rate limit, and the run's reading of it leaves it out.
  const rateLimited = pathOf(template).startsWith(`${basePath}/`);
  return {
    method: template.method,
    url,
    headers,
    label,
    rateLimited,
    ...(body === undefined ? {} : { body }),
    ...(template.chunked && body !== undefined ? { chunked: true } : {}),
  };
}

/** The media type of a token request's encoding. */
function contentTypeOf(encoding: TokenRequestTemplate['encoding']): string {
  return encoding === 'json'
    ? 'application/json'
    : `application/x-www-form-urlencoded${encoding === 'form-charset' ? '; charset=utf-8' : ''}`;
}

/** A token endpoint request of a template. */
export function realizeTokenRequest(template: TokenRequestTemplate, target: ResolvedTarget): OutgoingRequest {
  // A secret one character off is nearly the secret: every value sent as one is kept out of reports.
  for (const [name, value] of [...template.fields, ...(template.query ?? [])]) if (name === 'client_secret') redactor.add(value);
  const fields = (template.literal ?? []).reduce(
    (body, character) => body.replaceAll(encodeURIComponent(character), character),
    new URLSearchParams(template.fields).toString(),
  );
  const path = `/${template.path.join('/')}`;
  const basic: Record<string, string | string[]> = {};
  if (template.bearer !== undefined) {
    redactor.add(template.bearer);
    basic.authorization = `Bearer ${template.bearer}`;
  }
  if (template.basic) {
    const { userId, password, written, second } = template.basic;
    const value = basicCredentials(userId, password, written);
    if (second) {
      const other = basicCredentials(userId, second.password, undefined);
      basic.authorization = second.first ? [other, value] : [value, other];
    } else basic.authorization = value;
  }
  if (template.method === 'GET') {
    return { method: 'GET', url: `${target.authUrl}${path}?${fields}`, headers: { accept: 'application/json', ...basic }, label: 'token' };
  }
  const json = template.encoding === 'json';
  const listed = new Set(template.listed ?? []);
  const operators = template.operators ?? {};
  const written = (name: string, value: string): unknown => {
    if (operators[name] === '$ne') return { $ne: null };
    if (operators[name] === '$regex') return { $regex: `^${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` };
    if (operators[name] === 'number-cast') return numberCastOf(value);
    if (operators[name] === 'true') return true;
    const wrappedIn = template.inJson?.[name];
    if (wrappedIn !== undefined) return wrapper(wrappedIn).wrap(value);
    return listed.has(name) ? [value] : value;
  };
  const object = Object.fromEntries(template.fields.map(([name, value]) => [name, written(name, value)]));
  const query = template.query && template.query.length > 0 ? `?${new URLSearchParams(template.query).toString()}` : '';
  return {
    method: template.method,
    url: `${target.authUrl}${path}${query}`,
    headers: {
      accept: 'application/json',
      ...(template.contentType === null ? {} : { 'content-type': template.contentType ?? contentTypeOf(template.encoding) }),
      ...basic,
    },
    label: 'token',
    ...(template.chunked ? { chunked: true } : {}),
    body: json
      ? `${template.surrounded?.before ?? ''}${jsonTextOf(template, wrappedAs(template.wrapped, object))}${template.surrounded?.after ?? ''}`
      : fields,
  };
}

/** A JSON token request's text: its "/" escaped where the template says so (a slash appears in JSON text only inside strings). */
function jsonTextOf(template: TokenRequestTemplate, value: unknown): string {
  const text = JSON.stringify(value);
  return template.escapedSlashes ? text.replaceAll('/', '\\/') : text;
}

/** A JSON token request's object as the template wraps it. */
function wrappedAs(wrapped: TokenRequestTemplate['wrapped'], object: Record<string, unknown>): unknown {
  if (wrapped === 'list') return [object];
  if (wrapped === 'json-text') return JSON.stringify(object);
  return object;
}

/** An Authorization header of HTTP Basic (RFC 7617 2), or one written otherwise; every form of the password is redacted. */
function basicCredentials(userId: string, password: string, written: NonNullable<TokenRequestTemplate['basic']>['written']): string {
  const pair = written === 'without-colon' ? `${userId}${password}` : `${userId}:${password}`;
  const encoded = written === 'as-text' ? pair : Buffer.from(pair, 'utf8').toString('base64');
  redactor.add(password);
  redactor.add(encoded);
  return `Basic ${encoded}`;
}

/** A JSON body's text, written as its template says: compact, spaced, or after a byte order mark. */
function jsonText(body: Extract<BodySpec, { json: unknown }>): string {
  if (body.format === 'spaced') return spacedJson(body.json);
  return `${body.format === 'bom' ? '\uFEFF' : ''}${JSON.stringify(body.json)}`;
}
