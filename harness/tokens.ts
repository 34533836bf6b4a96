// Access tokens of the configured roles, by the OAuth 2.0 client-credentials flow of spec
// section 5 (rule 3): a form-encoded POST to {auth_url}/oauth/token/ for the /api/v2/ audience.
// Tokens are cached until a minute before they expire.
import { decodeJwt } from 'jose';
import { tokenPath } from '../specs/index.ts';
import { HarnessError } from './errors.ts';
import type { Exchange, TargetHttp } from './http.ts';
import { redactor } from './redact.ts';
import type { ResolvedTarget, RoleName } from './settings.ts';

const REFRESH_BEFORE_EXPIRY_MS = 60_000;

export interface TokenResult {
  exchange: Exchange;
  token?: string;
}

export class TokenProvider {
  readonly #http: TargetHttp;
  readonly #target: ResolvedTarget;
  readonly #cache = new Map<RoleName, { token: string; refreshAt: number }>();

  constructor(http: TargetHttp, target: ResolvedTarget) {
    this.#http = http;
    this.#target = target;
    for (const role of Object.values(target.roles)) redactor.add(role?.clientSecret);
  }

  /** The token endpoint URL the spec names. */
  get tokenUrl(): string {
    return `${this.#target.authUrl}${tokenPath}`;
  }

  /** A token of a role, from the cache or the token endpoint. */
  async tokenFor(role: RoleName): Promise<string> {
    const cached = this.#cache.get(role);
    if (cached && cached.refreshAt > Date.now()) return cached.token;
    const { exchange, token } = await this.request(role);
    if (!token) {
      const reason = exchange.json && typeof exchange.json === 'object' ? (exchange.json as { error?: unknown }).error : undefined;
      throw new HarnessError(
        'TOKEN_UNAVAILABLE',
        `the token endpoint refused role ${role} (status ${exchange.status}${reason ? `, ${String(reason)}` : ''}); check its credentials in the target file`,
      );
    }
    this.#cache.set(role, { token, refreshAt: expiryOf(token, exchange) - REFRESH_BEFORE_EXPIRY_MS });
    return token;
  }

  /**
   * One client-credentials request, as the spec describes it, with overrides for tests of the
   * token endpoint itself. The exchange is returned whatever its status.
   */
  async request(role: RoleName, overrides: { audience?: string; clientSecret?: string; url?: string; json?: boolean } = {}): Promise<TokenResult> {
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
      headers: {
        'content-type': overrides.json ? 'application/json' : 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body,
    });
    const token = exchange.status === 200 ? accessTokenOf(exchange.json) : undefined;
    redactor.add(token);
    return token ? { exchange, token } : { exchange };
  }
}

function accessTokenOf(json: unknown): string | undefined {
  const token = (json as { access_token?: unknown } | undefined)?.access_token;
  return typeof token === 'string' && token.length > 0 ? token : undefined;
}

function expiryOf(token: string, exchange: Exchange): number {
  const expiresIn = (exchange.json as { expires_in?: unknown }).expires_in;
  if (typeof expiresIn === 'number' && expiresIn > 0) return Date.now() + expiresIn * 1000;
  try {
    const exp = decodeJwt(token).exp;
    if (typeof exp === 'number') return exp * 1000;
  } catch {
    // Not a JWT: cache it briefly; the tests of the token itself say what is wrong.
  }
  return Date.now() + 5 * REFRESH_BEFORE_EXPIRY_MS;
}
