// Access tokens of the configured roles, by the OAuth 2.0 client-credentials flow of spec
// section 5 (rule 3): a form-encoded POST to {auth_url}/oauth/token/ for the /api/v2/ audience.
// Each role's token is fetched once per run, as a shared request (tokens live a day; a run is
// bounded by minutes).
import { tokenPath } from '../specs/index.ts';
import { HarnessError } from './errors.ts';
import { shownValue } from './failure.ts';
import type { Exchange, TargetHttp } from './http.ts';
import { sharedKeys } from './plan.ts';
import { redactor } from './redact.ts';
import type { ForeignClient, ResolvedTarget, RoleName } from './settings.ts';
import type { SharedRequests } from './shared.ts';

export interface TokenResult {
  exchange: Exchange;
  token?: string;
}

export class TokenProvider {
  readonly #http: TargetHttp;
  readonly #target: ResolvedTarget;
  readonly #shared: SharedRequests;

  constructor(http: TargetHttp, target: ResolvedTarget, shared: SharedRequests) {
    this.#http = http;
    this.#target = target;
    this.#shared = shared;
  }

  /** The token endpoint URL the spec names. */
  get tokenUrl(): string {
    return `${this.#target.authUrl}${tokenPath}`;
  }

  /** A token of a role: fetched once per run (a shared request), then read by every test. */
  async tokenFor(role: RoleName, payer?: string): Promise<string> {
    const { exchange, token } = await this.issued(role, payer);
    if (token === undefined) {
      const reason = exchange.json && typeof exchange.json === 'object' ? (exchange.json as { error?: unknown }).error : undefined;
      throw new HarnessError(
        'TOKEN_UNAVAILABLE',
        `the token endpoint refused role ${role} (status ${exchange.status}${reason ? `, ${shownValue(reason)}` : ''}); check its credentials in the target file`,
      );
    }
    return sendable(token);
  }

  /** The exchange that asked for a role's token this run (once per run), and the token if one came. */
  issued(role: RoleName, payer?: string): Promise<TokenResult> {
    return this.#shared.once(sharedKeys.token(role), `a client-credentials token of role ${role}`, payer, () => this.request(role));
  }

  /** A token of a real-tenant alternative client (another API of this tenant, or a second tenant), once per run. */
  foreignToken(name: 'other_audience' | 'other_tenant', client: ForeignClient, payer?: string): Promise<string> {
    return this.#shared.once(sharedKeys.token(name), `a client-credentials token of ${name}`, payer, async () => {
      const fields = {
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        audience: client.audience,
      };
      const exchange = await this.#http.send({
        method: 'POST',
        url: client.tokenUrl,
        label: 'token',
        headers: FORM_HEADERS,
        body: new URLSearchParams(fields).toString(),
      });
      const token = exchange.status === 200 ? accessTokenOf(exchange.json) : undefined;
      redactor.add(token);
      if (!token) {
        throw new HarnessError(
          'TOKEN_UNAVAILABLE',
          `the token endpoint at ${client.tokenUrl} refused token_alternatives.${name} (status ${exchange.status}); check that client in the target file`,
        );
      }
      return sendable(token);
    });
  }

  /**
   * One client-credentials request, as the spec describes it, with overrides for tests of the
   * token endpoint itself. The exchange is returned whatever its status.
   */
  async request(
    role: RoleName,
    overrides: { audience?: string; clientSecret?: string; url?: string; json?: boolean } = {},
  ): Promise<TokenResult> {
    const credentials = this.#target.roles[role];
    if (!credentials) throw new HarnessError('TOKEN_UNAVAILABLE', `role ${role} is not configured`);
    const fields = {
      grant_type: 'client_credentials',
      client_id: credentials.clientId,
      client_secret: overrides.clientSecret ?? credentials.clientSecret,
      audience: overrides.audience ?? this.#target.audience,
    };
    const body = overrides.json ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
    const exchange = await this.#http.send({
      method: 'POST',
      url: overrides.url ?? this.tokenUrl,
      label: 'token',
      headers: overrides.json ? JSON_HEADERS : FORM_HEADERS,
      body,
    });
    const token = exchange.status === 200 ? accessTokenOf(exchange.json) : undefined;
    redactor.add(token);
    return token ? { exchange, token } : { exchange };
  }
}

const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** RFC 6750's b64token: what may follow "Bearer " in a header. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * A token that cannot travel in an Authorization header (CR/LF, DEL, spaces, non-Latin-1
 * characters) is the token endpoint's error: said plainly here, when it is issued. The HTTP
 * client's own header check (http.ts) still guards every request; this one names the culprit
 * (the token endpoint) and applies the bearer token's own grammar, which also excludes spaces.
 */
function sendable(token: string): string {
  if (B64TOKEN.test(token)) return token;
  const bad = [...token].find((c) => !/[A-Za-z0-9\-._~+/=]/.test(c)) ?? '';
  const code = (bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  throw new HarnessError(
    'TARGET_GARBAGE',
    `the token endpoint issued an access token that cannot be sent in an Authorization header: it holds U+${code}, outside the characters a bearer token may have (RFC 6750 b64token)`,
  );
}

function accessTokenOf(json: unknown): string | undefined {
  const token = (json as { access_token?: unknown } | undefined)?.access_token;
  return typeof token === 'string' && token.length > 0 ? token : undefined;
}
