// How the bearer token is verified: the current time read one hour behind (a local-time string
// parsed as UTC), and the token also read from the access_token query parameter; and the observed
// rule: sub compared with <azp>@clients case-insensitively. Each lets exactly its near miss of a
// valid token through; a token wrong in any other way is refused as before.
import { observed } from '../../../../specs/index.ts';
import type { OperationKey } from '../../../../specs/index.ts';
import { editRequests } from '../../support/route-edits.ts';
import { forgiveClaim } from '../../support/verifier-edits.ts';
import { heldOutFamily } from '../held-out-fault.ts';

const SUFFIX = observed.tokens.subject_suffix;
const OPERATIONS: readonly OperationKey[] = ['redeliver', 'sso-ticket', 'vault'];
/** The query parameter RFC 6750 section 2.3 names. */
const QUERY_TOKEN = 'access_token';
/** The offset of the server's local time zone (Europe/Paris in winter). */
const LOCAL_OFFSET_MS = 3_600_000;

export const tokenVerificationFaults = heldOutFamily([
  {
    id: 'ho14-now-read-one-hour-behind',
    clause: 'redeliver.errors.401.invalid-token',
    level: 'contract',
    bug: 'The verifier\'s "now" made with dayjs(new Date().toLocaleString()) on a server in UTC+01:00, a local wall-clock string then read as UTC, so every exp is compared with a time one hour behind: a token that expired 30 minutes ago is accepted by every operation instead of 401; one that expired two hours ago is still refused.',
    install: (app) =>
      forgiveClaim(app, (claims, { clock }) => {
        const { exp } = claims;
        if (typeof exp !== 'number') return claims;
        const now = clock.now();
        return exp * 1000 <= now && now - LOCAL_OFFSET_MS < exp * 1000 ? { ...claims, exp: Math.ceil(now / 1000) + 60 } : claims;
      }),
  },
  {
    id: 'ho14-subject-case-insensitive',
    clause: 'auth.token.claims',
    level: 'observed',
    bug: `sub compared with <azp>${SUFFIX} by a collation-aware compare (localeCompare with sensitivity "accent"), as the user directory compares e-mail addresses: a correctly signed token whose sub is "<AZP>${SUFFIX.toUpperCase()}" (the subject upper-cased) is accepted by every operation instead of 401; sub "<azp>@client" is still refused.`,
    install: (app) =>
      forgiveClaim(app, (claims) =>
        typeof claims.sub === 'string' &&
        typeof claims.azp === 'string' &&
        claims.sub !== `${claims.azp}${SUFFIX}` &&
        claims.sub.localeCompare(`${claims.azp}${SUFFIX}`, 'en', { sensitivity: 'accent' }) === 0
          ? { ...claims, sub: `${claims.azp}${SUFFIX}` }
          : claims,
      ),
  },
  {
    id: 'ho14-access-token-query-parameter',
    clause: 'auth.bearer.required',
    level: 'contract',
    bug: `The bearer strategy also reading the token from the query parameter ${QUERY_TOKEN} (RFC 6750 section 2.3, on by default in the passport strategy the service uses) when no Authorization header is sent: a request with ?${QUERY_TOKEN}=<valid token> and no header is served by every operation instead of 401; ?${QUERY_TOKEN}=<a token with a character changed> is still refused.`,
    install: (app) => {
      for (const key of OPERATIONS)
        editRequests(app, key, (exchange) => {
          if (exchange.headers.authorization !== undefined) return exchange;
          const token = new URLSearchParams(exchange.query).get(QUERY_TOKEN);
          return token ? { ...exchange, headers: { ...exchange.headers, authorization: `Bearer ${token}` } } : exchange;
        });
    },
  },
]);
