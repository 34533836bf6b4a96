// Who the mock is: the tenant's domain, the identities its tokens can carry, and the other APIs
// (resource servers) it issues tokens for.
//
// A real tenant has one host; the mock is also reached at its own origin (http or https, a
// loopback name and its port, or whatever host a TLS proxy in front of it forwards). So a token
// carries one of two identities, chosen by the audience the token request names:
// - the canonical one, from the fixtures' domain: issuer https://<domain>/, audience
//   https://<domain>/api/v2/ (what the suite's target file and the ticket URLs use);
// - the mock as reached at an origin: issuer <origin>/, audience <origin>/api/v2/, where the
//   origin is a loopback name at the mock's port, or the host the request named, over http or
//   https (an SDK configured with `domain: 127.0.0.1:PORT` asks for https://127.0.0.1:PORT/api/v2/).
// The management interface accepts a token of either identity; iss and aud must name the same one.
import { audiencePath } from '../specs/index.ts';

export interface Identity {
  /** `iss` of its tokens, with the trailing slash: https://tenant.example.com/ */
  issuer: string;
  /** `aud` of its management tokens: https://tenant.example.com/api/v2/ */
  audience: string;
}

/** An API of the tenant other than the management interface, and the scopes it defines. */
export interface ResourceServer {
  identifier: string;
  name?: string;
  scopes: readonly string[];
}

export interface Tenant extends Identity {
  domain: string;
  /** The identity whose management audience this is, as a request to `host` may name it; else undefined. */
  identityForAudience(audience: string, host?: string): Identity | undefined;
  /** The identity whose issuer this is, for a request to `host`; else undefined. */
  identityForIssuer(issuer: string, host?: string): Identity | undefined;
  /** The mock as reached at `host` (a request's Host; the listening address without one), over its own scheme: for documents that name URLs (discovery). */
  identityReachedAt(host: string | undefined): Identity;
  /** Another API of the tenant, by identifier. */
  api(identifier: string): ResourceServer | undefined;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const SCHEMES = ['http', 'https'] as const;
/** A Host header value: a host name or an IP literal, and an optional port. */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** `origin` is where the mock listens, e.g. https://127.0.0.1:4010. */
export function createTenant(domain: string, origin: string, apis: readonly ResourceServer[] = []): Tenant {
  const { port, protocol, host: listening } = new URL(origin);
  const canonicalOrigin = `https://${domain}`;
  const canonical = identityOf(canonicalOrigin);
  const loopbackOrigins = new Set(SCHEMES.flatMap((scheme) => LOOPBACK_NAMES.map((name) => `${scheme}://${name}:${port}`)));
  const apisById = new Map(apis.map((api) => [api.identifier, api]));

  /** Whether a request to `host` may name the mock by this origin. */
  function knownOrigin(candidate: string, host: string | undefined): boolean {
    if (loopbackOrigins.has(candidate)) return true;
    return host !== undefined && HOST.test(host) && SCHEMES.some((scheme) => candidate === `${scheme}://${host.toLowerCase()}`);
  }

  /** The identity named by an origin followed by `suffix` (/ for an issuer, /api/v2/ for an audience). */
  function identityNamedBy(value: string, suffix: string, host: string | undefined): Identity | undefined {
    if (!value.endsWith(suffix)) return undefined;
    const named = value.slice(0, -suffix.length);
    if (named === canonicalOrigin) return canonical;
    return knownOrigin(named, host) ? identityOf(named) : undefined;
  }

  return {
    domain,
    ...canonical,
    identityForAudience: (audience, host) => identityNamedBy(audience, audiencePath, host),
    identityForIssuer: (issuer, host) => identityNamedBy(issuer, '/', host),
    identityReachedAt: (host) => identityOf(`${protocol}//${host !== undefined && HOST.test(host) ? host.toLowerCase() : listening}`),
    api: (identifier) => apisById.get(identifier),
  };
}

function identityOf(origin: string): Identity {
  return { issuer: `${origin}/`, audience: `${origin}${audiencePath}` };
}
