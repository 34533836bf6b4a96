// Who the mock is: the tenant's domain, the issuer and audience of its tokens, and the audiences
// its token endpoint accepts.
import { audiencePath } from '../specs/index.ts';

export interface Tenant {
  domain: string;
  /** `iss` of every token: https://<domain>/ */
  issuer: string;
  /** The canonical audience, `aud` of every token: https://<domain>/api/v2/ */
  audience: string;
  /** The audiences a token request may name: the canonical one, or the mock's own origin + /api/v2/. */
  acceptsAudience(audience: string): boolean;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * `origin` is where the mock listens (http://127.0.0.1:4010). A client that derives the audience
 * from the host it talks to sends http://127.0.0.1:4010/api/v2/; that alias is accepted under each
 * loopback name of the same port, and the token still carries the canonical audience.
 */
export function createTenant(domain: string, origin: string): Tenant {
  const { port } = new URL(origin);
  const aliases = new Set([`${origin}${audiencePath}`, ...LOOPBACK_NAMES.map((name) => `http://${name}:${port}${audiencePath}`)]);
  const audience = `https://${domain}${audiencePath}`;
  return {
    domain,
    issuer: `https://${domain}/`,
    audience,
    acceptsAudience: (candidate) => candidate === audience || aliases.has(candidate),
  };
}
